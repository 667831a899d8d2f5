// One zip of every generated output's Google Ads Editor CSV, for the Templates section.
export { DownloadEverything, DOWNLOAD_EVERYTHING_TEXTS } from './DownloadEverything.tsx';
export { collectEditorFiles, allOutputsZipName, type EditorZipFile } from './editorFiles.ts';
export { zipEditorFilesJob, type ZipEditorFilesInput } from './editorZipJob.ts';
