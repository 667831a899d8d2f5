// Generated outputs: packed tables from the worker, the virtualized output table, issues.
export {
  OutputTable,
  DOWNLOAD_LABEL,
  OUTPUT_ROW_HEIGHT_PX,
  saveBlob,
  notifyFileError,
  type OutputTableProps,
} from './OutputTable.tsx';
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
