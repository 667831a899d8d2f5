/** A small RFC 4180 CSV reader and writer, plus tab-separated copy; pure and streaming-friendly. */

/** Line breaks (CRLF, LF or CR, each one) in `text` from `start` to `end`. */
function countLineBreaks(text: string, start: number, end: number): number {
  let breaks = 0;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (c === 10) breaks++;
    else if (c === 13) {
      breaks++;
      if (text.charCodeAt(k + 1) === 10) k++;
    }
  }
  return breaks;
}

/**
 * Parses CSV text (RFC 4180: quoted fields, doubled quotes, CRLF or LF). A leading BOM is dropped.
 * A blank line is a record of one empty cell. When `recordLines` is given, it receives for each
 * record the physical line (from 1) it starts on: line breaks inside quoted cells count.
 */
export function parseCsv(text: string, delimiter = ',', recordLines?: number[]): string[][] {
  const rows: string[][] = [];
  forEachCsvRecord(
    text,
    (cells, line) => {
      rows.push(cells);
      recordLines?.push(line);
    },
    delimiter,
  );
  return rows;
}

/**
 * `parseCsv` handing each record to `onRecord` with the physical line (from 1) and the offset in
 * `text` it starts at, as it is read, so a big file never becomes one table. `onRecord` may
 * return false to stop. The delimiter is one character, not a quote, CR or LF.
 */
export function forEachCsvRecord(
  text: string,
  onRecord: (cells: string[], line: number, start: number) => boolean | void,
  delimiter = ',',
): void {
  const d = delimiter.charAt(0);
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  // The next LF, CR, quote and delimiter at or after a position, or `n` for none: each is searched
  // again (by indexOf, which outruns a loop over the characters) only once passed, so the text is
  // searched once for each whatever its line endings or cells.
  let nextLf = -1;
  let nextCr = -1;
  let nextQuote = -1;
  let nextDelimiter = -1;
  while (i < n) {
    const start = i;
    if (nextLf < i) nextLf = indexOrEnd(text, '\n', i);
    if (nextCr < i) nextCr = indexOrEnd(text, '\r', i);
    if (nextQuote < i) nextQuote = indexOrEnd(text, '"', i);
    let end = nextLf < nextCr ? nextLf : nextCr;
    let cells: string[];
    let breaks = 0;
    if (nextQuote < end) {
      // A record with a quote is read by the general parser.
      const record = readQuotedRecord(text, start, d.charCodeAt(0));
      cells = record.cells;
      end = record.end;
      breaks = record.breaks;
    } else {
      // A record with no quote is cut at each delimiter up to its line end, one slice per cell.
      cells = [];
      if (nextDelimiter < i) nextDelimiter = indexOrEnd(text, d, i);
      let cellStart = i;
      while (nextDelimiter < end) {
        cells.push(text.slice(cellStart, nextDelimiter));
        cellStart = nextDelimiter + 1;
        nextDelimiter = indexOrEnd(text, d, cellStart);
      }
      cells.push(text.slice(cellStart, end));
    }
    if (onRecord(cells, line, start) === false || end >= n) return;
    i = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    line += breaks + 1;
  }
}

/** The offset of `search` in `text` from `from`, or the text's length when it is not there. */
function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? text.length : at;
}

/**
 * The record of `text` starting at `start`, which holds a quote: its cells, the offset of the line
 * break that ends it (or the text's length) and the line breaks inside its quoted cells.
 */
function readQuotedRecord(
  text: string,
  start: number,
  d: number,
): { cells: string[]; end: number; breaks: number } {
  const n = text.length;
  const cells: string[] = [];
  let breaks = 0;
  let field = '';
  let atFieldStart = true;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (atFieldStart && c === 34) {
      // Quoted field.
      i++;
      const fieldStart = i;
      let from = i;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) {
          field += text.slice(from);
          i = n;
          break;
        }
        if (text.charCodeAt(q + 1) === 34) {
          field += text.slice(from, q + 1);
          i = q + 2;
          from = i;
          continue;
        }
        field += text.slice(from, q);
        i = q + 1;
        break;
      }
      breaks += countLineBreaks(text, fieldStart, i);
      // Anything between the closing quote and the delimiter is kept (lenient).
      while (i < n) {
        const e = text.charCodeAt(i);
        if (e === d || e === 10 || e === 13) break;
        field += text[i];
        i++;
      }
      atFieldStart = false;
      continue;
    }
    if (c === d) {
      cells.push(field);
      field = '';
      atFieldStart = true;
      i++;
      continue;
    }
    if (c === 10 || c === 13) break;
    // Plain run up to the next delimiter or line end (a quote inside a cell is kept as it is).
    let j = i;
    while (j < n) {
      const e = text.charCodeAt(j);
      if (e === d || e === 10 || e === 13) break;
      j++;
    }
    field += text.slice(i, j);
    i = j;
    atFieldStart = false;
  }
  cells.push(field);
  return { cells, end: i, breaks };
}

