/**
 * Queries of the workspace: clients, their feeds and templates, the user's lists, the waiting
 * list and feedback. Every query that touches a user's data is scoped by that user's id.
 * A feed's rows travel as JSON text both ways, so 100k rows are one parameter and one column.
 */
import type { SheetSync, TemplateKind } from '@adloom/contract';
import { sqlArray, type Db } from './index.ts';
import { INSERT_FEED_COPY_SQL, STORED_ROW_LAYOUT, closeFeedRowsCopy } from './feed-rows.ts';

/** A client row with the revisions of its six stored sets. */
export interface ClientRecord {
  id: string;
  name: string;
  feeds_revision: number;
  campaign_templates_revision: number;
  ad_templates_revision: number;
  rsa_templates_revision: number;
  performance_max_templates_revision: number;
  extension_templates_revision: number;
}

/** When and how a linked feed's kept copy was last read from or written to its sheet. */
export interface SheetSyncRecord {
  sheet_synced_at: Date | null;
  sheet_sync_direction: SheetSync['direction'] | null;
  sheet_rows_moved: number | null;
}

/** A stored feed without its rows. */
export interface FeedMetaRecord extends SheetSyncRecord {
  id: string;
  name: string;
  data_type: 'table' | 'list';
  sheet_url: string;
  sheet_name: string;
  rows_version: string;
}

/** A stored template: its body in the engine's type (without `_id`). */
export interface TemplateRecord {
  id: string;
  kind: TemplateKind;
  body: Record<string, unknown>;
}

/**
 * A feed ready to store: `stored` is its insert with the rows document (in `STORED_ROW_LAYOUT`)
 * in place (`openFeedRowsCopy`), when its rows are written; `rowsJson` the rows as answered.
 */
export interface FeedToStore {
  id: string;
  name: string;
  dataType: 'table' | 'list';
  sheetUrl: string;
  sheetName: string;
  /** The rows as answer JSON: text, or its UTF-8 bytes. */
  rowsJson: string | Uint8Array;
  /** The rows to write (undefined: the stored rows stay), `bytes` long. */
  stored: { frame: ArrayBuffer; bytes: number } | undefined;
  rowCount: number;
  /** sha256 of the rows document. */
  rowsHash: string;
  /** The stored rows version: kept when the rows are unchanged, else a new random one. */
  rowsVersion: string;
  /** True when the set already holds exactly these rows for this feed. */
  isRowsUnchanged: boolean;
  /**
   * True when a linked feed keeps its stored copy whatever rows were sent: nothing of its rows
   * is written, and `rowsJson` is the stored copy, read before answering.
   */
  isCopyKept: boolean;
  /** The feed's last sheet sync once saved (null: none). */
  sheetSync: SheetSync | null;
  /** True when the stored sync already is `sheetSync` (it is not written). */
  isSyncUnchanged: boolean;
}

/** A template ready to store. */
export interface TemplateToStore {
  id: string;
  name: string;
  body: Record<string, unknown>;
}

/** The client-row column holding each template kind's revision (a fixed list, never user input). */
export const TEMPLATE_REVISION_COLUMN: Record<TemplateKind, keyof ClientRecord> = {
  campaignTemplates: 'campaign_templates_revision',
  adTemplates: 'ad_templates_revision',
  rsaTemplates: 'rsa_templates_revision',
  performanceMaxTemplates: 'performance_max_templates_revision',
  extensionTemplates: 'extension_templates_revision',
};

const CLIENT_COLUMNS = `id, name, feeds_revision, campaign_templates_revision, ad_templates_revision,
  rsa_templates_revision, performance_max_templates_revision, extension_templates_revision`;

/** The user's client names, oldest first. */
export async function listClientNames(db: Db, userId: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    'select name from clients where user_id = $1 order by created_at, name',
    [userId],
  );
  return rows.map((row) => row.name);
}

