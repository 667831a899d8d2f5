export { PREVIEW_TEXTS, type PreviewTemplate } from './previewModel.ts';
export { selectedPreviewRows, type PreviewRows } from './previewRows.ts';
