import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  AdminFeedbackPage,
  AdminSetting,
  AdminSettings,
  AdminWaitingListPage,
} from '@adloom/contract';
import { formatCsvLine } from '@adloom/engine';
import type { AuthUser } from '../auth/session.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import {
  countFeedbackEntries,
  countWaitingListEntries,
  readFeedbackEntries,
  readWaitingListEntries,
  type EntryCursor,
  type FeedbackRow,
  type WaitingListRow,
} from '../db/admin.ts';
import { normalizeEmail } from '../db/users.ts';
import { AppError, validationError } from '../errors.ts';
import { readGeoRelease } from './geo.ts';

// An operator's view (issue 38): who is an operator, the entry pages and their CSV downloads, and
// what the server has configured, never a secret.

/** An operator: a signed-in user whose address is named by ADMIN_EMAILS and verified. */
export function isOperator(
  user: { email: string; isEmailVerified: boolean },
  adminEmails: readonly string[],
): boolean {
  return user.isEmailVerified && adminEmails.includes(normalizeEmail(user.email));
}

/**
 * Fastify onRequest hook after `authenticate`: anyone but an operator gets the very 404 of a
 * path no route answers, so the Admin calls give no hint that they exist.
 */
export function requireOperator(adminEmails: readonly string[]) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const user: AuthUser | undefined = request.user;
    if (!user || !isOperator(user, adminEmails)) {
      const path = request.url.split('?')[0] ?? '/';
      throw new AppError('not_found', `No API route ${request.method} ${path}`);
    }
  };
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The opaque cursor of the page after `row`. */
export function encodeCursor(cursor: EntryCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.key]), 'utf8').toString('base64url');
}

/** A cursor given back by the client; a malformed one is 400 on the field `cursor`. */
export function decodeCursor(text: string, keyKind: 'uuid' | 'email'): EntryCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    CURSOR_AT.test(value[0]) &&
    typeof value[1] === 'string' &&
    (keyKind === 'uuid' ? UUID.test(value[1]) : value[1].length > 0 && value[1].length <= 254)
  )
    return { at: value[0], key: value[1] };
  throw validationError([
    { msg: 'This page cursor is not valid: start again from the first page.', path: 'cursor' },
  ]);
}

/** A page of feedback entries. */
export async function feedbackPage(
  db: Db,
  query: { q: string; limit: number; cursor?: string | undefined },
): Promise<AdminFeedbackPage> {
  const cursor = query.cursor ? decodeCursor(query.cursor, 'uuid') : undefined;
  const [rows, total] = await Promise.all([
    readFeedbackEntries(db, { q: query.q, limit: query.limit + 1, cursor }),
    countFeedbackEntries(db, query.q),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({
      id: row.id,
      createdAt: row.created_at.toISOString(),
      email: row.email,
      type: row.type,
      message: row.message,
    })),
    total,
    nextCursor:
      rows.length > query.limit && last ? encodeCursor({ at: last.cursor_at, key: last.id }) : null,
  };
}

/** A page of waiting-list entries. */
export async function waitingListPage(
  db: Db,
  query: { q: string; limit: number; cursor?: string | undefined },
): Promise<AdminWaitingListPage> {
  const cursor = query.cursor ? decodeCursor(query.cursor, 'email') : undefined;
  const [rows, total] = await Promise.all([
    readWaitingListEntries(db, { q: query.q, limit: query.limit + 1, cursor }),
    countWaitingListEntries(db, query.q),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({ createdAt: row.created_at.toISOString(), email: row.email })),
    total,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ at: last.cursor_at, key: last.email })
        : null,
  };
}

/** Rows a CSV download reads per query: the table is never held whole. */
export const CSV_BATCH_ROWS = 1000;

/**
 * CSV lines (UTF-8 with a byte order mark, CRLF) of `header` then every row `readBatch` gives,
 * batch after batch until one comes back short. Cells starting with = + - @ (or a tab or CR)
 * get an apostrophe: these are other people's texts, opened in spreadsheets.
 */
