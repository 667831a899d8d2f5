/**
 * Workspace operations that span tables: creating clients with unique names, loading a client's
 * bundle, and the whole-set saves of feeds, lists and templates. Every save runs in one
 * transaction (all or nothing) and checks the set's revision: a save naming an older revision is
 * refused with 409 and the current state; a save without a revision overwrites.
 */
import { randomUUID } from 'node:crypto';
import { makeUniqueName } from '@adloom/engine';
import {
  LISTS_SAVED_MESSAGE,
  SAVE_CONFLICT_MESSAGE,
  type ParsedFeedRow,
  type SheetSync,
  type TemplateKind,
  type TemplateOfKind,
} from '@adloom/contract';
import { AppError } from '../errors.ts';
import type { Db } from '../db/index.ts';
import {
  TEMPLATE_REVISION_COLUMN,
  deleteClient,
  findClient,
  findListsRevision,
  insertClient,
  listClientFeedMeta,
  listFeedRows,
  listClientNames,
  listClientTemplates,
  listFeedRowsStates,
  listTemplateIds,
  listUserListMeta,
  lockClient,
  lockListSet,
  lockSetOfFeed,
  replaceFeeds,
  replaceTemplates,
  setClientFeedsRevision,
  setClientTemplatesRevision,
  setListsRevision,
  storeSheetCopy,
  type FeedMetaRecord,
  type FeedRowsState,
  type FeedToStore,
  type TemplateToStore,
} from '../db/workspace.ts';
import { STORED_ROW_LAYOUT } from '../db/feed-rows.ts';
import type { FeedRowsCache } from './workspace-cache.ts';
import { answeredRowsBytes, hashRows, storedRowsJson, type PreparedFeed } from './save-rows.ts';
import {
  presentClientBundleJson,
  presentSheetSync,
  presentStoredRowsJson,
  presentFeedSetJson,
  jsonText,
  type JsonPieces,
  type RowsJson,
  presentFeedsJson,
  presentTemplate,
} from '../presenters/workspace.ts';

/** Message of the 404 answered for a client the user does not have (theirs or nobody's). */
export const CLIENT_NOT_FOUND_MESSAGE = 'Client not found';

function clientNotFound(): AppError {
  return new AppError('not_found', CLIENT_NOT_FOUND_MESSAGE);
}

/** Throws 409 with the current state when `expected` names an older (or unknown) revision. */
async function checkRevision(
  expected: number | undefined,
  current: number,
  loadCurrent: () => Promise<unknown>,
): Promise<void> {
  if (expected === undefined || expected === current) return;
  throw new AppError('conflict', SAVE_CONFLICT_MESSAGE, {
    revision: current,
    current: await loadCurrent(),
  });
}

// ---------------------------------------------------------------------------------------------
// Clients

/** Creates a client; a taken name gets the ' (n)' rule. Answers the created name and the list. */
export async function createClient(
  db: Db,
  userId: string,
  name: string,
): Promise<{ name: string; clients: string[] }> {
  // A concurrent create can take the same name between the read and the insert: try again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await listClientNames(db, userId);
    const unique = makeUniqueName(name, existing);
    if (await insertClient(db, userId, unique)) {
      return { name: unique, clients: await listClientNames(db, userId) };
    }
  }
  throw new AppError(
    'conflict',
    'Unable to create client: the name is being taken. Please try again.',
  );
}

/** Deletes a client with its feeds and templates; answers the remaining names. */
export async function removeClient(db: Db, userId: string, name: string): Promise<string[]> {
  if (!(await deleteClient(db, userId, name))) throw clientNotFound();
  return listClientNames(db, userId);
}

/**
 * GET /api/app/clients/:name as JSON text. The client row (with the revisions) is read before
 * the sets, so the data handed out is never older than the revisions it is saved against.
 */
export async function loadClientBundleJson(
  db: Db,
  cache: FeedRowsCache,
  userId: string,
  name: string,
): Promise<JsonPieces> {
  const client = await findClient(db, userId, name);
  if (!client) throw clientNotFound();
  const feedsJson = await loadFeedsJson(
    db,
    cache,
    userId,
    await listClientFeedMeta(db, userId, client.id),
  );
  const templates = await listClientTemplates(db, userId, client.id);
  return presentClientBundleJson(client, feedsJson, templates);
}

