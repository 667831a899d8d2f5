// Google Sheets on feeds and lists: link, download, upload, with the kept copy and progress.
export { FeedSheets } from './feedSheets.ts';
export { LinkSheetButton, SheetBusyArea, SheetPanel, useSheetsBusy } from './SheetControls.tsx';
export { LINKED_FEED_MARKER } from './sheetText.ts';
