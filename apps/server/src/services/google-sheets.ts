/**
 * The sheet calls of feeds and lists (download, upload) and their Google Sheets v4 client,
 * hand-written over fetch: the spreadsheet's
 * title and tab, the tab's values read in batches, and the tab replaced (cleared, then written
 * RAW in batches, so `00042`, long numbers, dates and a leading `=` stay text). Google's 429 and
 * 5xx answers are retried with exponential backoff and jitter, honouring Retry-After; what is
 * left becomes an AppError with the spec's message. The access token is asked for per request
 * and never logged.
 */
import {
  countSheetRowsNotIn,
  SHEET_HEADER_ROW,
  formatSheetValues,
  isEmptyFeedRow,
  readSheetRows,
} from '@adloom/engine';
import {
  FEED_MAX_ROWS,
  SHEET_MESSAGES,
  parseSheetUrl,
  type ParsedFeedRow,
  type SheetDownloadAnswer,
  type SheetUploadAnswer,
} from '@adloom/contract';
import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import type { SheetProgressReporter } from './sheet-progress.ts';
import { recordSheetCopy } from './workspace.ts';

/** Most rows one values request reads or writes (Google's answers stay a few MB). */
const SHEET_ROWS_PER_REQUEST = 10_000;
/** Retries of a request Google answered 429 or 5xx (or that never reached Google). */
const SHEET_MAX_RETRIES = 5;
/** The longest wait a Retry-After answer is honoured with. */
const RETRY_AFTER_MAX_MS = 30_000;
/** One request to Google must answer within this time. */
const SHEET_REQUEST_TIMEOUT_MS = 60_000;
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
/** The columns written: one per feed column (the engine's `SHEET_HEADER_ROW`), from A. */
const WRITTEN_COLUMNS = SHEET_HEADER_ROW.length;
const WRITTEN_LAST_COLUMN = columnLetters(WRITTEN_COLUMNS);
const SPREADSHEET_FIELDS = 'properties.title,sheets.properties(sheetId,title,gridProperties)';

/** Where log lines about Google's refusals go (never with the token). */
interface SheetsLog {
  warn(fields: object, message: string): void;
}

/** Options of `createSheetsClient`. */
interface SheetsClientOptions {
  /** Base of the API (GOOGLE_SHEETS_URL): requests go to `${baseUrl}/v4/spreadsheets/...`. */
  baseUrl: string;
  /**
   * The user's access token. `isRenewal` is true when Google refused the last one (401): the
   * getter must not answer the same token again.
   */
  getAccessToken: (isRenewal: boolean) => Promise<string>;
  /** First retry wait (GOOGLE_RETRY_BASE_MS); each further one doubles it. */
  retryBaseMs: number;
  log?: SheetsLog;
}

/** The tab a sheet URL names. */
interface SheetTab {
  spreadsheetId: string;
  /** The spreadsheet's title (the spec's `sheetName`). */
  spreadsheetTitle: string;
  title: string;
  sheetId: number;
  /** Rows of the tab's grid (data never reaches past it). */
  rowCount: number;
  /** Columns of the tab's grid. */
  columnCount: number;
}

/** Rows moved so far out of the total. */
type SheetProgressListener = (done: number, total: number) => void;

/** What the sheet calls do with a spreadsheet. */
interface SheetsClient {
  /** The spreadsheet and tab a sheet URL names (its `#gid=` when found, else the first tab). */
  openTab(sheetUrl: string): Promise<SheetTab>;
  /** Every row of the tab as text, first row first (blank rows inside stay as `[]`). */
  readValues(tab: SheetTab, onProgress?: SheetProgressListener): Promise<string[][]>;
  /** Clears the tab, then writes `values` from A1, RAW. */
  replaceValues(
    tab: SheetTab,
    values: readonly (readonly string[])[],
    onProgress?: SheetProgressListener,
  ): Promise<void>;
}

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string };
}

interface SpreadsheetBody {
  properties?: { title?: string };
  sheets?: {
    properties?: {
      sheetId?: number;
      title?: string;
      gridProperties?: { rowCount?: number; columnCount?: number };
    };
  }[];
}

