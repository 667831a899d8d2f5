// Generated outputs: packed tables from the worker, the virtualized output table, issues.
export { OutputTable, OUTPUT_ROW_HEIGHT_PX, type OutputTableProps } from './OutputTable.tsx';
export { DOWNLOAD_LABEL } from './OutputToolbar.tsx';
export { saveBlob, notifyFileError } from './outputFiles.ts';
export { IssuesList } from './IssuesList.tsx';
export {
  packTable,
  packIssues,
  emptyPackedTable,
  readPackedCell,
  unpackTable,
  ISSUE_HEADERS,
  type PackedTable,
  type PackedColumn,
} from '../generation/packTable.ts';
export { editorFileName, editorZipFileName, formatFileDate, safeFilePart } from './fileNames.ts';
export { TABLE_COPIED_MESSAGE } from '../../components/clipboard.ts';
