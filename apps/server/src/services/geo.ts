/**
 * Google's geo targets (issue 16): loading a release (from `npm run geo:load`, or GEO_TARGETS_FILE
 * at start-up) and the searches behind New Geo Feed.
 */
import {
  FEED_MAX_ROWS,
  GEO_MESSAGES,
  GEO_REMOVAL_PLANNED,
  type GeoLookupAnswer,
  type GeoParams,
  type GeoRelease,
  type GeoSearchAnswer,
  type GeoTarget,
} from '@adloom/contract';
import type { Db } from '../db/index.ts';
import {
  countGeoTargets,
  findGeoRelease,
  listGeoTargets,
  listGeoTargetsByIds,
  replaceGeoTargets,
  type GeoFilter,
} from '../db/geo.ts';
import { AppError } from '../errors.ts';
import { presentGeoRelease, presentGeoTarget } from '../presenters/geo.ts';
import {
  geoSourceDate,
  geoSourceModified,
  geoSourceName,
  parseGeoCsv,
  readGeoSource,
  toCopyCsv,
} from './geo-file.ts';

/** The release loaded, or null. */
export async function readGeoRelease(db: Db): Promise<GeoRelease | null> {
  const release = await findGeoRelease(db);
  return release ? presentGeoRelease(release) : null;
}

/**
 * The SQL filter with the contract's matchesGeoFilters rule, or undefined when no target can
 * pass: the text (trimmed, lowered by JavaScript) must occur in one comma-separated entry of the
 * canonical name, so a text holding a comma matches none; the parent ID must equal the number
 * entered, and a number beyond 2^53 equals no criteria ID.
 */
export function toGeoFilter(params: GeoParams): GeoFilter | undefined {
  const parent = params.parentId === undefined ? '' : String(params.parentId).trim();
  const parentId = parent === '' ? undefined : Number(parent);
  if (parentId !== undefined && !Number.isSafeInteger(parentId)) return undefined;
  const text = (params.canonicalName ?? '').trim().toLowerCase();
  if (text.includes(',')) return undefined;
  return {
    targetType: params.targetType,
    countryCode: params.countryCode || undefined,
    parentId,
    searchPattern: text === '' ? undefined : `%${text.replace(/[\\%_]/g, '\\$&')}%`,
  };
}

function notLoaded(): AppError {
  return new AppError('geo_not_loaded', GEO_MESSAGES.notLoaded);
}

/** `POST /api/geo/search`: how many targets match, how many are 'Removal Planned', the first `limit`. */
export async function searchGeoTargets(
  db: Db,
  params: GeoParams,
  limit: number,
): Promise<GeoSearchAnswer> {
  const filter = toGeoFilter(params);
  if (!filter) {
    if (!(await findGeoRelease(db))) throw notLoaded();
    return { count: 0, removalPlanned: 0, targets: [] };
  }
  // Side by side: on PostgreSQL they run on two connections (PGlite takes them in turn).
  const [{ count, withStatus, isLoaded }, targets] = await Promise.all([
    countGeoTargets(db, filter, GEO_REMOVAL_PLANNED),
    limit > 0 ? listGeoTargets(db, filter, limit) : [],
  ]);
  if (!isLoaded) throw notLoaded();
  return { count, removalPlanned: withStatus, targets: targets.map(presentGeoTarget) };
}

/** `POST /api/geo`: every matching target in criteria ID order; more than `maxRows` is 413. */
export async function findGeoTargets(
  db: Db,
  params: GeoParams,
  maxRows = FEED_MAX_ROWS,
): Promise<GeoTarget[]> {
  const filter = toGeoFilter(params);
  if (!filter) {
    if (!(await findGeoRelease(db))) throw notLoaded();
    return [];
  }
  // One transaction: the count's read holds the table until the list is read, so a load that
  // swaps the table in between waits, and the list is the release the count was checked on.
  const targets = await db.transaction(async (tx) => {
    const { count, isLoaded } = await countGeoTargets(tx, filter, GEO_REMOVAL_PLANNED);
    if (!isLoaded) throw notLoaded();
    if (count > maxRows) throw new AppError('geo_too_many', GEO_MESSAGES.tooMany(count, maxRows));
    return count === 0 ? [] : listGeoTargets(tx, filter);
  });
  return targets.map(presentGeoTarget);
}