interface ValuesBody {
  values?: unknown[][];
}

/** The A1 letters of the column numbered `n` from 1 (1: A, 26: Z, 27: AA). */
function columnLetters(n: number): string {
  let letters = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
    letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
  return letters;
}

/** An A1 range on a tab: the title quoted, a `'` in it doubled. */
function formatSheetRange(tabTitle: string, cells?: string): string {
  const quoted = `'${tabTitle.replaceAll("'", "''")}'`;
  return cells === undefined ? quoted : `${quoted}!${cells}`;
}

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), if it says. */
export function readRetryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function sheetNotFound(): AppError {
  return new AppError('sheet_not_found', SHEET_MESSAGES.invalidSheet);
}

/** Google answered 200 with a body that is not what the API documents. */
function unexpectedAnswer(): AppError {
  return new AppError('upstream_failed', SHEET_MESSAGES.whoops);
}

function tooManyRows(): AppError {
  return new AppError(
    'payload_too_large',
    `The sheet holds more than ${FEED_MAX_ROWS.toLocaleString('en-US')} rows: a feed holds at most that many. Link a tab with fewer rows (its #gid= in the URL).`,
  );
}

/** The JSON of an answer, or undefined when the body cannot be read or is not JSON. */
async function readJson(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text()) as unknown;
  } catch {
    return undefined;
  }
}

function isSpreadsheetBody(value: unknown): value is SpreadsheetBody {
  if (typeof value !== 'object' || value === null) return false;
  const sheets = (value as { sheets?: unknown }).sheets;
  return (
    sheets === undefined ||
    (Array.isArray(sheets) && sheets.every((sheet) => typeof sheet === 'object' && sheet !== null))
  );
}

function asText(cell: unknown): string {
  if (typeof cell === 'string') return cell;
  return cell === null || cell === undefined ? '' : String(cell);
}

