import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  // node --import tsx keeps the server in this pid (the tsx binary runs it in a child process).
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      WEB_DIST: join(tmpdir(), 'adloom-no-web'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(
  started: Started,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(started.output());
    if (match) return match;
    if (Date.now() > deadline || started.child.exitCode !== null)
      throw new Error(`no ${pattern} in output:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Real server processes (node --import tsx src/main.ts) on an embedded database in a scratch DATA_DIR.
// Starting PGlite's first initdb takes several seconds on a busy machine: generous time-outs.
describe('the server process', { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-main-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves, refuses a second server on the same DATA_DIR, and shuts down cleanly', async () => {
    const first = startServer({ DATA_DIR: dataDir });
    children.push(first.child);
    const [, url] = await waitForOutput(
      first,
      /Adloom is listening on (http:\/\/[^\s]+) \(database: embedded/,
    );
    expect(first.output()).toMatch(/JWT_SECRET is not set: using a random secret kept in/);
    const secret = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(dataDir, 'server.lock'), 'utf8').trim()).toBe(String(first.child.pid));

    const health = await fetch(`${url}/api/health`);
    expect(await health.json()).toEqual({ ok: true, database: 'embedded' });
    const page = await fetch(`${url}/lists`);
    expect(await page.text()).toContain('npm run build');

    const second = startServer({ DATA_DIR: dataDir });
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

  it('refuses to start in production without a proper JWT_SECRET', async () => {
    for (const secret of [undefined, 'changeme', 'short-secret']) {
      const started = startServer({
        DATA_DIR: join(dataDir, 'prod'),
        NODE_ENV: 'production',
        ...(secret ? { JWT_SECRET: secret } : {}),
      });
      children.push(started.child);
      expect(await started.exited).toBe(1);
      expect(started.output()).toMatch(
        /refusing to start: JWT_SECRET (is not set|is shorter than 32 characters|is a well-known default)/,
      );
    }
  });
});
