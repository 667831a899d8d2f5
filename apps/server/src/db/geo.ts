/**
 * Queries of Google's geo targets (issue 16): shared reference data, not a user's, so nothing
 * here is scoped by user. A load replaces the whole table in one transaction.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from './index.ts';

/** A stored geo target. */
export interface GeoTargetRecord {
  criteria_id: number;
  name: string;
  canonical_name: string;
  parent_id: number | null;
  country_code: string;
  target_type: string;
  status: string;
}

/** The stored release. */
export interface GeoReleaseRecord {
  release_date: string;
  source: string;
  row_count: number;
  loaded_at: Date;
}

/**
 * A search: the type, and when given the country code, the parent's criteria ID and a LIKE
 * pattern over the lowered canonical name (see services/geo.ts).
 */
export interface GeoFilter {
  targetType: string;
  countryCode: string | undefined;
  parentId: number | undefined;
  searchPattern: string | undefined;
}

/** The release loaded, or undefined when none is. */
export async function findGeoRelease(db: Db): Promise<GeoReleaseRecord | undefined> {
  const rows = await db.query<GeoReleaseRecord>(
    `select to_char(release_date, 'YYYY-MM-DD') as release_date, source, row_count, loaded_at
       from geo_release`,
  );
  return rows[0];
}

function whereClause(filter: GeoFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [filter.targetType];
  const conditions = ['target_type = $1'];
  if (filter.countryCode !== undefined) {
    params.push(filter.countryCode);
    conditions.push(`country_code = $${params.length}`);
  }
  if (filter.parentId !== undefined) {
    params.push(filter.parentId);
    conditions.push(`parent_id = $${params.length}::bigint`);
  }
  if (filter.searchPattern !== undefined) {
    params.push(filter.searchPattern);
    conditions.push(`search_name like $${params.length} escape '\\'`);
  }
  return { sql: conditions.join(' and '), params };
}

/**
 * How many targets pass the filter, how many of them have `status`, and whether a release is
 * loaded at all (one round trip for the live search).
 */
export async function countGeoTargets(
  db: Db,
  filter: GeoFilter,
  status: string,
): Promise<{ count: number; withStatus: number; isLoaded: boolean }> {
  const where = whereClause(filter);
  const rows = await db.query<{ count: number; with_status: number; is_loaded: boolean }>(
    `select count(*)::int as count,
            (count(*) filter (where status = $${where.params.length + 1}))::int as with_status,
            exists (select 1 from geo_release) as is_loaded
       from geo_targets where ${where.sql}`,
    [...where.params, status],
  );
  const row = rows[0];
  return {
    count: row?.count ?? 0,
    withStatus: row?.with_status ?? 0,
    isLoaded: row?.is_loaded ?? false,
  };
}

/** The first `limit` targets passing the filter, in criteria ID order (every one without a limit). */
export async function listGeoTargets(
  db: Db,
  filter: GeoFilter,
  limit?: number,
): Promise<GeoTargetRecord[]> {
  const where = whereClause(filter);
  const params = limit === undefined ? where.params : [...where.params, limit];
  return db.query<GeoTargetRecord>(
    `select criteria_id, name, canonical_name, parent_id, country_code, target_type, status
       from geo_targets where ${where.sql}
      order by criteria_id${limit === undefined ? '' : ` limit $${params.length}`}`,
    params,
  );
}

/** The targets of some criteria IDs (digit strings), in criteria ID order; unknown IDs are left out. */
export async function listGeoTargetsByIds(
  db: Db,
  ids: readonly string[],
): Promise<GeoTargetRecord[]> {
  return db.query<GeoTargetRecord>(
    `select criteria_id, name, canonical_name, parent_id, country_code, target_type, status
       from geo_targets where criteria_id = any($1::bigint[])
      order by criteria_id`,
    // An array literal, read the same by PostgreSQL and PGlite (the IDs are digits only).
    [`{${ids.join(',')}}`],
  );
}

/** What replaceGeoTargets stored. */
export interface GeoReplaceResult {
  release: GeoReleaseRecord;
  /** False when pg_trgm is missing: name searches then scan the type's rows. */
  hasTrigramIndex: boolean;
}

// Any fixed number: one load at a time per database.
const GEO_LOAD_LOCK_KEY = 740_312_216;

/**
 * Replaces every geo target with the rows of `copyCsv` (services/geo-file.ts toCopyCsv) and
 * records the release, in one transaction: the rows go into a fresh table that gets its
 * indexes, then it takes geo_targets' place. Until the commit every search sees the old table;
 * a failure leaves it, and the release, as they were (the fresh table goes with the rollback).
 * Index names carry the fresh table's unique name, so they never collide with the old ones.
 */
export async function replaceGeoTargets(
  db: Db,
  copyCsv: Uint8Array,
  release: { date: string; source: string },
): Promise<GeoReplaceResult> {
  const table = `geo_targets_${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [GEO_LOAD_LOCK_KEY]);
    await tx.exec(`create table ${table} (like geo_targets including all excluding indexes)`);
    const rowCount = await tx.copyFrom(
      `copy ${table} (criteria_id, name, canonical_name, parent_id, country_code, target_type, status, search_name) from stdin with (format csv)`,
      copyCsv,
    );
    await tx.exec(`alter table ${table} add constraint ${table}_pkey primary key (criteria_id)`);
    // Both give the first matches in criteria ID order within the filter (a Country search may
    // have no country code): without the second, a search with fewer matches than its limit
    // walks the whole table in primary-key order.
    await tx.exec(
      `create index ${table}_type_country on ${table} (target_type, country_code, criteria_id)`,
    );
    await tx.exec(`create index ${table}_type on ${table} (target_type, criteria_id)`);
    await tx.exec(`create index ${table}_parent on ${table} (parent_id)`);
    const trigram = await tx.query(`select 1 from pg_extension where extname = 'pg_trgm'`);
    if (trigram.length > 0)
      await tx.exec(
        `create index ${table}_search on ${table} using gin (search_name gin_trgm_ops)`,
      );
    await tx.exec(`analyze ${table}`);
    await tx.exec(`drop table geo_targets`);
    await tx.exec(`alter table ${table} rename to geo_targets`);
    const [stored] = await tx.query<GeoReleaseRecord>(
      `insert into geo_release (id, release_date, source, row_count, loaded_at)
       values (true, $1, $2, $3, now())
       on conflict (id) do update set release_date = excluded.release_date,
         source = excluded.source, row_count = excluded.row_count, loaded_at = excluded.loaded_at
       returning to_char(release_date, 'YYYY-MM-DD') as release_date, source, row_count, loaded_at`,
      [release.date, release.source, rowCount],
    );
    return { release: stored!, hasTrigramIndex: trigram.length > 0 };
  });
}
