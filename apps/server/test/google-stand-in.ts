/**
 * A stand-in for Google's OAuth endpoints and the Sheets v4 API on loopback, used by the server
 * tests, the browser journeys and the sheets benchmark. It speaks the protocol the server's
 * Google client speaks (docs: RFC 6749 + RFC 7636 for OAuth, Sheets v4 `spreadsheets.get`,
 * `values.get`, `values.update`, `values.clear`, and the grid-sizing requests of
 * `spreadsheets.batchUpdate`) and holds its spreadsheets in memory, cells as text, on grids
 * that values requests cannot reach past (as in Google).
 *
 * Run alone (prints its settings and an empty spreadsheet's URL as one JSON line):
 *   node --import tsx apps/server/test/google-stand-in.ts [--grid-rows 1000]
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The only scope the stand-in grants (the app asks for Sheets and nothing else). */
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** Most rows one values request may read or write (larger requests answer 400). */
export const STAND_IN_MAX_ROWS_PER_REQUEST = 10_000;
/** Google's cap on the cells of all a spreadsheet's grids. */
export const SPREADSHEET_MAX_CELLS = 10_000_000;
/** The grid of a new tab in Google Sheets. */
const NEW_TAB_ROWS = 1000;
const NEW_TAB_COLUMNS = 26;
const CLIENT_ID = 'stand-in-client';
const CLIENT_SECRET = 'stand-in-secret';

/** Options of `startGoogleStandIn`. */
export interface StandInOptions {
  /** `expires_in` of the access tokens it grants (default 3600, Google's). */
  accessTokenLifetimeS?: number;
}

/**
 * One tab of a spreadsheet: rows of cells, each a string, on a grid of `rowCount` x
 * `columnCount` cells (a new tab's grid is 1000 x 26, as in Google Sheets). Rows a test adds
 * past the grid grow it, as a person adding rows in Google Sheets would.
 */
export interface StandInTab {
  title: string;
  sheetId: number;
  rows: string[][];
  rowCount: number;
  columnCount: number;
}

/** A spreadsheet held by the stand-in. Tests read and change it directly. */
export interface StandInSpreadsheet {
  id: string;
  title: string;
  tabs: StandInTab[];
}

/** A request the stand-in received (bodies as text). */
export interface StandInRequest {
  method: string;
  /** Path with its query string, as sent. */
  path: string;
  authorization: string | undefined;
  body: string;
}

/** The server settings that point Adloom at the stand-in. */
export interface StandInSettings {
  GOOGLE_AUTH_URL: string;
  GOOGLE_TOKEN_URL: string;
  GOOGLE_REVOKE_URL: string;
  GOOGLE_SHEETS_URL: string;
  GOOGLE_CLIENT_ID: string;
  GOOGLE_CLIENT_SECRET: string;
}

/** A running stand-in. */
export interface GoogleStandIn {
  url: string;
  settings: StandInSettings;
  /** Every request, oldest first. */
  requests: StandInRequest[];
  /** Adds a spreadsheet (default: one tab 'Sheet1', sheetId 0, no rows); answers its id. */
  addSpreadsheet(spreadsheet?: { title?: string; tabs?: Partial<StandInTab>[] }): string;
  /** The spreadsheet itself (changes to it are what the API serves next). */
  spreadsheet(id: string): StandInSpreadsheet;
  /** The URL a person would paste for a spreadsheet (with `#gid=` when a tab is named). */
  sheetUrl(id: string, sheetId?: number): string;
  /**
   * The next `count` Sheets API requests answer `status` (429 or 5xx) instead of their work;
   * 200 answers an HTML page instead of JSON, as a proxy in the way would.
   */
  failNext(count: number, status: number): void;
  /** The next `count` refresh-token requests to /token answer `status` (429 or 5xx). */
  failNextRefresh(count: number, status: number): void;
  /** The next `count` code exchanges at /token answer `status` (5xx): Google down mid-link. */
  failNextCodeExchange(count: number, status: number): void;
  /** While on, every Sheets API request answers 429 RESOURCE_EXHAUSTED. */
  quotaExhausted(exhausted: boolean): void;
  /**
   * Holds the answers to values writes (PUT), each recorded in `requests` as it comes, until the
   * returned function is called: a test sees a write in flight, as a slow Google shows it.
   */
  holdWrites(): () => void;
  /** Revokes every refresh and access token, as a person removing the app's access at Google. */
  revokeAll(): void;
  /** Ends every access token now (refresh tokens stay good), as an hour passing would. */
  expireAccessTokens(): void;
  /** Refresh tokens granted and not revoked. */
  liveRefreshTokens(): string[];
  close(): Promise<void>;
}

