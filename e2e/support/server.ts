import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeLogFindings, findSecretsInLog } from '../../apps/server/test/log-scan.ts';

/** The repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The built web app the server serves; ADLOOM_E2E_DIST points the journeys at another build. */
export const WEB_DIST = process.env.ADLOOM_E2E_DIST
  ? resolve(process.env.ADLOOM_E2E_DIST)
  : join(REPO_ROOT, 'apps/web/dist');

/** Where every server's log is kept (ADLOOM_E2E_LOGS, default .tmp/e2e-logs). */
export const E2E_LOG_DIR = process.env.ADLOOM_E2E_LOGS
  ? resolve(process.env.ADLOOM_E2E_LOGS)
  : join(REPO_ROOT, '.tmp/e2e-logs');

/** A running Adloom server. */
export interface RunningServer {
  url: string;
  dataDir: string;
  /** Everything the server printed, for failure reports. */
  output(): string;
  /** The file its log is written to. */
  logFile: string;
  /** Stops it, then fails when its log holds a password hash, a token or a reset link. */
  stop(): Promise<void>;
}

/**
 * Names the data folder each server starts from a copy of (set by the global setup): one a server
 * of this build made and left, so a journey's server restarts on its data (about 1 s) instead of
 * creating the embedded database (about 4 s). A fresh DATA_DIR's first start is tested by the
 * server's own suite (main.test.ts).
 */
const DATA_TEMPLATE_ENV = 'ADLOOM_E2E_DATA_TEMPLATE';

/**
 * Makes the data folder the journeys' servers start from (a server's first start, then its
 * shutdown) and hands it to the test workers; returns a function that removes it.
 */
export async function prepareDataTemplate(): Promise<() => void> {
  const server = await startServer({ keepDataDir: true });
  await server.stop();
  process.env[DATA_TEMPLATE_ENV] = server.dataDir;
  return () => {
    delete process.env[DATA_TEMPLATE_ENV];
    rmSync(server.dataDir, { recursive: true, force: true });
  };
}

/** A free TCP port on loopback. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Fails with a clear message when the web app has not been built. */
export function assertWebAppBuilt(): void {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `The web app is not built (${WEB_DIST}/index.html is missing). Run \`npm run build -w @adloom/web\` first.`,
    );
  }
}

/**
 * Starts the real server as it ships (`node apps/server/scripts/run.mjs main`: the compiled
 * server, built first when older than its source) on a free port with a fresh data folder,
 * mailing through `smtpUrl`, and waits until /api/health answers.
 */
export async function startServer(
  options: { smtpUrl?: string; env?: Record<string, string>; keepDataDir?: boolean } = {},
): Promise<RunningServer> {
  assertWebAppBuilt();
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'adloom-e2e-'));
  const template = process.env[DATA_TEMPLATE_ENV];
  if (template) cpSync(template, dataDir, { recursive: true });
  mkdirSync(E2E_LOG_DIR, { recursive: true });
  const logFile = join(
    E2E_LOG_DIR,
    `server-${new Date().toISOString().replace(/[:.]/g, '-')}-${port}.log`,
  );
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['apps/server/scripts/run.mjs', 'main'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: url,
      WEB_DIST,
      JWT_SECRET: randomBytes(32).toString('hex'),
      // Every journey of a worker signs up from 127.0.0.1 on this one server.
      REGISTER_LIMIT_PER_IP: '100000',
      WAITING_LIST_LIMIT_PER_IP: '100000',
      FEEDBACK_LIMIT_PER_USER: '100000',
      ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    appendFileSync(logFile, chunk);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exitCode: number | null = null;
  // Never leave a server behind when this process ends without calling stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', (code) => {
    exitCode = code ?? -1;
    process.off('exit', killOnExit);
  });

  const shutdown = async () => {
    if (exitCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  // Names the line and the kind of secret, never the secret.
  const stop = async () => {
    await shutdown();
    const findings = findSecretsInLog(logFile, output);
    if (findings.length > 0) throw new Error(describeLogFindings(findings));
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (exitCode !== null) {
      await shutdown();
      throw new Error(`The server exited with code ${exitCode} before it was ready:\n${output}`);
    }
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return { url, dataDir, output: () => output, logFile, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await shutdown();
  throw new Error(`The server did not answer ${url}/api/health within 90 s:\n${output}`);
}