/** A Sheets client for one user's calls. */
export function createSheetsClient(options: SheetsClientOptions): SheetsClient {
  const { baseUrl, getAccessToken, retryBaseMs, log } = options;
  const apiBase = `${baseUrl.replace(/\/+$/, '')}/v4/spreadsheets/`;

  /** Logs Google's refusal (its status and message, never the request's token). */
  async function logRefusal(method: string, response: Response): Promise<void> {
    let google: GoogleErrorBody['error'];
    try {
      google = ((await response.json()) as GoogleErrorBody).error;
    } catch {
      google = undefined;
    }
    log?.warn(
      {
        method,
        status: response.status,
        googleStatus: google?.status,
        googleMessage: google?.message?.slice(0, 300),
      },
      'google sheets refused a request',
    );
  }

  /** One API request with its retries; answers the JSON body. */
  async function call<T>(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<T> {
    let isRenewal = false;
    for (let retry = 0; ; retry++) {
      const token = await getAccessToken(isRenewal);
      let response: Response | undefined;
      try {
        response = await fetch(apiBase + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(SHEET_REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        // Google not reached (or too slow): retried like a 503.
        log?.warn({ method, cause: (error as Error).name }, 'google sheets not reached');
      }
      if (response?.ok) {
        const answer = await readJson(response);
        if (typeof answer === 'object' && answer !== null) return answer as T;
        // A body cut off, not JSON or not an object (a proxy's page): retried like a 502.
        log?.warn({ method }, 'google sheets answered an unreadable body');
        response = undefined;
      }
      if (response) await logRefusal(method, response);
      const status = response?.status ?? 503;
      if (status === 401 && !isRenewal) {
        // The kept access token may have been revoked meanwhile: once more with a new one.
        isRenewal = true;
        retry--;
        continue;
      }
      if (status === 401) throw new AppError('relink_needed', SHEET_MESSAGES.relinkNeeded);
      if (status === 403 || status === 404) throw sheetNotFound();
      if (!RETRIED_STATUSES.has(status) || retry >= SHEET_MAX_RETRIES) {
        if (status === 429) throw new AppError('quota_exhausted', SHEET_MESSAGES.quota);
        throw new AppError('upstream_failed', SHEET_MESSAGES.whoops);
      }
      const backoffMs = retryBaseMs * 2 ** retry + Math.random() * retryBaseMs;
      const askedMs = readRetryAfterMs(response?.headers.get('retry-after') ?? null, Date.now());
      await sleep(Math.max(backoffMs, Math.min(askedMs ?? 0, RETRY_AFTER_MAX_MS)));
    }
  }

  function valuesPath(tab: SheetTab, range: string): string {
    return `${encodeURIComponent(tab.spreadsheetId)}/values/${encodeURIComponent(range)}`;
  }

  return {
    async openTab(sheetUrl) {
      const parsed = parseSheetUrl(sheetUrl);
      if (!parsed) throw sheetNotFound();
      const spreadsheet = await call<SpreadsheetBody>(
        'GET',
        `${encodeURIComponent(parsed.spreadsheetId)}?fields=${encodeURIComponent(SPREADSHEET_FIELDS)}`,
      );
      if (!isSpreadsheetBody(spreadsheet)) throw unexpectedAnswer();
      const tabs = (spreadsheet.sheets ?? []).map((sheet) => sheet.properties ?? {});
      const tab = tabs.find((t) => parsed.gid !== undefined && t.sheetId === parsed.gid) ?? tabs[0];
      if (!tab || tab.title === undefined) throw sheetNotFound();
      return {
        spreadsheetId: parsed.spreadsheetId,
        spreadsheetTitle: spreadsheet.properties?.title ?? '',
        title: tab.title,
        sheetId: tab.sheetId ?? 0,
        rowCount: tab.gridProperties?.rowCount ?? 0,
        columnCount: tab.gridProperties?.columnCount ?? 0,
      };
    },

    async readValues(tab, onProgress) {
      const values: string[][] = [];
      // Rows with a cell (the header included): a tab past the feed limit stops being read.
      let rowsHeld = 0;
      for (let first = 1; first <= tab.rowCount; first += SHEET_ROWS_PER_REQUEST) {
        const last = Math.min(first + SHEET_ROWS_PER_REQUEST - 1, tab.rowCount);
        const query = 'majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE';
        const batch = await call<ValuesBody>(
          'GET',
          `${valuesPath(tab, formatSheetRange(tab.title, `${first}:${last}`))}?${query}`,
        );
        const rows = batch.values ?? [];
        if (!Array.isArray(rows) || !rows.every(Array.isArray)) throw unexpectedAnswer();
        // Google leaves out the empty rows at the end of a range: keep the rows in place.
        while (values.length < first - 1) values.push([]);
        for (const row of rows) {
          values.push(row.map(asText));
          if (row.length > 0 && ++rowsHeld > FEED_MAX_ROWS + 1) throw tooManyRows();
        }
        onProgress?.(last, tab.rowCount);
      }
      return values;
    },

    async replaceValues(tab, values, onProgress) {
      await call('POST', `${valuesPath(tab, formatSheetRange(tab.title))}:clear`, {});
      // Google refuses values past a tab's grid (a new tab is 1000 x 26): grow it first, to a
      // size (not by an amount), so a retried request cannot grow it twice.
      const rowCount = Math.max(tab.rowCount, values.length);
      const columnCount = Math.max(tab.columnCount, WRITTEN_COLUMNS);
      if (rowCount > tab.rowCount || columnCount > tab.columnCount)
        await call('POST', `${encodeURIComponent(tab.spreadsheetId)}:batchUpdate`, {
          requests: [
            {
              updateSheetProperties: {
                properties: { sheetId: tab.sheetId, gridProperties: { rowCount, columnCount } },
                fields: 'gridProperties.rowCount,gridProperties.columnCount',
              },
            },
          ],
        });
      for (let start = 0; start < values.length; start += SHEET_ROWS_PER_REQUEST) {
        const batch = values.slice(start, start + SHEET_ROWS_PER_REQUEST);
        const cells = `A${start + 1}:${WRITTEN_LAST_COLUMN}${start + batch.length}`;
        const range = formatSheetRange(tab.title, cells);
        await call('PUT', `${valuesPath(tab, range)}?valueInputOption=RAW`, {
          range,
          majorDimension: 'ROWS',
          values: batch,
        });
        onProgress?.(start + batch.length, values.length);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Download and upload of a feed or list

/** The feed or list a sheet call is about: its `_id` (may name none of the user's) and sheet. */
interface SheetFeedRef {
  _id?: string | undefined;
  sheetUrl: string;
}

/** What a sheet call needs besides its feed. */
export interface SheetCallContext {
  db: Db;
  userId: string;
  sheets: SheetsClient;
  progress: SheetProgressReporter;
}

/**
 * Download Data / a linked list: reads the sheet's tab, maps its headers as CSV import does,
 * stores the rows (fresh ids) as the feed's kept copy and answers them. Nothing is stored
 * unless the whole tab was read and its headers are good: a failed download leaves the feed.
 */
export async function downloadSheet(
  context: SheetCallContext,
  feed: SheetFeedRef,
): Promise<SheetDownloadAnswer> {
  const { sheets, progress } = context;
  const tab = await sheets.openTab(feed.sheetUrl);
  progress.report('reading', 0, tab.rowCount);
  const values = await sheets.readValues(tab, (done, total) =>
    progress.report('reading', done, total),
  );
  const read = readSheetRows(values);
  if (!read.ok)
    throw new AppError('sheet_headers', SHEET_MESSAGES.headers, {
      problem: read.problem,
      reason: read.error,
      hint: SHEET_MESSAGES.headersHint,
    });
  if (read.rows.length > FEED_MAX_ROWS)
    throw new AppError(
      'payload_too_large',
      `The sheet holds ${read.rows.length.toLocaleString('en-US')} rows: a feed holds at most ${FEED_MAX_ROWS.toLocaleString('en-US')}.`,
    );
  const rows: ParsedFeedRow[] = read.rows.map((row) => ({ id: '', ...row }));
  const sheetSync = await recordSheetCopy(context.db, context.userId, feed._id, {
    rows,
    direction: 'read',
  });
  return {
    formattedRows: rows,
    sheetName: tab.spreadsheetTitle,
    sheetSync,
    truncatedCells: read.truncatedCells,
    ignoredHeaders: read.ignoredHeaders,
  };
}

/**
 * Upload Data / a list's upload: replaces the tab with the header row and the rows (blank rows
 * left out), then stores them as the feed's kept copy. Unless `replace`, the tab is read first:
 * rows it holds that the upload does not answer 409 `sheet_has_other_rows` with their count.
 */
export async function uploadSheet(
  context: SheetCallContext,
  feed: SheetFeedRef,
  input: { rows: readonly ParsedFeedRow[]; replace: boolean },
): Promise<SheetUploadAnswer> {
  const { sheets, progress } = context;
  const rows = input.rows.filter((row) => !isEmptyFeedRow(row));
  const tab = await sheets.openTab(feed.sheetUrl);
  if (!input.replace) {
    progress.report('reading', 0, tab.rowCount);
    const current = await sheets.readValues(tab, (done, total) =>
      progress.report('reading', done, total),
    );
    const otherRows = countSheetRowsNotIn(current, rows);
    if (otherRows > 0)
      throw new AppError('sheet_has_other_rows', SHEET_MESSAGES.otherRows(otherRows), {
        otherRows,
      });
  }
  const values = formatSheetValues(rows);
  // The header row is written first: progress counts the feed's rows.
  progress.report('writing', 0, rows.length);
  await sheets.replaceValues(tab, values, (done) =>
    progress.report('writing', Math.max(0, done - 1), rows.length),
  );
  const sheetSync = await recordSheetCopy(context.db, context.userId, feed._id, {
    rows,
    direction: 'written',
  });
  return { message: SHEET_MESSAGES.uploaded, sheetName: tab.spreadsheetTitle, sheetSync };
}
