import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  API,
  BUILD_META_HEADER,
  buildsPath,
  clientPath,
  encodeBuildMetaHeader,
  latestBuildPath,
} from '@adloom/contract';
import {
  createPgDb,
  createPgPool,
  createPgliteDb,
  initPgliteDataDir,
  openPglite,
  runMigrations,
  type Db,
} from '../src/db/index.ts';
import { acquireDataDirLock } from '../src/lockfile.ts';
import { BACKUP_SOCKET_NAME, serveBackups } from '../src/services/backup.ts';
import { listTables } from '../src/services/db-transfer.ts';
import { loadGeoTargets } from '../src/services/geo.ts';
import { geoFixtureFile } from './geo-data.ts';
import { TEST_PASSWORD, startTestApp, testDbKind, type TestApp } from './helpers.ts';
import { startServer } from './server-process.ts';

/** Runs one of the data commands (src/data-command.ts, what `npm run backup` ... run). */
async function runDataCommand(
  env: Record<string, string>,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const started = startServer(env, ['src/data-command.ts', ...args]);
  const code = await started.exited;
  return { code, output: started.output() };
}

/**
 * An embedded database in `dataDir/pglite`: started from the run's migrated snapshot, or (runs on
 * PostgreSQL have none) made by initdb.
 */
async function openEmbedded(dataDir: string): Promise<Db> {
  const folder = join(dataDir, 'pglite');
  const snapshot = inject('adloomPgliteSnapshot');
  if (!existsSync(join(folder, 'PG_VERSION')) && !snapshot) await initPgliteDataDir(folder);
  const pglite = await openPglite({
    dataDir: folder,
    ...(existsSync(join(folder, 'PG_VERSION'))
      ? {}
      : { loadDataDir: new Blob([readFileSync(snapshot)]) }),
  });
  const db = createPgliteDb(pglite);
  await runMigrations(db);
  return db;
}

const ROW = { root: 'nike', mod: 'shoes', var1: '', var2: '', var3: '', url: 'https://x.test/a' };

/** A workspace with every kind of data: a user, a client, a feed's rows, templates, a list. */
async function fillWorkspace(t: TestApp): Promise<{ email: string; client: string }> {
  const { email, token } = await t.signUp();
  const client = `Client ${randomUUID().slice(0, 8)}`;
  const post = async (path: string, body: unknown) => {
    const response = await t.request('POST', path, { token, body });
    if (response.status >= 300) throw new Error(`${path}: ${response.status}`);
  };
  await post(API.app.clients, { name: client });
  const rows = Array.from({ length: 500 }, (_, index) => ({ ...ROW, root: `root ${index}` }));
  await post(API.app.feeds, { name: client, feeds: [{ name: 'brands', rows }] });
  await post(API.app.saveRsaTemplates, {
    name: client,
    templates: [
      {
        name: 'RSA',
        templates: [
          {
            headlines: [{ text: '{root}', pos: 1 }],
            descriptions: [{ text: 'Buy', pos: 0 }],
            paths: ['a', 'b'],
            labels: [],
          },
        ],
      },
    ],
  });
  await post(API.app.lists, { feeds: [{ name: 'colours', dataType: 'list', rows: [ROW] }] });
  // A build record (bytea): random bytes, so every byte value crosses the export.
  const clientId = (await t.request('GET', clientPath(client), { token })).body.id as string;
  const build = await t.app.inject({
    method: 'POST',
    url: buildsPath(clientId),
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/gzip',
      [BUILD_META_HEADER]: encodeBuildMetaHeader({
        feedName: 'brands',
        templateNames: ['RSA'],
        templateCount: 1,
        label: 'adloom',
        counts: { 'responsive-search-ad': 500 },
      }),
    },
    payload: gzipSync(randomBytes(100_000), { level: 0 }),
  });
  if (build.statusCode !== 201) throw new Error(`build: ${build.statusCode}`);
  return { email, client };
}

