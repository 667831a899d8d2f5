/**
 * Geo targets benchmark (issue 16), on PGlite and/or PostgreSQL.
 *
 *   npx tsx apps/server/bench/geo.bench.ts [--db pglite|postgres|both] [--rounds 20] [--rows 270000]
 *
 * Measures:
 * - the whole load (read, check, COPY, indexes, swap) of the 98,790-row subset in
 *   `<repo>/../shared/data/geo`, and of a full-size file (`--rows`, Google's release holds ~270k)
 *   made in a temp folder from the subset: its rows again under new criteria IDs and names, and
 *   under other target types (as Google's file spreads its rows over 25 types), so that no type
 *   and country holds more rows than in the subset (the biggest: US postal codes, 33k; Google's
 *   own has ~41k US ZIP codes);
 * - POST /api/geo/search (limit 20) over HTTP on 127.0.0.1 against the full-size data, for a mix
 *   of what a person types in the modal (type, country, the name letter by letter, a parent),
 *   `--rounds` times each: p50 and p95 seen by the client.
 * Prints a table and, as the last line, one JSON object with the figures.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { API, type GeoParamsInput } from '@adloom/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  createPgDb,
  createPgliteDb,
  createPgPool,
  openPglite,
  runMigrations,
  type Db,
} from '../src/db/index.ts';
import { parseGeoCsv } from '../src/services/geo-file.ts';
import { loadGeoTargets } from '../src/services/geo.ts';
import { startEmbeddedPostgres } from '../test/postgres.ts';

type DbKind = 'pglite' | 'postgres';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    rounds: { type: 'string', default: '20' },
    rows: { type: 'string', default: '270000' },
  },
});
const kinds: DbKind[] = args.db === 'both' ? ['pglite', 'postgres'] : [args.db as DbKind];
if (!kinds.every((k) => k === 'pglite' || k === 'postgres')) {
  console.error('--db must be pglite, postgres or both');
  process.exit(2);
}
const ROUNDS = Number(args.rounds);
const FULL_ROWS = Number(args.rows);

/**
 * The 98,790-row subset of Google's geo targets, kept beside the repository (never committed):
 * only this benchmark reads it; it says where it looked when it is missing.
 */
const SUBSET = resolve(
  fileURLToPath(new URL('../../..', import.meta.url)),
  '../shared/data/geo/geotargets-subset.csv',
);
if (!existsSync(SUBSET)) {
  console.error(
    `${SUBSET} is missing: the geo benchmark reads Google's geo targets subset from <repo>/../shared/data/geo.`,
  );
  process.exit(2);
}

/** What a person types into the modal, step by step. */
const QUERIES: GeoParamsInput[] = [
  { targetType: 'Country' },
  { targetType: 'Country', canonicalName: 'uni' },
  { targetType: 'City', countryCode: 'DE' },
  ...['b', 'be', 'ber', 'berl', 'berlin'].map((text) => ({
    targetType: 'City' as const,
    countryCode: 'DE',
    canonicalName: text,
  })),
  { targetType: 'City', countryCode: 'DE', canonicalName: 'burg' },
  { targetType: 'City', countryCode: 'DE', canonicalName: 'bavaria' },
  { targetType: 'City', countryCode: 'DE', parentId: '20226' },
  { targetType: 'City', countryCode: 'US' },
  { targetType: 'City', countryCode: 'US', canonicalName: 'new' },
  { targetType: 'City', countryCode: 'US', canonicalName: 'spring' },
  { targetType: 'City', countryCode: 'US', canonicalName: 'california' },
  { targetType: 'City', countryCode: 'FR', canonicalName: 'saint' },
  { targetType: 'Postal Code', countryCode: 'US' },
  ...['9', '94', '941', 'ca'].map((text) => ({
    targetType: 'Postal Code' as const,
    countryCode: 'US',
    canonicalName: text,
  })),
  { targetType: 'County', countryCode: 'GB', canonicalName: 'shire' },
  { targetType: 'State', countryCode: 'US', canonicalName: 'new' },
  { targetType: 'Region', countryCode: 'FR' },
  { targetType: 'Neighborhood', countryCode: 'US', canonicalName: 'park' },
  { targetType: 'Municipality', countryCode: 'DE', canonicalName: '10' },
  { targetType: 'City', countryCode: 'DE', canonicalName: 'zzqx' },
];

const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;

/** The target types the copies of the subset's rows take, copy by copy. */
const COPY_TYPES: Record<string, string>[] = [
  {},
  {
    Country: 'Territory',
    State: 'Province',
    Region: 'Department',
    County: 'District',
    City: 'Neighborhood',
    'Postal Code': 'Municipality',
  },
  {
    Country: 'Union Territory',
    State: 'Prefecture',
    Region: 'Governorate',
    County: 'Canton',
    City: 'City Region',
    'Postal Code': 'Borough',
  },
];

