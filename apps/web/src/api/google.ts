import {
  API,
  ConsentAnswerSchema,
  GoogleStatusSchema,
  LinkAnswerSchema,
  SHEET_MESSAGES,
  SheetProgressSchema,
  type ConsentAnswer,
  type GoogleStatus,
  type LinkAnswer,
  type SheetDownloadAnswer,
  type SheetProgress,
  type SheetUploadAnswer,
} from '@adloom/contract';
import type { Feed, FeedRow } from '@adloom/engine';
import { http } from './client.ts';
import { ApiError, NO_RESPONSE_MESSAGE, SERVER_PROBLEM_MESSAGE } from './errors.ts';

/**
 * The Google calls of spec section 7 and the two this app adds (status, progress). Every call
 * leaves its errors to the caller (`errors: 'caller'`): the account page shows the spec's link
 * notices, and the sheet calls show `describeSheetFailure`'s messages.
 */

export function getGoogleStatus(): Promise<GoogleStatus> {
  return http.get(API.google.status, { schema: GoogleStatusSchema, errors: 'caller' });
}

export function getConsentUrl(): Promise<ConsentAnswer> {
  return http.get(API.google.consent, { schema: ConsentAnswerSchema, errors: 'caller' });
}

/** Exchanges the code Google sent back to /account (with its `state`) for the link. */
export function exchangeGoogleCode(body: { code: string; state: string }): Promise<LinkAnswer> {
  return http.post(API.google.accessToken, body, { schema: LinkAnswerSchema, errors: 'caller' });
}

export function unlinkGoogleSheets(): Promise<LinkAnswer> {
  return http.post(
    API.google.unlinkGoogleSheets,
    {},
    { schema: LinkAnswerSchema, errors: 'caller' },
  );
}

/** A feed or list as a sheet call names it: its link and id, without the rows it holds here. */
function sheetFeed(feed: Omit<Feed, 'rows'>, rows: readonly FeedRow[] = []) {
  return {
    ...(feed._id === undefined ? {} : { _id: feed._id }),
    name: feed.name,
    dataType: feed.dataType,
    sheetUrl: feed.sheetUrl,
    sheetName: feed.sheetName ?? '',
    rows,
  };
}

/** Options of every sheet call: the id its progress is polled under. */
export interface SheetCallOptions {
  progressId?: string;
}

/**
 * Reads a linked feed's sheet. Spec section 9: sheet downloads do not raise the loading
 * indicator (the feed's own toolbar shows that it is loading).
 */
export function downloadData(
  feed: Omit<Feed, 'rows'>,
  options: SheetCallOptions = {},
): Promise<SheetDownloadAnswer> {
  return http.post<SheetDownloadAnswer>(
    API.google.downloadData,
    { activeFeed: sheetFeed(feed), ...options },
    { errors: 'caller', isLoadingExempt: true },
  );
}

/** Reads a linked list's sheet (spec section 7: no loading delay). */
export function downloadList(
  list: Omit<Feed, 'rows'>,
  options: SheetCallOptions = {},
): Promise<SheetDownloadAnswer> {
  return http.post<SheetDownloadAnswer>(
    API.google.downloadList,
    { activeList: sheetFeed(list), ...options },
    { errors: 'caller', isLoadingExempt: true },
  );
}

/** Options of an upload: `replace` confirms replacing sheet rows the feed does not hold. */
export interface SheetUploadOptions extends SheetCallOptions {
  replace?: boolean;
}

/** Writes a feed's rows to its sheet. */
export function uploadData(
  feed: Omit<Feed, 'rows'>,
  rows: readonly FeedRow[],
  options: SheetUploadOptions = {},
): Promise<SheetUploadAnswer> {
  return http.post<SheetUploadAnswer>(
    API.google.uploadData,
    { activeFeed: sheetFeed(feed), rows, ...options },
    { errors: 'caller' },
  );
}

