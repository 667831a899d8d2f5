import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPglite } from '../src/db/index.ts';
import { parseLock } from '../src/lockfile.ts';
import { geoFixtureFile } from './geo-data.ts';
import { createPostgresDatabase, testDbKind } from './helpers.ts';
import { startServer, waitForOutput } from './server-process.ts';

/** Every file and folder under `root` (itself included) with its permission bits. */
function listModes(root: string): {
  files: { path: string; mode: number }[];
  dirs: { path: string; mode: number }[];
} {
  const files: { path: string; mode: number }[] = [];
  const dirs: { path: string; mode: number }[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    (stat.isDirectory() ? dirs : files).push({ path, mode: stat.mode & 0o7777 });
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return { files, dirs };
}

// Real server processes (the compiled server: node scripts/run.mjs main) on an embedded database in
// a scratch DATA_DIR.
// Starting PGlite's first initdb takes several seconds on a busy machine: generous time-outs.
describe('the server process', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-main-'));
  const children: ChildProcess[] = [];
  const databaseEnv: Record<string, string> = {};
  const expectedDatabase = testDbKind() === 'postgres' ? 'postgres' : 'embedded';
  beforeAll(async () => {
    if (testDbKind() === 'postgres') {
      // A fresh database on the run's PostgreSQL server, reached through DATABASE_URL.
      const database = await createPostgresDatabase(
        inject('adloomPostgresUrl'),
        `adloom_main_${process.pid}`,
      );
      databaseEnv.DATABASE_URL = database.url;
    } else {
      // Start from the run's migrated snapshot: a real PGlite folder without paying for initdb again.
      mkdirSync(dataDir, { recursive: true });
      const pglite = await openPglite({
        dataDir: join(dataDir, 'pglite'),
        loadDataDir: new Blob([readFileSync(inject('adloomPgliteSnapshot'))]),
      });
      await pglite.close();
    }
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves, refuses a second server on the same DATA_DIR, and shuts down cleanly', async () => {
    const first = startServer({ DATA_DIR: dataDir, ...databaseEnv });
    children.push(first.child);
    const [, url] = await waitForOutput(
      first,
      new RegExp(`Adloom is listening on (http://[^\\s]+) \\(database: ${expectedDatabase}`),
    );
    expect(first.output()).toMatch(/JWT_SECRET is not set: using a random secret kept in/);
    const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(parseLock(readFileSync(join(dataDir, 'server.lock'), 'utf8')).pid).toBe(first.child.pid);

    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toEqual({ ok: true, database: expectedDatabase });
    const page = await fetch(`${url}/lists`);
    expect(await page.text()).toContain('npm run build');

    const second = startServer({ DATA_DIR: dataDir, ...databaseEnv });
    children.push(second.child);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `Another Adloom server (pid ${first.child.pid}) is already using DATA_DIR ${dataDir}`,
    );
    // The first server is unharmed.
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/SIGTERM: shutting down/);
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
    // The secret stays for the next start, so sessions survive restarts.
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(secret);
  });

  it('keeps a fresh DATA_DIR private: folders 0700, files 0600, mail in the outbox', async () => {
    const freshDir = join(dataDir, 'fresh');
    const started = startServer({ DATA_DIR: freshDir, ...databaseEnv });
    children.push(started.child);
    const [, url] = await waitForOutput(started, /Adloom is listening on (http:\/\/[^\s]+)/);
    expect(started.output()).toContain(
      `SMTP_URL is not set: mails (password-reset links) are written to ${join(freshDir, 'outbox')}`,
    );
    const email = 'modes@example.com';
    const password = 'correct horse battery';
    const register = await fetch(`${url}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, 'password-confirm': password, recaptchaToken: '' }),
    });
    expect(register.status).toBe(201);
    const forgot = await fetch(`${url}/api/users/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(forgot.status).toBe(200);
    await waitForOutput(started, /mail written to \S+\.eml/);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);

    const modes = listModes(freshDir);
    expect(modes.files.length).toBeGreaterThan(testDbKind() === 'postgres' ? 1 : 100);
    expect(modes.files.filter((entry) => entry.mode !== 0o600)).toEqual([]);
    expect(modes.dirs.filter((entry) => entry.mode !== 0o700)).toEqual([]);
    expect(modes.files.some((entry) => entry.path.startsWith(join(freshDir, 'outbox')))).toBe(true);
    // Nothing secret reached the log: the mail's link is in the file only.
    expect(started.output()).not.toMatch(/\/reset\/[A-Za-z0-9_-]{20}/);
    expect(started.output()).not.toContain('$argon2');
  });

  it('makes an old world-readable DATA_DIR private when it starts', async () => {
    // The first test's folder, opened up the way older servers left it.
    for (const entry of [...listModes(dataDir).files, ...listModes(dataDir).dirs])
      chmodSync(entry.path, statSync(entry.path).isDirectory() ? 0o777 : 0o666);
    const started = startServer({ DATA_DIR: dataDir, ...databaseEnv });
    children.push(started.child);
    await waitForOutput(started, /Adloom is listening on/);
    expect(started.output()).toMatch(
      /DATA_DIR \S+ was readable by others: \d+ files and folders made private/,
    );
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    const modes = listModes(dataDir);
    expect(modes.files.filter((entry) => entry.mode !== 0o600)).toEqual([]);
    expect(modes.dirs.filter((entry) => entry.mode !== 0o700)).toEqual([]);
  });

  it('loads GEO_TARGETS_FILE before it listens; geo:load refuses a DATA_DIR a server holds', async () => {
    const geoDir = join(dataDir, 'geo-files');
    mkdirSync(geoDir);
    const first = join(geoDir, 'geotargets-2024-08-13.csv');
    const newer = join(geoDir, 'geotargets-2024-09-01.csv');
    copyFileSync(geoFixtureFile('geotargets-raw-sample.csv'), first);
    copyFileSync(geoFixtureFile('geotargets-raw-sample.csv'), newer);
    const env = { DATA_DIR: dataDir, ...databaseEnv };
    const server = startServer({ ...env, GEO_TARGETS_FILE: first });
    children.push(server.child);
    await waitForOutput(server, /Adloom is listening on/);
    expect(server.output()).toMatch(
      /GEO_TARGETS_FILE: Loaded Google's geo targets of 2024-08-13 from geotargets-2024-08-13\.csv: 25 rows in [\d.]+ s[^]*Adloom is listening on/,
    );

    const whileServing = startServer(env, ['src/geo-load.ts', newer]);
    children.push(whileServing.child);
    if (testDbKind() === 'postgres') {
      // PostgreSQL is shared: the load runs beside the server.
      expect(await whileServing.exited).toBe(0);
      expect(whileServing.output()).toMatch(/Loaded Google's geo targets of 2024-09-01 .*25 rows/);
    } else {
      expect(await whileServing.exited).toBe(1);
      expect(whileServing.output()).toContain(
        `A running server holds the embedded database: stop it and run this again, or set GEO_TARGETS_FILE=${newer} and restart the server`,
      );
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    if (testDbKind() !== 'postgres') {
      const stopped = startServer(env, ['src/geo-load.ts', newer]);
      children.push(stopped.child);
      expect(await stopped.exited).toBe(0);
      expect(stopped.output()).toMatch(/Loaded Google's geo targets of 2024-09-01 .*25 rows/);
    }
    const again = startServer({ ...env, GEO_TARGETS_FILE: first });
    children.push(again.child);
    await waitForOutput(again, /Adloom is listening on/);
    expect(again.output()).toMatch(
      /the geo targets of 2024-09-01 are loaded; \S+geotargets-2024-08-13\.csv \(2024-08-13\) is not newer/,
    );
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('refuses to start in production without SMTP_URL and APP_URL, naming them', async () => {
    const started = startServer({
      DATA_DIR: join(dataDir, 'prod-mail'),
      NODE_ENV: 'production',
      JWT_SECRET: 'k3J9x-Qw7zP2m_Lr5Tn8Vb1Yc4Hd6Fg0Se',
    });
    children.push(started.child);
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(
      /refusing to start: SMTP_URL is not set: .*; APP_URL is not set: /,
    );
  });

  it('refuses to start in production without a proper JWT_SECRET', async () => {
    const runs = [undefined, 'changeme', 'short-secret'].map((secret, index) => {
      const started = startServer({
        DATA_DIR: join(dataDir, `prod-${index}`),
        NODE_ENV: 'production',
        ...(secret ? { JWT_SECRET: secret } : {}),
      });
      children.push(started.child);
      return started;
    });
    for (const started of runs) {
      expect(await started.exited).toBe(1);
      expect(started.output()).toMatch(
        /refusing to start: JWT_SECRET (is not set|is shorter than 32 characters|is a well-known default)/,
      );
    }
  });
});