interface PendingCode {
  redirectUri: string;
  codeChallenge: string;
  scope: string;
}

interface AccessGrant {
  refreshToken: string;
  expiresAt: number;
}

/** A parsed A1 range: the tab and zero-based bounds, ends exclusive (Infinity when open). */
interface GridRange {
  tab: StandInTab;
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`stand-in answered ${status}`);
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Google's JSON error shape of the Sheets API. */
function sheetsError(status: number, message: string): HttpError {
  return new HttpError(status, {
    error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' },
  });
}

/** Google's JSON error shape of the OAuth endpoints. */
function oauthError(status: number, error: string, description: string): HttpError {
  return new HttpError(status, { error, error_description: description });
}

function newToken(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}

/** The S256 code challenge of a verifier (RFC 7636 section 4.2). */
function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Column letters to a zero-based index: A -> 0, Z -> 25, AA -> 26. */
function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

const CELLS_PATTERN = /^([A-Za-z]{1,3})?(\d+)?(?::([A-Za-z]{1,3})?(\d+)?)?$/;

/** The tab title and cell part of an A1 range; a quoted title has its `''` undoubled. */
function splitRange(range: string): { title: string | undefined; cells: string } {
  if (range.startsWith("'")) {
    let title = '';
    let i = 1;
    for (; i < range.length; i += 1) {
      if (range[i] === "'") {
        if (range[i + 1] === "'") {
          title += "'";
          i += 1;
        } else break;
      } else title += range[i];
    }
    if (i >= range.length) throw sheetsError(400, `Unable to parse range: ${range}`);
    const rest = range.slice(i + 1);
    if (rest === '') return { title, cells: '' };
    if (!rest.startsWith('!')) throw sheetsError(400, `Unable to parse range: ${range}`);
    return { title, cells: rest.slice(1) };
  }
  const bang = range.indexOf('!');
  if (bang >= 0) return { title: range.slice(0, bang), cells: range.slice(bang + 1) };
  // No tab named: A1 cells on the first tab, or else a tab's title (Google's own rule).
  return CELLS_PATTERN.test(range)
    ? { title: undefined, cells: range }
    : { title: range, cells: '' };
}

/** Parses an A1 range (`'My tab'!A1:F10000`, `Sheet1!A:Z`, `A1:B2`, `Sheet1`) on a spreadsheet. */
function parseRange(spreadsheet: StandInSpreadsheet, range: string): GridRange {
  const { title, cells } = splitRange(range);
  const tab =
    title === undefined ? spreadsheet.tabs[0] : spreadsheet.tabs.find((t) => t.title === title);
  if (!tab) throw sheetsError(400, `Unable to parse range: ${range}`);
  if (cells === '') {
    return { tab, startRow: 0, endRow: Infinity, startColumn: 0, endColumn: Infinity };
  }
  const match = CELLS_PATTERN.exec(cells);
  if (!match || cells.startsWith(':')) {
    throw sheetsError(400, `Unable to parse range: ${range}`);
  }
  const [, fromColumn, fromRow, toColumn, toRow] = match;
  const hasEnd = cells.includes(':');
  const startColumn = fromColumn ? columnIndex(fromColumn) : 0;
  const startRow = fromRow ? Number(fromRow) - 1 : 0;
  const endColumn = hasEnd
    ? toColumn
      ? columnIndex(toColumn) + 1
      : Infinity
    : fromColumn
      ? startColumn + 1
      : Infinity;
  const endRow = hasEnd ? (toRow ? Number(toRow) : Infinity) : fromRow ? startRow + 1 : Infinity;
  if (startRow < 0 || endRow <= startRow || endColumn <= startColumn) {
    throw sheetsError(400, `Unable to parse range: ${range}`);
  }
  return { tab, startRow, endRow, startColumn, endColumn };
}

/** The A1 text of a range, the title quoted as Google quotes it. */
function formatRange(grid: GridRange, rowCount: number): string {
  const title = /^[A-Za-z0-9_]+$/.test(grid.tab.title)
    ? grid.tab.title
    : `'${grid.tab.title.replaceAll("'", "''")}'`;
  const lastRow = Math.min(grid.endRow, Math.max(rowCount, grid.startRow + 1));
  const lastColumn = Number.isFinite(grid.endColumn) ? grid.endColumn - 1 : 25;
  return `${title}!${columnLetters(grid.startColumn)}${grid.startRow + 1}:${columnLetters(lastColumn)}${lastRow}`;
}