/** A full-size file in Google's quoting: the subset, then copies under new IDs and names. */
function writeFullFile(dir: string): string {
  const rows = parseGeoCsv(readFileSync(SUBSET), 'subset');
  const lines = ['Criteria ID,Name,Canonical Name,Parent ID,Country Code,Target Type,Status'];
  for (let i = 0; i < FULL_ROWS; i += 1) {
    const row = rows[i % rows.length]!;
    const copy = Math.floor(i / rows.length);
    const name = copy === 0 ? row.name : `${row.name} ${copy + 1}`;
    const rest = row.canonicalName.slice(row.canonicalName.indexOf(',') + 1);
    const canonical = row.canonicalName.includes(',') ? `${name},${rest}` : name;
    lines.push(
      [
        quote(String(row.criteriaId + copy * 100_000_000)),
        quote(name),
        quote(canonical),
        quote(row.parentId === null ? '' : String(row.parentId)),
        quote(row.countryCode),
        quote(COPY_TYPES[copy % COPY_TYPES.length]![row.targetType] ?? row.targetType),
        row.status || 'Active',
      ].join(','),
    );
  }
  const file = join(dir, 'geotargets-2026-10-06.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function openBenchDb(
  kind: DbKind,
  dir: string,
): Promise<{ db: Db; stop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = createPgliteDb(await openPglite({ dataDir: join(dir, 'pglite') }));
    await runMigrations(db);
    return { db, stop: () => db.close() };
  }
  const server = await startEmbeddedPostgres(join(dir, 'postgres'));
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query('create database adloom_bench');
  await admin.end();
  const db = createPgDb(createPgPool(server.urlFor('adloom_bench')));
  await runMigrations(db);
  return {
    db,
    stop: async () => {
      await db.close();
      await server.stop();
    },
  };
}

const round = (x: number) => Math.round(x * 10) / 10;
const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

interface Figures {
  subsetLoadSeconds: number;
  fullRows: number;
  fullLoadSeconds: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchMaxMs: number;
  slowestQuery: string;
  slowestQueryP50Ms: number;
}

async function benchOne(kind: DbKind, fullFile: string, dir: string): Promise<Figures> {
  const { db, stop } = await openBenchDb(kind, dir);
  try {
    const subset = await loadGeoTargets(db, SUBSET);
    const full = await loadGeoTargets(db, fullFile);
    const config = loadConfig({
      NODE_ENV: 'test',
      JWT_SECRET: 'geo-bench-secret-geo-bench-secret-0123456789',
      DATA_DIR: join(dir, `${kind}-data`),
      LOG_LEVEL: 'warn',
      WEB_DIST: join(dir, 'no-web'),
    });
    const app = await buildApp({ config, db });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const password = 'correct horse battery';
      const register = await fetch(`${base}${API.users.register}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'geo-bench@example.com',
          password,
          'password-confirm': password,
          recaptchaToken: '',
        }),
      });
      const { token } = (await register.json()) as { token: string };
      const searchOnce = async (params: GeoParamsInput) => {
        const startedAt = performance.now();
        const response = await fetch(`${base}${API.geoSearch}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ params, limit: 20 }),
        });
        await response.json();
        if (response.status !== 200) throw new Error(`search answered ${response.status}`);
        return performance.now() - startedAt;
      };
      for (const params of QUERIES) await searchOnce(params);
      const all: number[] = [];
      const perQuery = QUERIES.map(() => [] as number[]);
      for (let r = 0; r < ROUNDS; r += 1) {
        for (const [i, params] of QUERIES.entries()) {
          const ms = await searchOnce(params);
          all.push(ms);
          perQuery[i]!.push(ms);
        }
      }
      const medians = perQuery.map((times) => percentile(times, 50));
      const slowest = medians.indexOf(Math.max(...medians));
      return {
        subsetLoadSeconds: round(subset.seconds),
        fullRows: full.release.rows,
        fullLoadSeconds: round(full.seconds),
        searchP50Ms: round(percentile(all, 50)),
        searchP95Ms: round(percentile(all, 95)),
        searchMaxMs: round(Math.max(...all)),
        slowestQuery: JSON.stringify(QUERIES[slowest]),
        slowestQueryP50Ms: round(medians[slowest]!),
      };
    } finally {
      await app.close();
    }
  } finally {
    await stop();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'adloom-geo-bench-'));
const results: Partial<Record<DbKind, Figures>> = {};
try {
  const fullFile = writeFullFile(dir);
  for (const kind of kinds) {
    console.error(`geo bench: ${kind}...`);
    results[kind] = await benchOne(kind, fullFile, dir);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const rows: [string, (f: Figures) => string][] = [
  ['load the subset (98,790 rows)', (f) => `${f.subsetLoadSeconds} s`],
  ['load a full-size file', (f) => `${f.fullLoadSeconds} s (${f.fullRows} rows)`],
  [
    `search, limit 20 (${QUERIES.length} queries x ${ROUNDS})`,
    (f) => `p50 ${f.searchP50Ms} ms, p95 ${f.searchP95Ms} ms, max ${f.searchMaxMs} ms`,
  ],
  ['slowest query (its p50)', (f) => `${f.slowestQueryP50Ms} ms ${f.slowestQuery}`],
];
const widths = [40, ...kinds.map(() => 70)];
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 20)).join(' | ');
console.log(line(['measure', ...kinds]));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const [label, show] of rows)
  console.log(line([label, ...kinds.map((k) => show(results[k]!))]));
console.log(JSON.stringify({ rounds: ROUNDS, queries: QUERIES.length, results }));
