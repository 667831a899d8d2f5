export {
  slideFor,
  findFirstValidRow,
  isEmptyRow,
  seededRandom,
  PREVIEW_TEXTS,
  type PreviewTemplate,
  type Slide,
} from './previewModel.ts';
export { previewRowsOf, selectedPreviewRows, type PreviewRows } from './previewRows.ts';