/** The user's client of that name, if any. */
export async function findClient(
  db: Db,
  userId: string,
  name: string,
): Promise<ClientRecord | undefined> {
  const rows = await db.query<ClientRecord>(
    `select ${CLIENT_COLUMNS} from clients where user_id = $1 and name = $2`,
    [userId, name],
  );
  return rows[0];
}

/** The user's client of that name, locked until the transaction ends (saves serialise on it). */
export async function lockClient(
  tx: Db,
  userId: string,
  name: string,
): Promise<ClientRecord | undefined> {
  const rows = await tx.query<ClientRecord>(
    `select ${CLIENT_COLUMNS} from clients where user_id = $1 and name = $2 for update`,
    [userId, name],
  );
  return rows[0];
}

/** Inserts a client; answers false when the user already has one of that name. */
export async function insertClient(db: Db, userId: string, name: string): Promise<boolean> {
  const rows = await db.query(
    'insert into clients (user_id, name) values ($1, $2) on conflict (user_id, name) do nothing returning id',
    [userId, name],
  );
  return rows.length > 0;
}

/** Deletes the user's client (its feeds and templates go with it); false when there is none. */
export async function deleteClient(db: Db, userId: string, name: string): Promise<boolean> {
  const rows = await db.query('delete from clients where user_id = $1 and name = $2 returning id', [
    userId,
    name,
  ]);
  return rows.length > 0;
}

/** Sets a client's feed revision. */
export async function setClientFeedsRevision(
  tx: Db,
  userId: string,
  clientId: string,
  revision: number,
): Promise<void> {
  await tx.query('update clients set feeds_revision = $3 where id = $1 and user_id = $2', [
    clientId,
    userId,
    revision,
  ]);
}

/** Sets a client's revision of one template kind. */
export async function setClientTemplatesRevision(
  tx: Db,
  userId: string,
  clientId: string,
  kind: TemplateKind,
  revision: number,
): Promise<void> {
  const column = TEMPLATE_REVISION_COLUMN[kind];
  await tx.query(`update clients set ${column} = $3 where id = $1 and user_id = $2`, [
    clientId,
    userId,
    revision,
  ]);
}

const SYNC_COLUMNS = 'sheet_synced_at, sheet_sync_direction, sheet_rows_moved';
const FEED_META_COLUMNS = `id, name, data_type, sheet_url, sheet_name, rows_version, ${SYNC_COLUMNS}`;

/** A client's feeds without rows, in their saved order. */
export async function listClientFeedMeta(
  db: Db,
  userId: string,
  clientId: string,
): Promise<FeedMetaRecord[]> {
  return db.query<FeedMetaRecord>(
    `select ${FEED_META_COLUMNS} from feeds where user_id = $1 and client_id = $2 order by position`,
    [userId, clientId],
  );
}

/** The user's lists without rows, in their saved order. */
export async function listUserListMeta(db: Db, userId: string): Promise<FeedMetaRecord[]> {
  return db.query<FeedMetaRecord>(
    `select ${FEED_META_COLUMNS} from feeds where user_id = $1 and client_id is null order by position`,
    [userId],
  );
}

/** The stored rows documents of some of the user's feeds, with their versions. */
export async function listFeedRows(
  db: Db,
  userId: string,
  feedIds: readonly string[],
): Promise<{ id: string; rows_version: string; rows_json: string; rows_layout: string[] }[]> {
  if (feedIds.length === 0) return [];
  return db.query(
    'select id, rows_version, rows::text as rows_json, rows_layout from feeds where user_id = $1 and id = any($2::uuid[])',
    [userId, sqlArray(feedIds)],
  );
}

/** What is stored of one feed's rows: enough to tell whether a save changes them. */
export interface FeedRowsState extends SheetSyncRecord {
  id: string;
  rows_hash: string;
  rows_version: string;
  rows_layout: string[];
}

/** The rows states of the feeds of one set (a client's, or the user's lists when clientId is null). */
export async function listFeedRowsStates(
  tx: Db,
  userId: string,
  clientId: string | null,
): Promise<FeedRowsState[]> {
  const columns = `id, rows_hash, rows_version, rows_layout, ${SYNC_COLUMNS}`;
  return clientId === null
    ? tx.query<FeedRowsState>(
        `select ${columns} from feeds where user_id = $1 and client_id is null`,
        [userId],
      )
    : tx.query<FeedRowsState>(
        `select ${columns} from feeds where user_id = $1 and client_id = $2`,
        [userId, clientId],
      );
}