/** Drops trailing empty cells of each row and trailing empty rows (Google omits them). */
function trimmed(rows: string[][]): string[][] {
  const out = rows.map((row) => {
    let end = row.length;
    while (end > 0 && row[end - 1] === '') end -= 1;
    return end === row.length ? row : row.slice(0, end);
  });
  while (out.length > 0 && out[out.length - 1]!.length === 0) out.pop();
  return out;
}

/** How many rows of the tab a values request covers. */
function coveredRows(grid: GridRange, rowCount: number): number {
  return Math.min(grid.endRow, Math.max(rowCount, grid.startRow)) - grid.startRow;
}

/** The tab's grid, grown to hold any rows or cells a test put past it. */
function gridSize(tab: StandInTab): { rowCount: number; columnCount: number } {
  tab.rowCount = Math.max(tab.rowCount, tab.rows.length);
  for (const row of tab.rows) tab.columnCount = Math.max(tab.columnCount, row.length);
  return { rowCount: tab.rowCount, columnCount: tab.columnCount };
}

/**
 * Google refuses a values request whose range reaches past the tab's grid (values.update does
 * not grow the grid: 'Range (Sheet1!A11539:N15385) exceeds grid limits. Max rows: 11538, max
 * columns: 25'); an open-ended range stops at the grid's edge.
 */
