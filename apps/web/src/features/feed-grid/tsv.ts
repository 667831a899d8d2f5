import { FEED_COLUMN_COUNT, isHeaderRow } from './feedColumns.ts';

/**
 * Splits a tab-separated clipboard block into lines of cells. Handles \r\n, a trailing newline
 * and cells quoted by spreadsheets ("a""b" with embedded tabs or newlines). A first line that is
 * a header row (see isHeaderRow) is skipped, as the spec's paste rule says.
 */
export function parseTsvBlock(text: string): string[][] {
  const lines = splitTsv(text);
  while (lines.length > 0 && lines[lines.length - 1]!.every((cell) => cell === '')) lines.pop();
  if (lines.length > 0 && isHeaderRow(lines[0]!)) lines.shift();
  return lines;
}

function splitTsv(text: string): string[][] {
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let i = 0;
  const n = text.length;
  let atCellStart = true;
  while (i < n) {
    const ch = text[i]!;
    if (atCellStart && ch === '"') {
      // Quoted cell: read up to the closing quote.
      let j = i + 1;
      let value = '';
      let closed = false;
      while (j < n) {
        const cj = text[j]!;
        if (cj === '"') {
          if (text[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          closed = true;
          j += 1;
          break;
        }
        value += cj;
        j += 1;
      }
      const next = text[j];
      if (closed && (next === undefined || next === '\t' || next === '\n' || next === '\r')) {
        cell = value;
        i = j;
        atCellStart = false;
        continue;
      }
      // Not a well-formed quoted cell: take the quote literally.
    }
    atCellStart = false;
    if (ch === '\t') {
      cells.push(cell);
      cell = '';
      atCellStart = true;
    } else if (ch === '\n' || ch === '\r') {
      cells.push(cell);
      lines.push(cells);
      cells = [];
      cell = '';
      atCellStart = true;
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else {
      cell += ch;
    }
    i += 1;
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    lines.push(cells);
  }
  return lines;
}

function quoteCell(value: string): string {
  return /[\t\n\r"]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Formats rows of cells as a tab-separated block (one line per row, cells quoted when needed). */
export function formatTsvLines(rows: Iterable<readonly string[]>): string {
  const out: string[] = [];
  for (const row of rows) out.push(row.slice(0, FEED_COLUMN_COUNT).map(quoteCell).join('\t'));
  return out.join('\n');
}
