/** The keyword path's row issues, each handed over once per row as its row is read. */
import type { RowIssue } from '../issues.ts';
import type { FeedRow } from '../types.ts';

/** The `output` of the keyword path's row issues. */
export const OUTPUT_KEYWORDS = 'keywords';

/**
 * Hands the rows' issues over as they come, each once. Every one is reported while its row is
 * read, rows in order, so the keys seen are only the current row's (a feed whose rows all report
 * kept a key of about 200 bytes per issue).
 */
export class RowIssues {
  private readonly reported = new Set<string>();
  private reportedRow = 0;

  constructor(readonly report: (issue: RowIssue) => void) {}

  /** Reports an issue of `row` unless the row reported it already (a function: it is handed on). */
  readonly issue = (
    kind: RowIssue['kind'],
    row: FeedRow,
    rowNumber: number,
    code: string,
    message: string,
  ): void => {
    if (rowNumber !== this.reportedRow) {
      this.reported.clear();
      this.reportedRow = rowNumber;
    }
    const key = `${code}\u001f${message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.report({ kind, output: OUTPUT_KEYWORDS, rowId: row.id, rowNumber, code, message });
  };
}
