import type { RowIssue, Table } from '@adloom/engine';

/**
 * One column of a packed table: its distinct values concatenated into one string, `offsets`
 * marking where each value starts (value k is text.slice(offsets[k], offsets[k + 1])), and per
 * row the index of its value (`codes`), or null when row i holds value i. Strings cross between
 * threads as one memory copy and the arrays are transferred, so a 600k-line output reaches the
 * page without cloning 600k objects.
 */
export interface PackedColumn {
  text: string;
  offsets: Uint32Array;
  codes: Uint32Array | null;
}

/** A generated output table as it travels from the worker to the page. */
export interface PackedTable {
  headers: string[];
  rowCount: number;
  columns: PackedColumn[];
}

/** Columns whose distinct values stay under this share of the rows are dictionary coded. */
const DICTIONARY_SHARE = 0.5;

class ColumnPacker {
  private readonly parts: string[] = [];
  private readonly starts: number[] = [0];
  private length = 0;
  private readonly index = new Map<string, number>();
  private codes: number[] = [];
  private isDictionary = true;
  private rows = 0;

  add(value: string): void {
    this.rows += 1;
    if (this.isDictionary) {
      let code = this.index.get(value);
      if (code === undefined) {
        code = this.parts.length;
        this.index.set(value, code);
        this.push(value);
        // Mostly distinct values: a dictionary only costs memory, switch to one value per row.
        if (this.rows > 2048 && this.parts.length > this.rows * DICTIONARY_SHARE)
          this.undictionary();
        else this.codes.push(code);
        return;
      }
      this.codes.push(code);
      return;
    }
    this.push(value);
  }

  private push(value: string): void {
    this.parts.push(value);
    this.length += value.length;
    this.starts.push(this.length);
  }

  private undictionary(): void {
    // Rebuild as one value per row from the codes seen so far plus the value just pushed.
    const values = this.parts.slice();
    const codes = this.codes;
    const last = values[values.length - 1] as string;
    this.parts.length = 0;
    this.starts.length = 1;
    this.length = 0;
    for (const code of codes) this.push(values[code] as string);
    this.push(last);
    this.index.clear();
    this.codes = [];
    this.isDictionary = false;
  }

  finish(): PackedColumn {
    return {
      text: this.parts.join(''),
      offsets: Uint32Array.from(this.starts),
      codes: this.isDictionary ? Uint32Array.from(this.codes) : null,
    };
  }
}

/** Packs an engine table (run it in the worker: it walks every row). */
export function packTable(table: Table): PackedTable {
  const headers = [...table.headers];
  const packers = headers.map(() => new ColumnPacker());
  let rowCount = 0;
  for (const row of table.rows) {
    for (let c = 0; c < packers.length; c += 1) (packers[c] as ColumnPacker).add(row[c] ?? '');
    rowCount += 1;
  }
  return { headers, rowCount, columns: packers.map((p) => p.finish()) };
}

/** An empty table with these headers. */
export function emptyPackedTable(headers: readonly string[]): PackedTable {
  return packTable({ headers, rows: [] });
}

/** The cell at (row, column). */
export function readPackedCell(table: PackedTable, row: number, column: number): string {
  const c = table.columns[column];
  if (!c || row < 0 || row >= table.rowCount) return '';
  const k = c.codes ? (c.codes[row] as number) : row;
  return c.text.slice(c.offsets[k], c.offsets[k + 1]);
}

/** The packed table as an engine Table (rows made lazily; one reused array per row). */
export function unpackTable(table: PackedTable): Table {
  return {
    headers: table.headers,
    rows: {
      *[Symbol.iterator]() {
        const row = new Array<string>(table.headers.length).fill('');
        for (let r = 0; r < table.rowCount; r += 1) {
          for (let c = 0; c < row.length; c += 1) row[c] = readPackedCell(table, r, c);
          yield row;
        }
      },
    },
  };
}

/** The buffers of a packed table, for postMessage's transfer list. */
export function getPackedTransferables(table: PackedTable): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const c of table.columns) {
    buffers.push(c.offsets.buffer as ArrayBuffer);
    if (c.codes) buffers.push(c.codes.buffer as ArrayBuffer);
  }
  return buffers;
}

/** Headers of the skipped-and-cleaned list. */
export const ISSUE_HEADERS = ['Row', 'What happened', 'Reason'] as const;

const ISSUE_KIND_LABELS: Record<RowIssue['kind'], string> = {
  skipped: 'Skipped',
  cleaned: 'Cleaned',
  warning: 'Warning',
};

/**
 * Row problems as a packed table: the feed row number (from `rowPositions`, the feed position of
 * each selected row), what happened and why.
 */
export function packIssues(
  issues: readonly RowIssue[],
  ctx: { rowPositions: Uint32Array },
): PackedTable {
  return packTable({
    headers: ISSUE_HEADERS,
    rows: {
      *[Symbol.iterator]() {
        for (const issue of issues) {
          const position = issue.rowNumber > 0 ? ctx.rowPositions[issue.rowNumber - 1] : undefined;
          yield [
            position === undefined ? '' : String(position + 1),
            ISSUE_KIND_LABELS[issue.kind],
            issue.message,
          ];
        }
      },
    },
  });
}
