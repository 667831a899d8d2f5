/**
 * Measures the server's start-up time (spawn to the first served page) and its idle memory,
 * on a fresh DATA_DIR (first start runs PGlite's initdb) and on a second start of the same one.
 *
 *   cd apps/server && npx tsx scripts/measure-startup.ts             # embedded PGlite
 *   cd apps/server && npx tsx scripts/measure-startup.ts --postgres  # a local PostgreSQL it starts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from '../test/postgres.ts';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const IDLE_SECONDS = 10;

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

async function measure(
  label: string,
  dataDir: string,
  port: number,
  databaseUrl?: string,
): Promise<void> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    },
    stdio: 'ignore',
  });
  let firstPageMs: number;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      if (response.ok) {
        await response.text();
        firstPageMs = performance.now() - startedAt;
        break;
      }
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const pid = child.pid ?? 0;
  const rssAtStart = rssMiB(pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const rssIdle = rssMiB(pid);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  console.log(
    `${label}: first page after ${Math.round(firstPageMs)} ms; RSS ${rssAtStart} MiB when ready, ${rssIdle} MiB after ${IDLE_SECONDS} s idle`,
  );
}

const dataDir = mkdtempSync(join(tmpdir(), 'adloom-measure-'));
const port = 3900 + Math.floor(Math.random() * 90);
try {
  if (process.argv.includes('--postgres')) {
    const postgres = await startEmbeddedPostgres(join(dataDir, 'pg'));
    try {
      await measure('PostgreSQL, first start', join(dataDir, 'app'), port, postgres.adminUrl);
      await measure('PostgreSQL, second start', join(dataDir, 'app'), port, postgres.adminUrl);
    } finally {
      await postgres.stop();
    }
  } else {
    await measure('fresh DATA_DIR (initdb)', dataDir, port);
    await measure('existing DATA_DIR      ', dataDir, port);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