/**
 * Feeds as answer JSON: rows come from the cache when it holds the stored version, otherwise
 * from the database (and are then cached). A feed removed meanwhile answers no rows.
 */
async function loadFeedsJson(
  db: Db,
  cache: FeedRowsCache,
  userId: string,
  feeds: readonly FeedMetaRecord[],
): Promise<JsonPieces> {
  const rowsById = new Map<string, RowsJson>();
  const misses: string[] = [];
  for (const feed of feeds) {
    const cached = cache.get(feed.id, feed.rows_version);
    if (cached === undefined) misses.push(feed.id);
    else rowsById.set(feed.id, cached);
  }
  for (const stored of await listFeedRows(db, userId, misses)) {
    const json = presentStoredRowsJson(stored.rows_json, stored.rows_layout);
    cache.set(stored.id, stored.rows_version, json);
    rowsById.set(stored.id, json);
  }
  return presentFeedsJson(feeds, (id) => rowsById.get(id) ?? '[]');
}

// ---------------------------------------------------------------------------------------------
// Feeds and lists

/** True when rows stored in `layout` are in today's `STORED_ROW_LAYOUT`. */
function isStoredLayout(layout: readonly string[]): boolean {
  return (
    layout.length === STORED_ROW_LAYOUT.length &&
    layout.every((key, i) => key === STORED_ROW_LAYOUT[i])
  );
}

/** A stored feed's sync as the sync to store again (unchanged). */
function storedSync(state: FeedRowsState | undefined): SheetSync | null {
  return (state && presentSheetSync(state)) ?? null;
}

/**
 * Feeds ready to store: names made unique in order with the ' (n)' rule, a known `_id` kept
 * (an id from another set or user is never trusted).
 *
 * A linked feed (spec section 7: saved with empty rows) keeps its stored rows, the copy last read
 * from or written to its sheet, whatever rows it is sent with; only rows come only from the
 * sheet calls. The one exception: a linked feed never synced with its sheet stores the rows it
 * is sent with as its copy ('kept'), so rows a feed held when it was linked are never dropped.
 * An unlinked feed stores its rows as always and forgets any sync.
 */
export function prepareFeeds(
  feeds: readonly PreparedFeed[],
  existing: readonly FeedRowsState[],
  now: Date = new Date(),
): FeedToStore[] {
  const known = new Map(existing.map((state) => [state.id, state]));
  const names = new Set<string>();
  return feeds.map((feed) => {
    const name = makeUniqueName(feed.name, names);
    names.add(name);
    const state = feed._id ? known.get(feed._id) : undefined;
    // An id is used once per set: a second feed sent with the same _id becomes a new feed.
    if (state) known.delete(state.id);
    const meta = {
      id: state?.id ?? randomUUID(),
      name,
      dataType: feed.dataType,
      sheetUrl: feed.sheetUrl,
      sheetName: feed.sheetName,
    };
    const isLinked = feed.sheetUrl !== '';
    const isSynced = state?.sheet_synced_at != null;
    if (isLinked && state && (isSynced || feed.rowCount === 0)) {
      return {
        ...meta,
        rowsJson: '',
        stored: undefined,
        rowCount: 0,
        rowsHash: state.rows_hash,
        rowsVersion: state.rows_version,
        isRowsUnchanged: true,
        isCopyKept: true,
        sheetSync: storedSync(state),
        isSyncUnchanged: true,
      };
    }
    const { rowsHash } = feed;
    // Rows of another layout are written again even with equal text: their layout changes.
    const isRowsUnchanged =
      state !== undefined && state.rows_hash === rowsHash && isStoredLayout(state.rows_layout);
    const sheetSync: SheetSync | null =
      isLinked && feed.rowCount > 0
        ? { at: now.toISOString(), direction: 'kept', rows: feed.rowCount }
        : null;
    return {
      ...meta,
      rowsJson: answeredRowsBytes(feed),
      stored: isRowsUnchanged ? undefined : { frame: feed.storedFrame, bytes: feed.storedBytes },
      rowCount: feed.rowCount,
      rowsHash,
      rowsVersion: isRowsUnchanged ? state.rows_version : randomUUID(),
      isRowsUnchanged,
      isCopyKept: false,
      sheetSync,
      isSyncUnchanged: sheetSync === null && storedSync(state) === null,
    };
  });
}

/**
 * Reads the kept copies of linked feeds for the answer (from the cache when it holds the stored
 * version). Run in the save's transaction, so the copies answered are the ones saved.
 */