async function* csvLines<Row>(
  header: readonly string[],
  readBatch: (after: Row | undefined) => Promise<Row[]>,
  cells: (row: Row) => string[],
): AsyncGenerator<string> {
  yield `\uFEFF${formatCsvLine(header, true)}`;
  let after: Row | undefined;
  for (;;) {
    const rows = await readBatch(after);
    let chunk = '';
    for (const row of rows) chunk += formatCsvLine(cells(row), true);
    if (chunk !== '') yield chunk;
    if (rows.length < CSV_BATCH_ROWS) return;
    after = rows.at(-1);
  }
}

/** Every feedback entry matching `q` as CSV, newest first, read in batches as it is sent. */
export function feedbackCsv(db: Db, q: string): Readable {
  return Readable.from(
    csvLines<FeedbackRow>(
      ['Date (UTC)', 'Email', 'Type', 'Message'],
      (after) =>
        readFeedbackEntries(db, {
          q,
          limit: CSV_BATCH_ROWS,
          cursor: after && { at: after.cursor_at, key: after.id },
        }),
      (row) => [row.created_at.toISOString(), row.email, row.type, row.message],
    ),
  );
}

/** Every waiting-list entry matching `q` as CSV, newest first, read in batches as it is sent. */
export function waitingListCsv(db: Db, q: string): Readable {
  return Readable.from(
    csvLines<WaitingListRow>(
      ['Date (UTC)', 'Email'],
      (after) =>
        readWaitingListEntries(db, {
          q,
          limit: CSV_BATCH_ROWS,
          cursor: after && { at: after.cursor_at, key: after.email },
        }),
      (row) => [row.created_at.toISOString(), row.email],
    ),
  );
}

/** `<kind>-<yyyymmdd>.csv` for `date` (UTC). */
export function csvFileName(kind: 'feedback' | 'waiting-list', date: Date): string {
  return `adloom-${kind}-${date.toISOString().slice(0, 10).replaceAll('-', '')}.csv`;
}