/** Writes a list's rows to its sheet (spec: the rows travel in `activeList.rows`). */
export function uploadList(
  list: Omit<Feed, 'rows'>,
  rows: readonly FeedRow[],
  options: SheetUploadOptions = {},
): Promise<SheetUploadAnswer> {
  return http.post<SheetUploadAnswer>(
    API.google.uploadList,
    { activeList: sheetFeed(list, rows), ...options },
    { errors: 'caller' },
  );
}

/** Rows moved so far by a running sheet call (polled: no loading indicator). */
export function getSheetProgress(progressId: string): Promise<SheetProgress> {
  return http.get(`${API.google.progress}${encodeURIComponent(progressId)}`, {
    schema: SheetProgressSchema,
    errors: 'caller',
    isLoadingExempt: true,
  });
}

/** Which way a sheet call moves rows. */
export type SheetDirection = 'download' | 'upload';

/** What the page does with a failed sheet call. */
export type SheetFailure =
  /** 409: the sheet holds rows the feed does not; ask, then upload again with `replace`. */
  | { kind: 'confirm-replace'; otherRows: number }
  /**
   * The session ended (401 `unauthorized`) or the server failed (above 499): the generic handler
   * of spec section 8 shows it (or goes to /service-down); `note` is what the feed's note says
   * about a server failure (none for an ended session).
   */
  | { kind: 'generic'; error: ApiError; note?: string }
  /**
   * The spec's message, with the HTTP status of the answer (none when no answer came); `hint`
   * says more where there is room (beside the feed); `toAccount`: the fix is on the account
   * page ('Go to Account').
   */
  | { kind: 'message'; message: string; status?: number; hint?: string; toAccount?: boolean };

/**
 * Spec section 8, sheet calls: 400 the headers message (downloads; an upload's 400 means the
 * URL), 401 no Google account (or Google refused the stored one) with the way to the account
 * page, 404 the invalid-sheet message, 409 the replace question, and 'Whoops. Something went
 * wrong' for any other status, followed by the server's own sentence when it sent one (the
 * quota, a sheet too large). A refused session and statuses above 499 go to the generic
 * handler; a call that got no answer says so in plain words.
 */
export function describeSheetFailure(error: unknown, direction: SheetDirection): SheetFailure {
  if (!(error instanceof ApiError)) return { kind: 'message', message: SHEET_MESSAGES.whoops };
  if (error.code === 'unauthorized') return { kind: 'generic', error };
  const status = error.status;
  if (status === 0) return { kind: 'message', message: NO_RESPONSE_MESSAGE };
  if (status > 499)
    return {
      kind: 'generic',
      error,
      note: error.code === 'not_configured' ? SHEET_MESSAGES.notConfigured : SERVER_PROBLEM_MESSAGE,
    };
  switch (status) {
    case 400:
      return direction === 'download' || error.code === 'sheet_headers'
        ? {
            kind: 'message',
            message: SHEET_MESSAGES.headers,
            status,
            hint: SHEET_MESSAGES.headersHint,
          }
        : { kind: 'message', message: SHEET_MESSAGES.invalidSheet, status };
    case 401:
      return {
        kind: 'message',
        message:
          error.code === 'relink_needed' ? SHEET_MESSAGES.relinkNeeded : SHEET_MESSAGES.notLinked,
        status,
        toAccount: true,
      };
    case 404:
      return { kind: 'message', message: SHEET_MESSAGES.invalidSheet, status };
    case 409:
      return { kind: 'confirm-replace', otherRows: otherRowsOf(error) };
    default:
      return { kind: 'message', message: whoopsWithDetail(error), status };
  }
}

/**
 * 'Whoops. Something went wrong', then the server's sentence when it answered in the contract's
 * error shape (its messages are written for the person: the quota, a sheet too large).
 */
function whoopsWithDetail(error: ApiError): string {
  const detail = error.code === undefined ? '' : error.message.trim();
  return detail === '' || detail === SHEET_MESSAGES.whoops
    ? SHEET_MESSAGES.whoops
    : `${SHEET_MESSAGES.whoops}. ${detail}`;
}

function otherRowsOf(error: ApiError): number {
  const details = error.details as { otherRows?: unknown } | undefined;
  const count = details?.otherRows;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : 0;
}