async function readKeptCopies(
  tx: Db,
  cache: FeedRowsCache,
  userId: string,
  feeds: readonly FeedToStore[],
): Promise<void> {
  const misses = new Map<string, FeedToStore>();
  for (const feed of feeds) {
    if (!feed.isCopyKept) continue;
    const cached = cache.get(feed.id, feed.rowsVersion);
    if (cached === undefined) misses.set(feed.id, feed);
    else feed.rowsJson = cached;
  }
  for (const stored of await listFeedRows(tx, userId, [...misses.keys()])) {
    misses.get(stored.id)!.rowsJson = presentStoredRowsJson(stored.rows_json, stored.rows_layout);
  }
}

/** The answer JSON of feeds just stored; their rows are remembered for the next load. */
function storedFeedsJson(cache: FeedRowsCache, feeds: readonly FeedToStore[]): JsonPieces {
  const rowsById = new Map<string, RowsJson>();
  for (const feed of feeds) {
    cache.set(feed.id, feed.rowsVersion, feed.rowsJson);
    rowsById.set(feed.id, feed.rowsJson);
  }
  const metas: FeedMetaRecord[] = feeds.map((feed) => ({
    id: feed.id,
    name: feed.name,
    data_type: feed.dataType,
    sheet_url: feed.sheetUrl,
    sheet_name: feed.sheetName,
    rows_version: feed.rowsVersion,
    sheet_synced_at: feed.sheetSync ? new Date(feed.sheetSync.at) : null,
    sheet_sync_direction: feed.sheetSync?.direction ?? null,
    sheet_rows_moved: feed.sheetSync?.rows ?? null,
  }));
  return presentFeedsJson(metas, (id) => rowsById.get(id) ?? '[]');
}

/**
 * POST /api/app/feeds: replaces the client's feed set. Answers `{ name, revision, feeds }` as
 * JSON text. The body was checked and its rows made ready (save-body.ts) before the
 * transaction, so it holds the set's lock and a connection only for its statements.
 */
export async function saveClientFeeds(
  db: Db,
  cache: FeedRowsCache,
  userId: string,
  input: { name: string; feeds: PreparedFeed[]; revision?: number | undefined },
): Promise<JsonPieces> {
  const saved = await db.transaction(async (tx) => {
    const client = await lockClient(tx, userId, input.name);
    if (!client) throw clientNotFound();
    await checkRevision(input.revision, client.feeds_revision, async () => {
      const feedsJson = await loadFeedsJson(
        tx,
        cache,
        userId,
        await listClientFeedMeta(tx, userId, client.id),
      );
      return JSON.parse(
        jsonText(presentFeedSetJson({ name: client.name }, feedsJson, client.feeds_revision)),
      );
    });
    const existing = await listFeedRowsStates(tx, userId, client.id);
    const feeds = prepareFeeds(input.feeds, existing);
    await replaceFeeds(tx, userId, client.id, feeds, new Set(existing.map((state) => state.id)));
    await readKeptCopies(tx, cache, userId, feeds);
    const revision = client.feeds_revision + 1;
    await setClientFeedsRevision(tx, userId, client.id, revision);
    return { name: client.name, feeds, revision };
  });
  // Only once committed: the cache must never hold rows the database does not.
  return presentFeedSetJson(
    { name: saved.name },
    storedFeedsJson(cache, saved.feeds),
    saved.revision,
  );
}

/** GET /api/app/lists as JSON text: `{ revision, feeds }`. */
export async function loadListsJson(
  db: Db,
  cache: FeedRowsCache,
  userId: string,
): Promise<JsonPieces> {
  const revision = await findListsRevision(db, userId);
  const feedsJson = await loadFeedsJson(db, cache, userId, await listUserListMeta(db, userId));
  return presentFeedSetJson({}, feedsJson, revision);
}