function checkInsideGrid(grid: GridRange, range: string): void {
  const { rowCount, columnCount } = gridSize(grid.tab);
  const isOutside =
    grid.startRow >= rowCount ||
    grid.startColumn >= columnCount ||
    (Number.isFinite(grid.endRow) && grid.endRow > rowCount) ||
    (Number.isFinite(grid.endColumn) && grid.endColumn > columnCount);
  if (isOutside) {
    throw sheetsError(
      400,
      `Range (${range}) exceeds grid limits. Max rows: ${rowCount}, max columns: ${columnCount}`,
    );
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startGoogleStandIn({
  accessTokenLifetimeS = 3600,
}: StandInOptions = {}): Promise<GoogleStandIn> {
  const requests: StandInRequest[] = [];
  const spreadsheets = new Map<string, StandInSpreadsheet>();
  const codes = new Map<string, PendingCode>();
  const refreshTokens = new Set<string>();
  const accessTokens = new Map<string, AccessGrant>();
  let failures: { count: number; status: number } = { count: 0, status: 0 };
  let refreshFailures: { count: number; status: number } = { count: 0, status: 0 };
  let codeFailures: { count: number; status: number } = { count: 0, status: 0 };
  let isQuotaExhausted = false;
  let url = '';

  function handleConsent(query: URLSearchParams): { location: string } {
    const redirectUri = query.get('redirect_uri') ?? '';
    if (query.get('client_id') !== CLIENT_ID) {
      throw oauthError(400, 'invalid_client', 'The OAuth client was not found.');
    }
    if (!/^https?:\/\//.test(redirectUri)) {
      throw oauthError(400, 'invalid_request', 'redirect_uri is missing or not absolute.');
    }
    if (query.get('response_type') !== 'code') {
      throw oauthError(400, 'unsupported_response_type', 'response_type must be code.');
    }
    if (query.get('scope') !== SHEETS_SCOPE) {
      throw oauthError(400, 'invalid_scope', `scope must be exactly ${SHEETS_SCOPE}.`);
    }
    const codeChallenge = query.get('code_challenge') ?? '';
    if (
      query.get('code_challenge_method') !== 'S256' ||
      !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)
    ) {
      throw oauthError(400, 'invalid_request', 'A PKCE S256 code_challenge is required.');
    }
    const code = newToken('code-');
    codes.set(code, { redirectUri, codeChallenge, scope: SHEETS_SCOPE });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    return { location: back.toString() };
  }

  function handleToken(form: URLSearchParams): unknown {
    if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) {
      throw oauthError(401, 'invalid_client', 'Unauthorized');
    }
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const pending = codes.get(code);
      // A code is good once, whatever the outcome.
      codes.delete(code);
      if (!pending) throw oauthError(400, 'invalid_grant', 'Malformed auth code.');
      if (form.get('redirect_uri') !== pending.redirectUri) {
        throw oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
      }
      if (s256(form.get('code_verifier') ?? '') !== pending.codeChallenge) {
        throw oauthError(400, 'invalid_grant', 'Invalid code verifier.');
      }
      const refreshToken = newToken('1//refresh-');
      refreshTokens.add(refreshToken);
      return {
        access_token: grantAccess(refreshToken),
        expires_in: accessTokenLifetimeS,
        refresh_token: refreshToken,
        scope: pending.scope,
        token_type: 'Bearer',
      };
    }
    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      if (!refreshTokens.has(refreshToken)) {
        throw oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      }
      return {
        access_token: grantAccess(refreshToken),
        expires_in: accessTokenLifetimeS,
        scope: SHEETS_SCOPE,
        token_type: 'Bearer',
      };
    }
    throw oauthError(400, 'unsupported_grant_type', 'Invalid grant_type.');
  }

  function grantAccess(refreshToken: string): string {
    const accessToken = newToken('ya29.');
    accessTokens.set(accessToken, {
      refreshToken,
      expiresAt: Date.now() + accessTokenLifetimeS * 1000,
    });
    return accessToken;
  }

  function revoke(refreshToken: string): void {
    refreshTokens.delete(refreshToken);
    for (const [accessToken, grant] of accessTokens) {
      if (grant.refreshToken === refreshToken) accessTokens.delete(accessToken);
    }
  }

  function handleRevoke(form: URLSearchParams): unknown {
    const token = form.get('token') ?? '';
    if (refreshTokens.has(token)) {
      revoke(token);
      return {};
    }
    const grant = accessTokens.get(token);
    if (grant) {
      revoke(grant.refreshToken);
      return {};
    }
    throw oauthError(400, 'invalid_token', 'Token expired or revoked');
  }

  function checkBearer(authorization: string | undefined): void {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    const grant = token ? accessTokens.get(token) : undefined;
    if (!grant || grant.expiresAt <= Date.now()) {
      throw sheetsError(
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      );
    }
  }

  function findSpreadsheet(id: string): StandInSpreadsheet {
    const spreadsheet = spreadsheets.get(id);
    if (!spreadsheet) throw sheetsError(404, 'Requested entity was not found.');
    return spreadsheet;
  }

  function presentSpreadsheet(spreadsheet: StandInSpreadsheet): unknown {
    return {
      spreadsheetId: spreadsheet.id,
      properties: { title: spreadsheet.title, locale: 'en_US', timeZone: 'Etc/GMT' },
      sheets: spreadsheet.tabs.map((tab, index) => ({
        properties: {
          sheetId: tab.sheetId,
          title: tab.title,
          index,
          sheetType: 'GRID',
          gridProperties: gridSize(tab),
        },
      })),
      spreadsheetUrl: `${url}/spreadsheets/d/${spreadsheet.id}/edit`,
    };
  }

  function getValues(spreadsheet: StandInSpreadsheet, range: string, query: URLSearchParams) {
    const majorDimension = query.get('majorDimension') ?? 'ROWS';
    if (majorDimension !== 'ROWS') throw sheetsError(400, 'The stand-in answers ROWS only.');
    const grid = parseRange(spreadsheet, range);
    checkInsideGrid(grid, range);
    const rows = grid.tab.rows;
    if (coveredRows(grid, rows.length) > STAND_IN_MAX_ROWS_PER_REQUEST) {
      throw sheetsError(
        400,
        `The stand-in reads at most ${STAND_IN_MAX_ROWS_PER_REQUEST} rows per request.`,
      );
    }
    const values = trimmed(
      rows
        .slice(grid.startRow, Math.min(grid.endRow, rows.length))
        .map((row) => row.slice(grid.startColumn, Math.min(grid.endColumn, row.length))),
    );
    return {
      range: formatRange(grid, rows.length),
      majorDimension: 'ROWS',
      ...(values.length > 0 ? { values } : {}),
    };
  }

  function updateValues(
    spreadsheet: StandInSpreadsheet,
    range: string,
    query: URLSearchParams,
    text: string,
  ) {
    const option = query.get('valueInputOption');
    if (option !== 'RAW') {
      throw sheetsError(400, `The stand-in takes valueInputOption=RAW only (got ${option}).`);
    }
    const grid = parseRange(spreadsheet, range);
    checkInsideGrid(grid, range);
    let body: { range?: unknown; majorDimension?: unknown; values?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw sheetsError(400, 'Invalid JSON payload received.');
    }
    if (body.range !== undefined) {
      const named = parseRange(spreadsheet, String(body.range));
      const same =
        named.tab === grid.tab &&
        named.startRow === grid.startRow &&
        named.endRow === grid.endRow &&
        named.startColumn === grid.startColumn &&
        named.endColumn === grid.endColumn;
      if (!same) {
        throw sheetsError(
          400,
          `Requested writing within range [${range}], but tried writing to [${String(body.range)}]`,
        );
      }
    }
    if ((body.majorDimension ?? 'ROWS') !== 'ROWS') {
      throw sheetsError(400, 'The stand-in takes ROWS only.');
    }
    if (!Array.isArray(body.values) || !body.values.every(Array.isArray)) {
      throw sheetsError(400, 'values must be an array of rows.');
    }
    const values = body.values as unknown[][];
    if (values.length > STAND_IN_MAX_ROWS_PER_REQUEST) {
      throw sheetsError(
        400,
        `The stand-in writes at most ${STAND_IN_MAX_ROWS_PER_REQUEST} rows per request.`,
      );
    }
    const widest = Math.max(0, ...values.map((row) => row.length));
    if (values.length > grid.endRow - grid.startRow || widest > grid.endColumn - grid.startColumn) {
      throw sheetsError(
        400,
        `Requested writing within range [${range}], but the values go beyond it`,
      );
    }
    const rows = grid.tab.rows;
    let updatedCells = 0;
    values.forEach((cells, i) => {
      const rowIndex = grid.startRow + i;
      while (rows.length <= rowIndex) rows.push([]);
      const row = rows[rowIndex]!;
      cells.forEach((cell, j) => {
        // null leaves a cell as it is (Google's rule); anything else is stored as its text.
        if (cell === null || cell === undefined) return;
        const column = grid.startColumn + j;
        while (row.length <= column) row.push('');
        row[column] = typeof cell === 'string' ? cell : String(cell);
        updatedCells += 1;
      });
    });
    return {
      spreadsheetId: spreadsheet.id,
      updatedRange: formatRange(grid, grid.startRow + values.length),
      updatedRows: values.filter((row) => row.length > 0).length,
      updatedColumns: widest,
      updatedCells,
    };
  }

  function clearValues(spreadsheet: StandInSpreadsheet, range: string) {
    const grid = parseRange(spreadsheet, range);
    checkInsideGrid(grid, range);
    const rows = grid.tab.rows;
    for (let r = grid.startRow; r < Math.min(grid.endRow, rows.length); r += 1) {
      const row = rows[r]!;
      for (let c = grid.startColumn; c < Math.min(grid.endColumn, row.length); c += 1) row[c] = '';
    }
    grid.tab.rows = trimmed(rows);
    return { spreadsheetId: spreadsheet.id, clearedRange: formatRange(grid, rows.length) };
  }

  /**
   * spreadsheets.batchUpdate, the requests that size a grid only: appendDimension and
   * updateSheetProperties (gridProperties). All or nothing, within the 10M-cell cap.
   */
  function batchUpdate(spreadsheet: StandInSpreadsheet, text: string) {
    let body: { requests?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw sheetsError(400, 'Invalid JSON payload received.');
    }
    if (!Array.isArray(body.requests) || body.requests.length === 0) {
      throw sheetsError(400, 'Must specify at least one request.');
    }
    const sizes = new Map(spreadsheet.tabs.map((tab) => [tab, { ...gridSize(tab) }]));
    const tabOf = (sheetId: unknown, index: number) => {
      const tab = spreadsheet.tabs.find((t) => t.sheetId === sheetId);
      if (!tab)
        throw sheetsError(400, `Invalid requests[${index}]: No grid with id: ${String(sheetId)}`);
      return sizes.get(tab)!;
    };
    (body.requests as Record<string, unknown>[]).forEach((request, index) => {
      const append = request.appendDimension as
        { sheetId?: unknown; dimension?: unknown; length?: unknown } | undefined;
      const update = request.updateSheetProperties as
        | {
            properties?: { sheetId?: unknown; gridProperties?: Record<string, unknown> };
            fields?: unknown;
          }
        | undefined;
      if (append) {
        const size = tabOf(append.sheetId, index);
        const length = Number(append.length);
        if (!Number.isInteger(length) || length < 1) {
          throw sheetsError(400, `Invalid requests[${index}].appendDimension: length must be > 0`);
        }
        if (append.dimension === 'ROWS') size.rowCount += length;
        else if (append.dimension === 'COLUMNS') size.columnCount += length;
        else throw sheetsError(400, `Invalid requests[${index}].appendDimension: dimension`);
      } else if (update?.properties?.gridProperties && typeof update.fields === 'string') {
        const size = tabOf(update.properties.sheetId, index);
        const fields = update.fields.split(',').map((field) => field.trim());
        const asked = update.properties.gridProperties;
        for (const name of ['rowCount', 'columnCount'] as const) {
          if (!fields.includes(`gridProperties.${name}`) && !fields.includes('gridProperties'))
            continue;
          const value = Number(asked[name]);
          if (!Number.isInteger(value) || value < 1) {
            throw sheetsError(400, `Invalid requests[${index}].updateSheetProperties: ${name}`);
          }
          size[name] = value;
        }
      } else {
        throw sheetsError(
          400,
          `The stand-in takes appendDimension and updateSheetProperties (gridProperties) only (requests[${index}]).`,
        );
      }
    });
    const cells = [...sizes.values()].reduce(
      (sum, size) => sum + size.rowCount * size.columnCount,
      0,
    );
    if (cells > SPREADSHEET_MAX_CELLS) {
      throw sheetsError(
        400,
        `Invalid requests[0]: This action would increase the number of cells in the workbook above the limit of ${SPREADSHEET_MAX_CELLS} cells.`,
      );
    }
    for (const [tab, size] of sizes) {
      // A grid that shrinks drops the cells outside it, as Google does.
      tab.rows = trimmed(
        tab.rows.slice(0, size.rowCount).map((row) => row.slice(0, size.columnCount)),
      );
      tab.rowCount = size.rowCount;
      tab.columnCount = size.columnCount;
    }
    return { spreadsheetId: spreadsheet.id, replies: body.requests.map(() => ({})) };
  }

  function handleSheets(
    method: string,
    path: string,
    query: URLSearchParams,
    text: string,
    authorization: string | undefined,
  ): unknown {
    if (isQuotaExhausted) {
      throw sheetsError(429, "Quota exceeded for quota metric 'Read requests' (stand-in).");
    }
    if (failures.count > 0) {
      failures.count -= 1;
      throw sheetsError(failures.status, 'The stand-in was told to fail this request.');
    }
    checkBearer(authorization);
    // /v4/spreadsheets/{id}[:batchUpdate | /values/{range}[:clear]]
    const parts = path.split('/');
    const rawId = parts[3] ?? '';
    if (parts.length === 4 && method === 'POST' && rawId.endsWith(':batchUpdate')) {
      const id = decodeURIComponent(rawId.slice(0, -':batchUpdate'.length));
      return batchUpdate(findSpreadsheet(id), text);
    }
    const spreadsheet = findSpreadsheet(decodeURIComponent(rawId));
    if (parts.length === 4 && method === 'GET') return presentSpreadsheet(spreadsheet);
    if (parts.length !== 6 || parts[4] !== 'values') throw sheetsError(404, 'Not found.');
    const rawRange = parts[5]!;
    if (method === 'POST' && rawRange.endsWith(':clear')) {
      return clearValues(spreadsheet, decodeURIComponent(rawRange.slice(0, -':clear'.length)));
    }
    const range = decodeURIComponent(rawRange);
    if (method === 'GET') return getValues(spreadsheet, range, query);
    if (method === 'PUT') return updateValues(spreadsheet, range, query, text);
    throw sheetsError(404, 'Not found.');
  }

  /** While set, values writes wait for it (holdWrites). */
  let writesHeld: Promise<void> | null = null;
  const server = createServer((request, response) => {
    void (async () => {
      const method = request.method ?? 'GET';
      const rawUrl = request.url ?? '/';
      const questionMark = rawUrl.indexOf('?');
      const path = questionMark >= 0 ? rawUrl.slice(0, questionMark) : rawUrl;
      const query = new URLSearchParams(questionMark >= 0 ? rawUrl.slice(questionMark + 1) : '');
      const text = await readBody(request);
      requests.push({
        method,
        path: rawUrl,
        authorization: request.headers.authorization,
        body: text,
      });
      if (writesHeld && method === 'PUT' && path.startsWith('/v4/spreadsheets/')) await writesHeld;
      try {
        if (method === 'GET' && path === '/o/oauth2/v2/auth') {
          const { location } = handleConsent(query);
          response.writeHead(302, { location, 'content-length': 0 });
          response.end();
        } else if (method === 'POST' && path === '/token') {
          const form = new URLSearchParams(text);
          if (form.get('grant_type') === 'authorization_code' && codeFailures.count > 0) {
            codeFailures.count -= 1;
            send(response, codeFailures.status, { error: 'backend_error' });
          } else if (form.get('grant_type') === 'refresh_token' && refreshFailures.count > 0) {
            refreshFailures.count -= 1;
            send(response, refreshFailures.status, { error: 'backend_error' });
          } else send(response, 200, handleToken(form));
        } else if (method === 'POST' && path === '/revoke') {
          // Google also takes the token in the query string.
          const form = new URLSearchParams(text);
          if (!form.has('token') && query.has('token')) form.set('token', query.get('token')!);
          send(response, 200, handleRevoke(form));
        } else if (
          path.startsWith('/v4/spreadsheets/') &&
          failures.count > 0 &&
          failures.status === 200
        ) {
          // Told to answer as a proxy in the way would: 200 with a page that is not JSON.
          failures.count -= 1;
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html><body>Service temporarily rerouted</body></html>');
        } else if (path.startsWith('/v4/spreadsheets/')) {
          send(
            response,
            200,
            handleSheets(method, path, query, text, request.headers.authorization),
          );
        } else {
          send(response, 404, { error: { code: 404, message: 'Not found.', status: 'NOT_FOUND' } });
        }
      } catch (error) {
        if (error instanceof HttpError) send(response, error.status, error.body);
        else
          send(response, 500, { error: { code: 500, message: String(error), status: 'INTERNAL' } });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    settings: {
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_REVOKE_URL: `${url}/revoke`,
      GOOGLE_SHEETS_URL: url,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    },
    requests,
    addSpreadsheet({ title = 'Stand-in sheet', tabs = [{}] } = {}) {
      const id = randomBytes(33).toString('base64url');
      spreadsheets.set(id, {
        id,
        title,
        tabs: tabs.map((tab, index) => {
          const rows = (tab.rows ?? []).map((row) => [...row]);
          return {
            title: tab.title ?? `Sheet${index + 1}`,
            sheetId: tab.sheetId ?? index,
            rows,
            rowCount: Math.max(tab.rowCount ?? NEW_TAB_ROWS, rows.length),
            columnCount: Math.max(tab.columnCount ?? NEW_TAB_COLUMNS, ...rows.map((r) => r.length)),
          };
        }),
      });
      return id;
    },
    spreadsheet: (id) => {
      const spreadsheet = spreadsheets.get(id);
      if (!spreadsheet) throw new Error(`the stand-in has no spreadsheet ${id}`);
      return spreadsheet;
    },
    sheetUrl: (id, sheetId) =>
      `https://docs.google.com/spreadsheets/d/${id}/edit${sheetId === undefined ? '' : `#gid=${sheetId}`}`,
    failNext(count, status) {
      failures = { count, status };
    },
    failNextRefresh(count, status) {
      refreshFailures = { count, status };
    },
    failNextCodeExchange(count, status) {
      codeFailures = { count, status };
    },
    holdWrites() {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      writesHeld = held;
      return () => {
        if (writesHeld === held) writesHeld = null;
        release();
      };
    },
    quotaExhausted(exhausted) {
      isQuotaExhausted = exhausted;
    },
    revokeAll() {
      refreshTokens.clear();
      accessTokens.clear();
    },
    expireAccessTokens() {
      for (const grant of accessTokens.values()) grant.expiresAt = 0;
    },
    liveRefreshTokens: () => [...refreshTokens],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --grid-rows N: the spreadsheet's tab has N rows (a new one has 1000).
  const { values } = parseArgs({ options: { 'grid-rows': { type: 'string' } } });
  const standIn = await startGoogleStandIn();
  const rowCount = values['grid-rows'] === undefined ? undefined : Number(values['grid-rows']);
  const spreadsheetId = standIn.addSpreadsheet(
    rowCount === undefined ? {} : { tabs: [{ rowCount }] },
  );
  console.log(
    JSON.stringify({ settings: standIn.settings, sheetUrl: standIn.sheetUrl(spreadsheetId, 0) }),
  );
}
