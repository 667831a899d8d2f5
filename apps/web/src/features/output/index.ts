// Generated outputs: the virtualized output table, its files and its issues list.
export { OutputTable } from './OutputTable.tsx';
export { focusNextOutput } from './outputFocus.ts';
export { DOWNLOAD_LABEL, MICROSOFT_DOWNLOAD_LABEL } from './OutputToolbar.tsx';
export { IssuesList } from './IssuesList.tsx';