/**
 * `POST /api/geo/targets`: the targets of some criteria IDs (at most GEO_LOOKUP_MAX, checked by
 * the body's schema), in criteria ID order; an ID Google's release lacks is left out.
 */
export async function lookupGeoTargets(db: Db, ids: readonly string[]): Promise<GeoLookupAnswer> {
  // Leading zeros dropped: the IDs are compared as numbers.
  const distinct = [...new Set(ids.map((id) => BigInt(id).toString()))];
  const [release, targets] = await Promise.all([
    findGeoRelease(db),
    listGeoTargetsByIds(db, distinct),
  ]);
  if (!release) throw notLoaded();
  return { targets: targets.map(presentGeoTarget) };
}

/** What a load did. */
export interface GeoLoadResult {
  release: GeoRelease;
  /** Whole load: reading, checking and copying, in seconds. */
  seconds: number;
  hasTrigramIndex: boolean;
}

/** A file read and checked, ready to store. */
export interface GeoFileReady {
  copyCsv: Uint8Array;
  release: { date: string; source: string };
  startedAt: number;
}

/** Reads and checks a CSV or zip path or an http(s) address (GeoFileError when it is not Google's). */
export async function readGeoFile(source: string): Promise<GeoFileReady> {
  const startedAt = performance.now();
  const file = await readGeoSource(source);
  const rows = parseGeoCsv(file.csv, file.name);
  return { copyCsv: toCopyCsv(rows), release: { date: file.date, source: file.name }, startedAt };
}

/** Stores a file read by readGeoFile, replacing the release loaded. */
export async function storeGeoFile(db: Db, file: GeoFileReady): Promise<GeoLoadResult> {
  const stored = await replaceGeoTargets(db, file.copyCsv, file.release);
  return {
    release: presentGeoRelease(stored.release),
    seconds: (performance.now() - file.startedAt) / 1000,
    hasTrigramIndex: stored.hasTrigramIndex,
  };
}

/** Loads a release from a CSV or zip path or an http(s) address, replacing the one loaded. */
export async function loadGeoTargets(db: Db, source: string): Promise<GeoLoadResult> {
  return storeGeoFile(db, await readGeoFile(source));
}

/** Where start-up reports what it did. */
export interface GeoLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** The line that reports a load. */
export function describeGeoLoad(result: GeoLoadResult): string {
  const { release } = result;
  return `Loaded Google's geo targets of ${release.date} from ${release.source}: ${release.rows.toLocaleString('en-US')} rows in ${result.seconds.toFixed(1)} s`;
}

/** Said when pg_trgm is missing. */
export const NO_TRIGRAM_WARNING =
  'pg_trgm is not available in this database: geo name searches run without their trigram index (slower). Install PostgreSQL contrib to speed them up.';

/**
 * GEO_TARGETS_FILE at start-up: loads the file when no release is loaded or its release date is
 * newer than the loaded one. Answers what happened; a failure is logged and keeps the old data.
 */
export async function loadGeoTargetsOnStart(
  db: Db,
  source: string,
  log: GeoLog,
): Promise<'loaded' | 'skipped' | 'failed'> {
  try {
    const loaded = await readGeoRelease(db);
    // The same file, unchanged since it was loaded (whatever dates its name holds or lacks).
    if (loaded && loaded.source === geoSourceName(source)) {
      const modified = await geoSourceModified(source);
      if (modified && modified.getTime() <= Date.parse(loaded.loadedAt)) {
        log.info(
          `GEO_TARGETS_FILE: ${source} has not changed since it was loaded (${loaded.loadedAt}), so it is not loaded again`,
        );
        return 'skipped';
      }
    }
    const date = await geoSourceDate(source);
    if (loaded && date !== undefined && date <= loaded.date) {
      log.info(
        `GEO_TARGETS_FILE: the geo targets of ${loaded.date} are loaded; ${source} (${date}) is not newer, so it is not loaded again`,
      );
      return 'skipped';
    }
    const result = await loadGeoTargets(db, source);
    log.info(`GEO_TARGETS_FILE: ${describeGeoLoad(result)}`);
    if (!result.hasTrigramIndex) log.warn(NO_TRIGRAM_WARNING);
    return 'loaded';
  } catch (error) {
    log.error(
      `GEO_TARGETS_FILE: could not load ${source}: ${error instanceof Error ? error.message : String(error)}. The geo targets loaded before (if any) stay.`,
    );
    return 'failed';
  }
}
