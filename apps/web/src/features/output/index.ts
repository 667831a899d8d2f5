// Generated outputs: the virtualized output table, its files and its issues list.
export { OutputTable } from './OutputTable.tsx';
export { focusNextOutput } from './outputFocus.ts';
export { DOWNLOAD_LABEL } from './OutputToolbar.tsx';
export { saveBlob, notifyFileError } from './outputFiles.ts';
export { IssuesList } from './IssuesList.tsx';
export { editorFileName, formatFileDate, safeFilePart } from './fileNames.ts';
