import { z } from 'zod';
import { FEED_COLUMNS, type Feed } from '@adloom/engine';
import { FeedRowsSchema, FeedSchema, SHEET_URL_MAX_CHARS, type SheetSync } from './workspace.ts';
import { PublicUserSchema } from './users.ts';

/** The integration a linked Google account gives the user (spec section 6). */
export const GOOGLE_SHEETS_INTEGRATION = 'google-sheets';

/** The settings that turn the Google Sheets link on (README, "Settings"). */
export const GOOGLE_SHEETS_SETTINGS = ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const;

/** Longest id of a progress report a client may name. */
export const SHEET_PROGRESS_ID_MAX_CHARS = 64;

/**
 * A Google Sheets address: `https://docs.google.com/spreadsheets/d/<id>/...`, optionally with
 * `#gid=<tab id>` (or `?gid=`) choosing the tab. Spec section 5: `{host}/spreadsheets/d/...`.
 */
export const SHEET_URL_PATTERN = /^https?:\/\/[^/\s]+\/spreadsheets\/d\/([A-Za-z0-9_-]{10,})/;

/** The spreadsheet id and the tab (`gid`) a sheet URL names, or undefined when it names none. */
export function parseSheetUrl(url: string): { spreadsheetId: string; gid?: number } | undefined {
  const match = SHEET_URL_PATTERN.exec(url.trim());
  if (!match) return undefined;
  const gid = /[#?&]gid=(\d+)/.exec(url);
  return gid ? { spreadsheetId: match[1]!, gid: Number(gid[1]) } : { spreadsheetId: match[1]! };
}

// ---- Messages (spec section 8 where it has them) ----

export const SHEET_MESSAGES = {
  /** Spec section 8: sheet download 400. */
  headers: "Couldn't fetch sheet data. Check headers and try again",
  /** Spec section 8: sheet download 401. */
  notLinked: "No Google account linked. Go to 'Account' to link one",
  /** Spec section 8: sheet upload failure and download 404. */
  invalidSheet: 'Sheet URL seems to be invalid. Please check that the sheet exists and try again',
  /** Spec section 8: any other status. */
  whoops: 'Whoops. Something went wrong',
  /** Spec section 8 success notice of an upload. */
  uploaded: 'Feed successfully uploaded to Sheets',
  /** Spec section 5: the hint beside the link form. */
  headersHint: `The sheet's first row must hold headers, each unique (${FEED_COLUMNS.join(', ')}).`,
  /** 401 `relink_needed`: Google no longer honours the stored token (invalid_grant). */
  relinkNeeded:
    "Google no longer accepts Adloom's access to your Google account. Go to 'Account' and link it again",
  /** 429 `quota_exhausted`: Google kept refusing after the retries. */
  quota:
    'Google Sheets is refusing more requests for now (quota reached). Wait a minute and try again',
  /** 409 `sheet_has_other_rows`; `details.otherRows` holds the count. */
  otherRows: (n: number) =>
    `The sheet holds ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} this feed does not. Uploading replaces them.`,
  /** 501 `not_configured`. */
  notConfigured:
    'Google Sheets is not set up on this server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET (see the README, "Settings").',
} as const;

/** Spec section 8 account notices. */
export const GOOGLE_LINK_MESSAGES = {
  linked: 'Google account linked',
  unlinked: 'Google account unlinked',
  linkFailed: "Couldn't link Google Account. Try again later",
  unlinkFailed: "Couldn't unlink Google Account. Try again later",
} as const;

// ---- Account link ----

/** GET /api/google/status (not in the spec): whether the server can link, and this user's link. */
export const GoogleStatusSchema = z.object({
  configured: z.boolean(),
  /** `needs_consent`: Google refused the stored token (revoked or expired); link again. */
  status: z.enum(['not_linked', 'linked', 'needs_consent']),
  /** ISO time the account was linked, when it is. */
  linkedAt: z.string().optional(),
});
/** GET /api/google/status */
export type GoogleStatus = z.infer<typeof GoogleStatusSchema>;

/** GET /api/google/consent answer: Google's consent page, the browser goes there. */
export const ConsentAnswerSchema = z.object({ url: z.string() });
/** GET /api/google/consent */
export type ConsentAnswer = z.infer<typeof ConsentAnswerSchema>;

/** POST /api/google/access-token: spec `{ user, code }` plus the `state` Google sent back. */
export const AccessTokenBodySchema = z.object({
  user: z.unknown().optional(),
  code: z.string().min(1).max(2048),
  state: z.string().min(1).max(256),
});
/** POST /api/google/access-token body. */
export type AccessTokenBody = z.input<typeof AccessTokenBodySchema>;

/** POST /api/google/unlink-google-sheets: spec `{ user }`. */
export const UnlinkBodySchema = z.object({ user: z.unknown().optional() });

/** Answer of access-token and unlink: the user with its integrations, and the link status. */
export const LinkAnswerSchema = z.object({
  user: PublicUserSchema,
  status: GoogleStatusSchema,
  /** Unlink only: false when Google could not be reached to revoke the token (it was deleted here). */
  revoked: z.boolean().optional(),
});
/** Answer of access-token and unlink. */
export type LinkAnswer = z.infer<typeof LinkAnswerSchema>;

// ---- Sheets on feeds and lists ----

/** The feed or list a sheet call is about: as sent in saves (the server reads `_id` and `sheetUrl`). */
const SheetFeedSchema = FeedSchema.extend({
  sheetUrl: z.string().trim().min(1).max(SHEET_URL_MAX_CHARS),
});

/** Optional on every sheet call: an id the client polls at GET /api/google/progress/:id. */
const ProgressIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/)
  .max(SHEET_PROGRESS_ID_MAX_CHARS)
  .optional();

