import { startsLikeFormula } from '@adloom/engine';
import { readPackedCell, type PackedColumn, type PackedTable } from '../generation/jobs.ts';

/** Lines per part of the clipboard text: each part a short string, never one of many MB. */
export const TSV_LINES_PER_PART = 8192;

/** What `formatTsv` turns into one space inside a cell. */
const TSV_BREAKS = /[\t\r\n]+/g;
const HAS_TSV_BREAK = /[\t\r\n]/;

/**
 * The clipboard text of a packed table (exactly the engine's `formatTsv`: a header line, cells
 * joined by tabs, lines by '\n', tabs and line breaks inside a cell made one space) as parts of
 * `TSV_LINES_PER_PART` lines, read straight from the packed columns. Joined they are the text;
 * given to a Blob they never form one big string, so a 600k-line copy stays light on the worker
 * and leaves the page's thread alone. `neutraliseFormulas` (for a spreadsheet, never for Editor)
 * puts an apostrophe before a cell starting with = + - @, as `formatTsv`'s option does.
 */
export function formatPackedTsvParts(table: PackedTable, neutraliseFormulas = false): string[] {
  const tidy = (value: string): string =>
    HAS_TSV_BREAK.test(value) ? value.replace(TSV_BREAKS, ' ') : value;
  const clean = neutraliseFormulas
    ? (value: string): string => {
        const s = tidy(value);
        return startsLikeFormula(s) ? `'${s}` : s;
      }
    : tidy;
  // A column without any tab or line break needs no cleaning cell by cell.
  const hasBreak = (column: PackedColumn | undefined): boolean =>
    !!column && column.texts.some((t) => HAS_TSV_BREAK.test(t));
  const needsClean = table.columns.map(
    (column) =>
      neutraliseFormulas ||
      (column.field === undefined ? hasBreak(column) : hasBreak(table.records)),
  );
  const parts: string[] = [];
  let lines: string[] = [table.headers.map(clean).join('\t')];
  const cells = new Array<string>(table.columns.length);
  for (let r = 0; r < table.rowCount; r += 1) {
    for (let c = 0; c < cells.length; c += 1) {
      const value = readPackedCell(table, r, c);
      cells[c] = needsClean[c] ? clean(value) : value;
    }
    lines.push(cells.join('\t'));
    if (lines.length === TSV_LINES_PER_PART) {
      // Every part but the first starts with the line break that ends the previous line.
      parts.push((parts.length > 0 ? '\n' : '') + lines.join('\n'));
      lines = [];
    }
  }
  if (lines.length > 0 || parts.length === 0)
    parts.push((parts.length > 0 ? '\n' : '') + lines.join('\n'));
  return parts;
}
