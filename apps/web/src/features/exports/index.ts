// Kept outputs and their exports: the registry of what the template tabs generated, where each
// came from ("Made from" notes), and the downloads for Google Ads Editor.
export { DownloadEverything } from './DownloadEverything.tsx';
export { KeptOutputsContext } from './keptOutputs.ts';
export { saveBlob, notifyFileError } from './files.ts';
export { editorFileName, formatFileDate, safeFilePart } from './fileNames.ts';