/** POST /api/app/lists: replaces the user's lists and data tables. */
export async function saveLists(
  db: Db,
  cache: FeedRowsCache,
  userId: string,
  input: { feeds: PreparedFeed[]; revision?: number | undefined },
): Promise<JsonPieces> {
  const saved = await db.transaction(async (tx) => {
    const current = await lockListSet(tx, userId);
    await checkRevision(input.revision, current, async () => {
      const feedsJson = await loadFeedsJson(tx, cache, userId, await listUserListMeta(tx, userId));
      return JSON.parse(jsonText(presentFeedSetJson({}, feedsJson, current)));
    });
    const existing = await listFeedRowsStates(tx, userId, null);
    const feeds = prepareFeeds(input.feeds, existing);
    await replaceFeeds(tx, userId, null, feeds, new Set(existing.map((state) => state.id)));
    await readKeptCopies(tx, cache, userId, feeds);
    const revision = current + 1;
    await setListsRevision(tx, userId, revision);
    return { feeds, revision };
  });
  return presentFeedSetJson(
    { message: LISTS_SAVED_MESSAGE },
    storedFeedsJson(cache, saved.feeds),
    saved.revision,
  );
}

/** A feed id as the database makes them; anything else names no feed. */
const FEED_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Stores rows just read from or written to a linked feed's sheet as its kept copy, with when,
 * how and how many (ids made where missing, in place). Runs under the lock of the feed's set, as
 * saves do. Scoped by the user: an id that names none of their feeds records nothing. Answers
 * the sync.
 */
export async function recordSheetCopy(
  db: Db,
  userId: string,
  feedId: string | undefined,
  input: { rows: ParsedFeedRow[]; direction: 'read' | 'written'; now?: Date },
): Promise<SheetSync> {
  const { rows, direction } = input;
  const sync: SheetSync = {
    at: (input.now ?? new Date()).toISOString(),
    direction,
    rows: rows.length,
  };
  // Ids are made even when nothing is stored: the answer's rows need them.
  const storedJson = storedRowsJson(rows);
  if (!feedId || !FEED_ID_PATTERN.test(feedId)) return sync;
  await db.transaction(async (tx) => {
    if (!(await lockSetOfFeed(tx, userId, feedId))) return;
    await storeSheetCopy(tx, userId, feedId, {
      storedJson,
      rowCount: rows.length,
      rowsHash: hashRows(storedJson),
      rowsVersion: randomUUID(),
      sync,
    });
  });
  return sync;
}

// ---------------------------------------------------------------------------------------------
// Templates

/** Template kinds whose names are made unique (the spec leaves legacy ad templates out). */
const KINDS_WITH_UNIQUE_NAMES: ReadonlySet<TemplateKind> = new Set([
  'campaignTemplates',
  'rsaTemplates',
  'performanceMaxTemplates',
  'extensionTemplates',
]);

/** Templates ready to store, with the same id and name rules as feeds. */
export function prepareTemplates<K extends TemplateKind>(
  kind: K,
  templates: readonly TemplateOfKind[K][],
  existingIds: readonly string[],
): TemplateToStore[] {
  const known = new Set(existingIds);
  const names = new Set<string>();
  return templates.map((template) => {
    const { _id, ...body } = template as TemplateOfKind[K] & { _id?: string };
    let name = body.name;
    if (KINDS_WITH_UNIQUE_NAMES.has(kind)) {
      name = makeUniqueName(name, names);
      names.add(name);
    }
    let id: string = randomUUID();
    if (_id && known.has(_id)) {
      id = _id;
      known.delete(_id);
    }
    return { id, name, body: { ...body, name } };
  });
}

/** One of the five template saves: replaces the client's set of that kind. */
export async function saveClientTemplates<K extends TemplateKind>(
  db: Db,
  userId: string,
  kind: K,
  input: { name: string; templates: readonly TemplateOfKind[K][]; revision?: number | undefined },
): Promise<{ name: string; revision: number; templates: Record<string, unknown>[] }> {
  return db.transaction(async (tx) => {
    const client = await lockClient(tx, userId, input.name);
    if (!client) throw clientNotFound();
    const current = client[TEMPLATE_REVISION_COLUMN[kind]] as number;
    await checkRevision(input.revision, current, async () => ({
      name: client.name,
      revision: current,
      templates: (await listClientTemplates(tx, userId, client.id, kind)).map(presentTemplate),
    }));
    const templates = prepareTemplates(
      kind,
      input.templates,
      await listTemplateIds(tx, userId, client.id, kind),
    );
    await replaceTemplates(tx, userId, client.id, kind, templates);
    const revision = current + 1;
    await setClientTemplatesRevision(tx, userId, client.id, kind, revision);
    return {
      name: client.name,
      revision,
      templates: templates.map((t) => presentTemplate({ id: t.id, kind, body: t.body })),
    };
  });
}
