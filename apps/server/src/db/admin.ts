import type { AdminCounts } from '@adloom/contract';
import type { Db } from './index.ts';

// The Admin page's reads (issue 38): feedback and waiting-list entries newest first, a page at a
// time after a cursor (the last entry's time and key), and counts. Read-only.

/** Where a page continues: after the entry with this time (UTC, microseconds) and key. */
export interface EntryCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`: the stored time to the microsecond, as the database gives it. */
  at: string;
  /** The entry's key: the feedback's id, the waiting list's email. */
  key: string;
}

/** A stored time as text to the microsecond (a JS Date keeps only milliseconds). */
const CURSOR_AT_SQL = `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** `text` as an ILIKE pattern matching it anywhere, its own % _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The where clause of a search over `columns` and a cursor, and its parameters. */
function whereClause(
  columns: readonly string[],
  keyType: 'uuid' | 'text',
  q: string,
  cursor: EntryCursor | undefined,
): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (q !== '') {
    params.push(containsPattern(q));
    const n = params.length;
    conditions.push(`(${columns.map((c) => `${c} ilike $${n} escape '\\'`).join(' or ')})`);
  }
  if (cursor) {
    params.push(cursor.at, cursor.key);
    const n = params.length;
    conditions.push(
      `(created_at, ${keyColumn(keyType)}) < ($${n - 1}::timestamptz, $${n}::${keyType})`,
    );
  }
  return { sql: conditions.length > 0 ? `where ${conditions.join(' and ')}` : '', params };
}

function keyColumn(keyType: 'uuid' | 'text'): string {
  return keyType === 'uuid' ? 'id' : 'email';
}

/** A feedback row as read. */
export interface FeedbackRow {
  id: string;
  email: string;
  type: string;
  message: string;
  created_at: Date;
  cursor_at: string;
}

const FEEDBACK_SEARCH = ['email', 'message', 'type'] as const;

/** Up to `limit` feedback entries matching `q`, newest first, after `cursor`. */
export async function readFeedbackEntries(
  db: Db,
  options: { q: string; limit: number; cursor?: EntryCursor | undefined },
): Promise<FeedbackRow[]> {
  const where = whereClause(FEEDBACK_SEARCH, 'uuid', options.q, options.cursor);
  return db.query<FeedbackRow>(
    `select id, email, type, message, created_at, ${CURSOR_AT_SQL} as cursor_at
     from feedback ${where.sql}
     order by created_at desc, id desc
     limit ${Math.trunc(options.limit)}`,
    where.params,
  );
}

/** How many feedback entries match `q`. */
export async function countFeedbackEntries(db: Db, q: string): Promise<number> {
  const where = whereClause(FEEDBACK_SEARCH, 'uuid', q, undefined);
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from feedback ${where.sql}`,
    where.params,
  );
  return Number(rows[0]?.n ?? 0);
}

/** A waiting-list row as read. */
export interface WaitingListRow {
  email: string;
  created_at: Date;
  cursor_at: string;
}

const WAITING_LIST_SEARCH = ['email'] as const;

/** Up to `limit` waiting-list entries matching `q`, newest first, after `cursor`. */
export async function readWaitingListEntries(
  db: Db,
  options: { q: string; limit: number; cursor?: EntryCursor | undefined },
): Promise<WaitingListRow[]> {
  const where = whereClause(WAITING_LIST_SEARCH, 'text', options.q, options.cursor);
  return db.query<WaitingListRow>(
    `select email, created_at, ${CURSOR_AT_SQL} as cursor_at
     from waiting_list ${where.sql}
     order by created_at desc, email desc
     limit ${Math.trunc(options.limit)}`,
    where.params,
  );
}

/** How many waiting-list entries match `q`. */
export async function countWaitingListEntries(db: Db, q: string): Promise<number> {
  const where = whereClause(WAITING_LIST_SEARCH, 'text', q, undefined);
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from waiting_list ${where.sql}`,
    where.params,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Counts of what the server holds. */
export async function readCounts(db: Db): Promise<AdminCounts> {
  const rows = await db.query<Record<string, number>>(
    `select
       (select count(*) from users)::int as users,
       (select count(*) from users where email_verified_at is not null)::int as verified_users,
       (select count(*) from clients)::int as clients,
       (select count(*) from feeds where client_id is not null)::int as feeds,
       (select count(*) from feeds where client_id is null)::int as lists,
       (select count(*) from feedback)::int as feedback,
       (select count(*) from waiting_list)::int as waiting_list`,
  );
  const row = rows[0] ?? {};
  const n = (name: string) => Number(row[name] ?? 0);
  return {
    users: n('users'),
    verifiedUsers: n('verified_users'),
    clients: n('clients'),
    feeds: n('feeds'),
    lists: n('lists'),
    feedback: n('feedback'),
    waitingList: n('waiting_list'),
  };
}