/** POST /api/google/download-data: `{ activeFeed, user }`. */
export const DownloadDataBodySchema = z.object({
  activeFeed: SheetFeedSchema,
  user: z.unknown().optional(),
  progressId: ProgressIdSchema,
});
/** POST /api/google/download-list: `{ activeList, user }`. */
export const DownloadListBodySchema = z.object({
  activeList: SheetFeedSchema,
  user: z.unknown().optional(),
  progressId: ProgressIdSchema,
});
/**
 * POST /api/google/upload-data: `{ activeFeed, rows, user }`. `replace: true` confirms replacing
 * sheet rows the feed does not hold (else 409 `sheet_has_other_rows`).
 */
export const UploadDataBodySchema = z.object({
  activeFeed: SheetFeedSchema,
  rows: FeedRowsSchema,
  user: z.unknown().optional(),
  replace: z.boolean().optional(),
  progressId: ProgressIdSchema,
});
/** POST /api/google/upload-list: `{ activeList, user }`, the rows in `activeList.rows`. */
export const UploadListBodySchema = z.object({
  activeList: SheetFeedSchema,
  user: z.unknown().optional(),
  replace: z.boolean().optional(),
  progressId: ProgressIdSchema,
});

/** Answer of download-data and download-list (spec: `{ formattedRows, sheetName }`). */
export interface SheetDownloadAnswer {
  formattedRows: Feed['rows'];
  sheetName: string;
  sheetSync: SheetSync;
  /** Cells cut to the 30-character feed cell limit. */
  truncatedCells: number;
  /** Sheet columns no feed column matches (ignored). */
  ignoredHeaders: string[];
}

/** Answer of upload-data and upload-list. */
export interface SheetUploadAnswer {
  message: string;
  sheetName: string;
  sheetSync: SheetSync;
}

/** GET /api/google/progress/:id: rows moved so far of a running sheet call. */
export const SheetProgressSchema = z.object({
  phase: z.enum(['reading', 'writing', 'done']),
  done: z.number().int().min(0),
  total: z.number().int().min(0),
});
/** GET /api/google/progress/:id */
export type SheetProgress = z.infer<typeof SheetProgressSchema>;