/**
 * Replaces a whole feed set with `feeds` (in order). Feeds no longer in the set are deleted. A
 * feed whose rows are written is inserted by a binary COPY whose input already holds its rows
 * document (a kept feed's row is deleted first, in the same transaction): no statement text or
 * parameter of the document's size is ever made. A kept feed whose rows did not change has only
 * its name, type, link, position and sync updated, so an autosave of an unchanged 100k-row feed
 * does not rewrite megabytes. Run in a transaction.
 */
export async function replaceFeeds(
  tx: Db,
  userId: string,
  clientId: string | null,
  feeds: readonly FeedToStore[],
  existingIds: ReadonlySet<string>,
): Promise<void> {
  const keptIds = sqlArray(feeds.filter((feed) => existingIds.has(feed.id)).map((feed) => feed.id));
  if (clientId === null) {
    await tx.query(
      'delete from feeds where user_id = $1 and client_id is null and id <> all($2::uuid[])',
      [userId, keptIds],
    );
  } else {
    await tx.query(
      'delete from feeds where user_id = $1 and client_id = $2 and id <> all($3::uuid[])',
      [userId, clientId, keptIds],
    );
  }
  for (const [position, feed] of feeds.entries()) {
    if (feed.stored) {
      if (existingIds.has(feed.id))
        await tx.query('delete from feeds where id = $1 and user_id = $2', [feed.id, userId]);
      const input = closeFeedRowsCopy(feed.stored.frame, feed.stored.bytes, {
        ...feed,
        userId,
        clientId,
        position,
        sync: feed.sheetSync,
      });
      await tx.copyFrom(INSERT_FEED_COPY_SQL, input);
      continue;
    }
    // A kept feed whose rows stay: only what changed, the sync when it differs from what is stored.
    const params: unknown[] = [
      feed.id,
      userId,
      position,
      feed.name,
      feed.dataType,
      feed.sheetUrl,
      feed.sheetName,
    ];
    const sets = ['position = $3', 'name = $4', 'data_type = $5', 'sheet_url = $6'];
    sets.push('sheet_name = $7', 'updated_at = now()');
    if (!feed.isSyncUnchanged) {
      params.push(
        feed.sheetSync?.at ?? null,
        feed.sheetSync?.direction ?? null,
        feed.sheetSync?.rows ?? null,
      );
      sets.push('sheet_synced_at = $8', 'sheet_sync_direction = $9', 'sheet_rows_moved = $10');
    }
    await tx.query(`update feeds set ${sets.join(', ')} where id = $1 and user_id = $2`, params);
  }
}

/** A linked feed's kept copy as the sheet calls write it. */
export interface SheetCopyToStore {
  storedJson: string;
  rowCount: number;
  rowsHash: string;
  rowsVersion: string;
  sync: SheetSync;
}

/**
 * Locks the set that holds one of the user's feeds (its client row, or the user's list set)
 * until the transaction ends, as saves do; false when the user has no such feed.
 */
export async function lockSetOfFeed(tx: Db, userId: string, feedId: string): Promise<boolean> {
  const rows = await tx.query<{ client_id: string | null }>(
    'select client_id from feeds where id = $1 and user_id = $2',
    [feedId, userId],
  );
  const feed = rows[0];
  if (!feed) return false;
  if (feed.client_id === null) {
    await lockListSet(tx, userId);
    return true;
  }
  const clients = await tx.query(
    'select id from clients where id = $1 and user_id = $2 for update',
    [feed.client_id, userId],
  );
  return clients.length > 0;
}