/** What the person sees after signing in with the password: clients, the client's bundle, lists. */
async function readWorkspace(t: TestApp, email: string, client: string) {
  const login = await t.request('POST', API.users.login, {
    body: { email, password: TEST_PASSWORD },
  });
  expect(login.status).toBe(200);
  const token = login.body.token as string;
  const read = async (path: string) => {
    const response = await t.request('GET', path, { token });
    expect(response.status).toBe(200);
    return response.body as unknown;
  };
  const bundle = (await read(clientPath(client))) as { id: string };
  const latest = await t.app.inject({
    method: 'GET',
    url: latestBuildPath(bundle.id),
    headers: { authorization: `Bearer ${token}` },
  });
  expect(latest.statusCode).toBe(200);
  return {
    user: login.body.user as unknown,
    clients: await read(API.app.clients),
    bundle,
    lists: await read(API.app.lists),
    builds: await read(buildsPath(bundle.id)),
    latestBuild: latest.rawPayload.toString('base64'),
  };
}

/** Rows per table, for every table of the database. */
async function countRows(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await listTables(db)) {
    const [row] = await db.query<{ count: number }>(
      `select count(*)::int as count from "${table.name}"`,
    );
    counts[table.name] = row?.count ?? 0;
  }
  return counts;
}

describe.skipIf(testDbKind() === 'postgres')(
  'backup and restore of DATA_DIR',
  { timeout: 300_000 },
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adloom-backup-'));
    const env = { DATA_DIR: dataDir };
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('round-trips a workspace through a backup taken while a server holds DATA_DIR', async () => {
      // This process plays the server: it holds DATA_DIR's lock and answers on its backup socket,
      // as main.ts does.
      const releaseLock = acquireDataDirLock(dataDir);
      const t = await startTestApp({ dataDir }, { db: await openEmbedded(dataDir) });
      const stopServing = await serveBackups(dataDir, t.db, t.app.log);
      const { email, client } = await fillWorkspace(t);
      const before = await readWorkspace(t, email, client);
      const backupFile = join(dataDir, 'backup.zip');

      const backup = await runDataCommand(env, ['backup', '--out', backupFile]);
      expect(backup.output).toContain(`Backup of ${dataDir} written to ${backupFile}`);
      expect(backup.code).toBe(0);
      expect(statSync(backupFile).mode & 0o777).toBe(0o600);

      // Changed after the backup: the restore brings the old state back.
      const token = (
        await t.request('POST', API.users.login, {
          body: { email, password: TEST_PASSWORD },
        })
      ).body.token as string;
      expect(
        (await t.request('DELETE', API.app.clients, { token, body: { name: client } })).status,
      ).toBe(200);

      const refused = await runDataCommand(env, ['restore', backupFile]);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(
        `Another Adloom server (pid ${process.pid}) is already using DATA_DIR`,
      );
      expect(refused.output).toContain('stop the server first');

      stopServing();
      expect(existsSync(join(dataDir, BACKUP_SOCKET_NAME))).toBe(false);
      await t.app.close();
      await t.db.close();
      releaseLock();

      const restored = await runDataCommand(env, ['restore', backupFile]);
      expect(restored.output).toContain(`Restored ${backupFile} into ${dataDir}`);
      expect(restored.code).toBe(0);
      const kept = readdirSync(dataDir).filter((name) => name.startsWith('before-restore-'));
      expect(kept).toHaveLength(1);
      // The replaced data is kept whole: its database holds the deletion.
      expect(existsSync(join(dataDir, kept[0]!, 'pglite', 'PG_VERSION'))).toBe(true);

      const after = await startTestApp({ dataDir }, { db: await openEmbedded(dataDir) });
      try {
        expect(await readWorkspace(after, email, client)).toEqual(before);
      } finally {
        await after.close();
      }
    });

    it('refuses a file that is not a backup and leaves the data as it was', async () => {
      const result = await runDataCommand(env, [
        'restore',
        geoFixtureFile('geotargets-raw-sample.csv'),
      ]);
      expect(result.code).toBe(1);
      expect(result.output).toContain('this is not an Adloom backup');
      expect(readdirSync(dataDir).filter((name) => name.includes('restoring'))).toEqual([]);
    });
  },
);

