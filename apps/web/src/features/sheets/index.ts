// Google Sheets on feeds and lists: link, download, upload, with the kept copy and progress.
export { FeedSheets, type FeedSheetsState } from './feedSheets.ts';
export {
  LinkSheetButton,
  SheetPanel,
  useHasSheetsIntegration,
  useSheetsBusy,
} from './SheetControls.tsx';
export { LINKED_FEED_MARKER } from './sheetText.ts';