/** Writes a feed's kept copy and its sync; false when the user has no such feed. */
export async function storeSheetCopy(
  tx: Db,
  userId: string,
  feedId: string,
  copy: SheetCopyToStore,
): Promise<boolean> {
  const rows = await tx.query(
    `update feeds set rows = $3, row_count = $4, rows_hash = $5, rows_version = $6,
       sheet_synced_at = $7, sheet_sync_direction = $8, sheet_rows_moved = $9,
       rows_layout = $10::text[], updated_at = now()
     where id = $1 and user_id = $2 returning id`,
    [
      feedId,
      userId,
      copy.storedJson,
      copy.rowCount,
      copy.rowsHash,
      copy.rowsVersion,
      copy.sync.at,
      copy.sync.direction,
      copy.sync.rows,
      sqlArray(STORED_ROW_LAYOUT),
    ],
  );
  return rows.length > 0;
}

/** The revision of the user's list set (0 before the first save). */
export async function findListsRevision(db: Db, userId: string): Promise<number> {
  const rows = await db.query<{ revision: number }>(
    'select revision from list_sets where user_id = $1',
    [userId],
  );
  return rows[0]?.revision ?? 0;
}

/** Locks the user's list set until the transaction ends and answers its revision. */
export async function lockListSet(tx: Db, userId: string): Promise<number> {
  await tx.query('insert into list_sets (user_id) values ($1) on conflict (user_id) do nothing', [
    userId,
  ]);
  const rows = await tx.query<{ revision: number }>(
    'select revision from list_sets where user_id = $1 for update',
    [userId],
  );
  return rows[0]?.revision ?? 0;
}

/** Sets the revision of the user's list set. */
export async function setListsRevision(tx: Db, userId: string, revision: number): Promise<void> {
  await tx.query('update list_sets set revision = $2 where user_id = $1', [userId, revision]);
}

/** A client's templates, of one kind or of every kind, in their saved order. */
export async function listClientTemplates(
  db: Db,
  userId: string,
  clientId: string,
  kind?: TemplateKind,
): Promise<TemplateRecord[]> {
  if (kind) {
    return db.query<TemplateRecord>(
      `select id, kind, body from templates
       where user_id = $1 and client_id = $2 and kind = $3 order by position`,
      [userId, clientId, kind],
    );
  }
  return db.query<TemplateRecord>(
    'select id, kind, body from templates where user_id = $1 and client_id = $2 order by kind, position',
    [userId, clientId],
  );
}

/** Ids of a client's templates of one kind. */
export async function listTemplateIds(
  tx: Db,
  userId: string,
  clientId: string,
  kind: TemplateKind,
): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    'select id from templates where user_id = $1 and client_id = $2 and kind = $3',
    [userId, clientId, kind],
  );
  return rows.map((row) => row.id);
}

/** Replaces a client's whole set of one template kind, in one statement per step. */
export async function replaceTemplates(
  tx: Db,
  userId: string,
  clientId: string,
  kind: TemplateKind,
  templates: readonly TemplateToStore[],
): Promise<void> {
  await tx.query('delete from templates where user_id = $1 and client_id = $2 and kind = $3', [
    userId,
    clientId,
    kind,
  ]);
  if (templates.length === 0) return;
  await tx.query(
    `insert into templates (id, user_id, client_id, kind, position, name, body)
     select (t.item->>'id')::uuid, $1, $2, $3, (t.ord - 1)::int, t.item->>'name', t.item->'body'
     from jsonb_array_elements($4::jsonb) with ordinality as t(item, ord)`,
    [userId, clientId, kind, JSON.stringify(templates)],
  );
}

/** Adds an email to the waiting list (once). */
export async function addWaitingListEmail(db: Db, email: string): Promise<void> {
  await db.query('insert into waiting_list (email) values ($1) on conflict (email) do nothing', [
    email,
  ]);
}

/** Stores one piece of feedback from a user. */
export async function insertFeedback(
  db: Db,
  input: { userId: string; email: string; type: string; message: string },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    'insert into feedback (user_id, email, type, message) values ($1, $2, $3, $4) returning id',
    [input.userId, input.email, input.type, input.message],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('feedback insert returned no id');
  return id;
}
