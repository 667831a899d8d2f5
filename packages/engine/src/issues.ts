/** Problems found in user data while generating: data, never exceptions. */

/** What happened to an item of output. */
export type RowIssueKind = 'skipped' | 'cleaned' | 'warning';

/** A problem with one feed row (or template, when rowId is empty). */
export interface RowIssue {
  kind: RowIssueKind;
  /** The output kind it concerns: 'keywords', 'responsive search ads', ... */
  output: string;
  rowId: string;
  /** Position of the row in the input, from 1 (0 when not row-bound). */
  rowNumber: number;
  code: string;
  message: string;
}