/** A table to export: headers and rows of cells. */
export interface Table {
  headers: readonly string[];
  rows: Iterable<readonly string[]>;
}

/** Options of `formatCsv`. */
export interface FormatCsvOptions {
  /**
   * Neutralise cells a spreadsheet would run as a formula (starting with = + - @ tab or CR) by
   * prefixing an apostrophe. For CSV meant for spreadsheets; Google Ads Editor files keep text as is.
   */
  neutraliseFormulas?: boolean;
  /** Lines per chunk yielded (default `DEFAULT_CHUNK_LINES`). */
  chunkLines?: number;
  /** Line ending (default CRLF, as RFC 4180 says). */
  newline?: string;
}

/**
 * Lines per CSV chunk unless the caller says otherwise. A chunk of keyword lines (about 100
 * characters each) then stays under V8's 128 KB limit for ordinary heap objects: a consumer that
 * flattens the chunk gets it in the young generation, whose memory is reused, instead of a large
 * object on freshly mapped pages (a page fault per 4 KB, which costs more than writing the text).
 */
export const DEFAULT_CHUNK_LINES = 1024;

/**
 * Characters after which a chunk is yielded however few lines it holds: long lines (an ad's 15
 * headlines and 4 descriptions) would otherwise make 1,024-line chunks of several hundred KB,
 * large objects every one (see DEFAULT_CHUNK_LINES).
 */
export const CHUNK_CHARS_MAX = 32_768;

/** `FormatCsvOptions` with the defaults filled in. */
export function resolveCsvOptions(options: FormatCsvOptions): Required<FormatCsvOptions> {
  return {
    neutraliseFormulas: options.neutraliseFormulas ?? false,
    chunkLines: options.chunkLines ?? DEFAULT_CHUNK_LINES,
    newline: options.newline ?? '\r\n',
  };
}

/** True when a spreadsheet would treat the cell as a formula. */
export function isFormulaLike(cell: string): boolean {
  const c = cell.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/**
 * True when a cell must be quoted: it holds `"`, `,`, CR or LF, or starts or ends with a space.
 * One scan of character codes (a regular expression test per cell cost a third of a big run).
 */
function needsQuotes(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (s.charCodeAt(0) === 32 || s.charCodeAt(n - 1) === 32) return true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    // '"' 34, ',' 44, CR 13, LF 10: every other code below 45 but these passes on.
    if (c <= 44 && (c === 34 || c === 44 || c === 10 || c === 13)) return true;
  }
  return false;
}

/** One CSV cell, quoted when needed. */
export function formatCsvCell(cell: string, neutraliseFormulas = false): string {
  let s = cell;
  if (neutraliseFormulas && s.length > 0 && isFormulaLike(s)) s = `'${s}`;
  return needsQuotes(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line of `cells` with its line ending. */
export function formatCsvLine(
  cells: readonly string[],
  neutraliseFormulas = false,
  newline = '\r\n',
): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += ',';
    line += formatCsvCell(cells[i] ?? '', neutraliseFormulas);
  }
  return line + newline;
}

/** Formats a table as CSV, yielding chunks of lines so huge outputs never become one string. */
export function* formatCsv(table: Table, options: FormatCsvOptions = {}): Generator<string> {
  const { neutraliseFormulas: neutralise, newline: nl, chunkLines } = resolveCsvOptions(options);
  let chunk = formatCsvLine(table.headers, false, nl);
  let lines = 1;
  for (const row of table.rows) {
    chunk += formatCsvLine(row, neutralise, nl);
    if (++lines >= chunkLines || chunk.length >= CHUNK_CHARS_MAX) {
      yield chunk;
      chunk = '';
      lines = 0;
    }
  }
  if (chunk) yield chunk;
}

/** The whole CSV as one string (small tables, tests). */
export function formatCsvText(table: Table, options: FormatCsvOptions = {}): string {
  let s = '';
  for (const c of formatCsv(table, options)) s += c;
  return s;
}

/**
 * Tab-separated text for the clipboard (header line first). Tabs and line breaks inside cells
 * become spaces, so each row stays one line and each cell one column.
 */
export function formatTsv(table: Table, options: { neutraliseFormulas?: boolean } = {}): string {
  const clean = (c: string): string => {
    const s = c.replace(/[\t\r\n]+/g, ' ');
    return options.neutraliseFormulas && s.length > 0 && isFormulaLike(s) ? `'${s}` : s;
  };
  const lines = [table.headers.map(clean).join('\t')];
  for (const row of table.rows) lines.push(row.map(clean).join('\t'));
  return lines.join('\n');
}
