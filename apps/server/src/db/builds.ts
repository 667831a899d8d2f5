/**
 * Queries of the account loop (issue 35): a client's builds and its loop settings. Every query
 * is scoped by the signed-in user's id. A build's record is written by a binary COPY (one
 * parameter of 30 MB would travel as text on the embedded database) and read in slices.
 */
import type { BuildMeta, DroppedItemAction, LoopSettings } from '@adloom/contract';
import type { Db } from './index.ts';
import { binaryField, frameCopyRow, type CopyRowFrame } from './copy-binary.ts';

/** A stored build without its record. */
export interface BuildRecordRow {
  id: string;
  created_at: Date;
  feed_name: string;
  template_names: string[];
  template_count: number;
  label: string;
  counts: Record<string, number>;
  size_bytes: number;
}

const BUILD_COLUMNS =
  'id, created_at, feed_name, template_names, template_count, label, counts, size_bytes';

/** The user's client of that id, locked until the transaction ends; undefined when not theirs. */
export async function lockClientById(
  tx: Db,
  userId: string,
  clientId: string,
): Promise<{ id: string } | undefined> {
  const rows = await tx.query<{ id: string }>(
    'select id from clients where id = $1 and user_id = $2 for update',
    [clientId, userId],
  );
  return rows[0];
}

/** True when the user has a client of that id. */
export async function hasClient(db: Db, userId: string, clientId: string): Promise<boolean> {
  const rows = await db.query('select 1 from clients where id = $1 and user_id = $2', [
    clientId,
    userId,
  ]);
  return rows.length > 0;
}

/** A new build row, ready for `insertBuild`. */
export interface BuildToStore {
  id: string;
  userId: string;
  clientId: string;
  meta: BuildMeta;
}

const INSERT_BUILD_SQL = `copy builds (id, user_id, client_id, feed_name, template_names,
  template_count, label, counts, size_bytes, record) from stdin with (format binary)`;

/**
 * The COPY input of a new build whose record has `recordBytes` bytes: fill `last` with the
 * record, then pass the frame to `insertBuild`.
 */
export function frameBuild(build: BuildToStore, recordBytes: number): CopyRowFrame {
  return frameCopyRow(
    [
      binaryField.uuid(build.id),
      binaryField.uuid(build.userId),
      binaryField.uuid(build.clientId),
      binaryField.text(build.meta.feedName),
      binaryField.jsonb(build.meta.templateNames),
      binaryField.int4(build.meta.templateCount),
      binaryField.text(build.meta.label),
      binaryField.jsonb(build.meta.counts),
      binaryField.int8(recordBytes),
    ],
    recordBytes,
  );
}

/** Writes a framed build (`frameBuild`). */
export async function insertBuild(tx: Db, frame: CopyRowFrame): Promise<void> {
  await tx.copyFrom(INSERT_BUILD_SQL, frame.data);
}

/** Deletes all but the client's newest `keep` builds; answers how many went. */
export async function deleteOlderBuilds(
  tx: Db,
  userId: string,
  clientId: string,
  keep: number,
): Promise<number> {
  const rows = await tx.query(
    `delete from builds where user_id = $1 and client_id = $2 and seq < (
       select coalesce(min(seq), 0) from (
         select seq from builds where user_id = $1 and client_id = $2 order by seq desc limit $3
       ) kept
     ) returning id`,
    [userId, clientId, keep],
  );
  return rows.length;
}

/** The client's builds, newest first. */
export async function listBuilds(
  db: Db,
  userId: string,
  clientId: string,
): Promise<BuildRecordRow[]> {
  return db.query<BuildRecordRow>(
    `select ${BUILD_COLUMNS} from builds where user_id = $1 and client_id = $2 order by seq desc`,
    [userId, clientId],
  );
}

/** One of the client's builds (without its record). */
export async function findBuild(
  db: Db,
  userId: string,
  clientId: string,
  buildId: string,
): Promise<BuildRecordRow | undefined> {
  const rows = await db.query<BuildRecordRow>(
    `select ${BUILD_COLUMNS} from builds where id = $1 and user_id = $2 and client_id = $3`,
    [buildId, userId, clientId],
  );
  return rows[0];
}

/** The client's newest build (without its record). */
export async function findLatestBuild(
  db: Db,
  userId: string,
  clientId: string,
): Promise<BuildRecordRow | undefined> {
  const rows = await db.query<BuildRecordRow>(
    `select ${BUILD_COLUMNS} from builds where user_id = $1 and client_id = $2
      order by seq desc limit 1`,
    [userId, clientId],
  );
  return rows[0];
}

/**
 * `length` bytes of a build's record from byte `offset` (0-based); undefined when the build is
 * gone. Sent as base64 text: both drivers turn a bytea answer into hex text first, and PGlite
 * then parses it a byte at a time.
 */
export async function readBuildSlice(
  db: Db,
  userId: string,
  buildId: string,
  offset: number,
  length: number,
): Promise<Buffer | undefined> {
  const rows = await db.query<{ slice: string }>(
    `select encode(substring(record from $3 for $4), 'base64') as slice
       from builds where id = $1 and user_id = $2`,
    [buildId, userId, offset + 1, length],
  );
  const row = rows[0];
  return row ? Buffer.from(row.slice, 'base64') : undefined;
}

/** The client's loop settings; undefined when the user has no client of that id. */
export async function findLoopSettings(
  db: Db,
  userId: string,
  clientId: string,
): Promise<LoopSettings | undefined> {
  const rows = await db.query<{ dropped_items: DroppedItemAction; loop_label: string }>(
    'select dropped_items, loop_label from clients where id = $1 and user_id = $2',
    [clientId, userId],
  );
  const row = rows[0];
  return row ? { dropped: row.dropped_items, label: row.loop_label } : undefined;
}

/** Changes the client's loop settings; answers them, or undefined when the client is not theirs. */
export async function updateLoopSettings(
  db: Db,
  userId: string,
  clientId: string,
  changes: Partial<LoopSettings>,
): Promise<LoopSettings | undefined> {
  const rows = await db.query<{ dropped_items: DroppedItemAction; loop_label: string }>(
    `update clients set dropped_items = coalesce($3, dropped_items), loop_label = coalesce($4, loop_label)
      where id = $1 and user_id = $2 returning dropped_items, loop_label`,
    [clientId, userId, changes.dropped ?? null, changes.label ?? null],
  );
  const row = rows[0];
  return row ? { dropped: row.dropped_items, label: row.loop_label } : undefined;
}