describe('moving the embedded database to another database', { timeout: 300_000 }, () => {
  const workDir = mkdtempSync(join(tmpdir(), 'adloom-move-'));
  const sourceDir = join(workDir, 'source');
  const exportFile = join(workDir, 'export.jsonl.gz');
  // The target: a fresh PostgreSQL database on the run's server, or (embedded runs) a second DATA_DIR.
  let targetEnv: Record<string, string>;
  let openTarget: () => Promise<Db>;
  let dropTarget = async () => {};
  beforeAll(async () => {
    if (testDbKind() === 'postgres') {
      const adminUrl = inject('adloomPostgresUrl');
      const name = `adloom_move_${process.pid}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      targetEnv = { DATABASE_URL: url.toString(), DATA_DIR: join(workDir, 'target') };
      openTarget = async () => createPgDb(createPgPool(url.toString()));
      dropTarget = async () => {
        const dropper = new pg.Client({ connectionString: adminUrl });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      };
    } else {
      targetEnv = { DATA_DIR: join(workDir, 'target') };
      openTarget = () => openEmbedded(join(workDir, 'target'));
    }
  });
  afterAll(async () => {
    await dropTarget();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('carries every table, and the person signs in and reads the same workspace', async () => {
    const source = await startTestApp(
      { dataDir: sourceDir },
      { db: await openEmbedded(sourceDir) },
    );
    const { email, client } = await fillWorkspace(source);
    await loadGeoTargets(source.db, geoFixtureFile('geotargets-raw-sample.csv'));
    const before = await readWorkspace(source, email, client);
    // The sign-in above counted an attempt and logged nothing out: log one session out too.
    const token = (
      await source.request('POST', API.users.login, {
        body: { email, password: TEST_PASSWORD },
      })
    ).body.token as string;
    await source.request('POST', API.users.logout, { token });
    const sourceCounts = await countRows(source.db);
    await source.app.close();
    await source.db.close();

    const exported = await runDataCommand({ DATA_DIR: sourceDir }, ['export', exportFile]);
    expect(exported.output).toMatch(/Exported \d+ tables \(\d+ rows\) to /);
    expect(exported.code).toBe(0);

    const imported = await runDataCommand(targetEnv, ['import', exportFile]);
    expect(imported.output).toContain('Imported');
    expect(imported.code).toBe(0);

    const target = await startTestApp({ dataDir: targetEnv.DATA_DIR! }, { db: await openTarget() });
    try {
      const targetCounts = await countRows(target.db);
      // Every table with rows in the source: users, clients, feeds, templates, lists, attempts,
      // revoked sessions, geo targets; the migrations the same.
      for (const table of [
        'users',
        'clients',
        'feeds',
        'templates',
        'list_sets',
        'attempts',
        'revoked_sessions',
        'geo_targets',
        'geo_release',
        'builds',
      ])
        expect(sourceCounts[table], table).toBeGreaterThan(0);
      expect(targetCounts).toEqual(sourceCounts);
      expect(await readWorkspace(target, email, client)).toEqual(before);
      // A new attempt row gets an id past the imported ones (the sequence moved on): a wrong
      // password answers 404, not a 500 from a duplicate id.
      const wrong = await target.request('POST', API.users.login, {
        body: { email, password: 'not the password' },
      });
      expect(wrong.status).toBe(404);
    } finally {
      await target.app.close();
      await target.db.close();
    }

    const again = await runDataCommand(targetEnv, ['import', exportFile]);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(
      /the target database already holds data \(.*users.*\): import into an empty database, or pass --replace/,
    );
    const replaced = await runDataCommand(targetEnv, ['import', exportFile, '--replace']);
    expect(replaced.code).toBe(0);
    const check = await openTarget();
    try {
      expect(await countRows(check)).toEqual(sourceCounts);
    } finally {
      await check.close();
    }
  });
});