/** An address without its user name, password, query or fragment (where a token could hide). */
export function addressWithoutCredentials(raw: string): string {
  const url = URL.parse(raw);
  if (!url) return '(not a valid address)';
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/** An SMTP or database server: host and port (and the database's name), nothing else. */
function serverOf(raw: string, withPath = false): string {
  const url = URL.parse(raw);
  if (!url) return '(not a valid address)';
  return `${url.host}${withPath ? url.pathname : ''}`;
}

type Detail = AdminSetting['details'][number];
const detail = (label: string, value: string): Detail => ({ label, value });

/**
 * What each feature has configured: configured or not, the settings that turn it on, and
 * non-secret values. Secrets (JWT_SECRET, TOKEN_ENCRYPTION_KEY, GOOGLE_CLIENT_SECRET, AI_API_KEY,
 * RECAPTCHA_SECRET, the credentials in SMTP_URL and DATABASE_URL) are never read here but to say
 * whether they are set.
 */
export async function settingsStatus(config: Config, db: Db): Promise<AdminSettings> {
  const geo = await readGeoRelease(db);
  const { ai, xmlFeeds, google, media, tagManager } = config;
  const features: AdminSetting[] = [
    {
      id: 'server',
      name: 'Server',
      configured: true,
      settings: ['APP_URL', 'NODE_ENV', 'JWT_SECRET'],
      details: [
        detail('APP_URL', config.appUrl),
        detail('Mode', config.isProduction ? 'production' : 'development'),
        detail(
          'Session secret',
          config.jwtSecretSource === 'data-dir' ? 'kept in DATA_DIR (not set)' : 'set',
        ),
        detail('Operators (ADMIN_EMAILS)', String(config.adminEmails.length)),
      ],
    },
    {
      id: 'database',
      name: 'Database',
      configured: true,
      settings: ['DATABASE_URL', 'DATA_DIR'],
      details: [
        detail('Kind', db.kind === 'postgres' ? 'PostgreSQL' : 'Embedded (PGlite)'),
        config.databaseUrl
          ? detail('Server', serverOf(config.databaseUrl, true))
          : detail('Data folder', config.dataDir),
      ],
    },
    {
      id: 'smtp',
      name: 'Email (SMTP)',
      configured: config.smtpUrl !== undefined,
      settings: ['SMTP_URL', 'MAIL_FROM'],
      details: config.smtpUrl
        ? [detail('Server', serverOf(config.smtpUrl)), detail('MAIL_FROM', config.mailFrom)]
        : [detail('Without it', 'mails are written to DATA_DIR/outbox, not sent')],
    },
    {
      id: 'google',
      name: 'Google Sheets',
      configured: google !== undefined,
      settings: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'TOKEN_ENCRYPTION_KEY'],
      details: google
        ? [detail('Sheets API', addressWithoutCredentials(google.sheetsUrl))]
        : [detail('Without it', 'the sheet buttons are hidden')],
    },
    {
      id: 'ai',
      name: 'AI helper',
      configured: ai.model !== undefined,
      settings: ['AI_BASE_URL', 'AI_API_KEY', 'AI_MODEL', 'AI_HELPER_EMAIL_DOMAIN'],
      details: [
        ...(ai.model
          ? [
              detail('AI_MODEL', ai.model.model),
              detail('AI_BASE_URL', addressWithoutCredentials(ai.model.baseUrl)),
            ]
          : [detail('Without it', 'suggestions answer 501')]),
        detail('AI_HELPER_EMAIL_DOMAIN', ai.helperEmailDomain ?? 'not set (nobody)'),
      ],
    },
    {
      id: 'xml',
      name: 'XML tools',
      configured: xmlFeeds.emailMarker !== undefined,
      settings: ['XML_TOOLS_EMAIL_MARKER'],
      details: [
        detail('XML_TOOLS_EMAIL_MARKER', xmlFeeds.emailMarker ?? 'not set (nobody)'),
        detail('XML_FETCH_MAX_BYTES', String(xmlFeeds.maxBytes)),
      ],
    },
    {
      id: 'geo',
      name: 'Geo targets',
      configured: geo !== null,
      settings: ['GEO_TARGETS_FILE'],
      details: [
        detail(
          'Release loaded',
          geo ? `${geo.date} (${geo.rows} targets, from ${geo.source})` : 'none',
        ),
        detail('GEO_TARGETS_FILE', config.geoTargetsFile ? 'set' : 'not set'),
      ],
    },
    {
      id: 'bot-check',
      name: 'Bot check (reCAPTCHA)',
      configured: config.recaptchaVerifyUrl !== undefined && config.recaptchaSecret !== undefined,
      settings: ['RECAPTCHA_VERIFY_URL', 'RECAPTCHA_SECRET', 'RECAPTCHA_SITE_KEY'],
      details: config.recaptchaSiteKey
        ? [
            detail('RECAPTCHA_SITE_KEY', config.recaptchaSiteKey),
            detail('RECAPTCHA_MIN_SCORE', String(config.recaptchaMinScore)),
          ]
        : [],
    },
    {
      id: 'tag-manager',
      name: 'Tag manager',
      configured: tagManager.enabled,
      settings: ['GTM_ID'],
      details: tagManager.enabled ? [detail('GTM_ID', tagManager.id)] : [],
    },
    {
      id: 'media',
      name: 'Media',
      configured:
        Object.keys(media.helpVideoUrls).length > 0 ||
        media.landingVideoUrl !== null ||
        media.demoBookingUrl !== null,
      settings: ['HELP_VIDEO_URLS', 'LANDING_VIDEO_URL', 'DEMO_BOOKING_URL'],
      details: [
        detail('Help videos', String(Object.keys(media.helpVideoUrls).length)),
        detail('LANDING_VIDEO_URL', media.landingVideoUrl ?? 'not set'),
        detail('DEMO_BOOKING_URL', media.demoBookingUrl ?? 'not set'),
      ],
    },
  ];
  return { features };
}
