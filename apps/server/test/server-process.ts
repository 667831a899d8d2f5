// Real processes of apps/server (the server, or another entry point such as geo-load or the
// data commands) run from their TypeScript with tsx, their output collected.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTestLog } from './helpers.ts';

const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A started process: its output so far, and its exit code once it ends. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the server (or another entry point of apps/server, with its arguments). */
export function startServer(env: Record<string, string>, command = ['src/main.ts']): Started {
  // node --import tsx keeps the server in this pid (the tsx binary runs it in a child process).
  const child = spawn(process.execPath, ['--import', 'tsx', ...command], {
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
  // Its log also goes to the run's log folder, scanned for secrets after the run.
  const log = openTestLog('server');
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      log.close();
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

/** Waits until the process has printed `pattern` (fails when it exits first, or after `timeoutMs`). */
export async function waitForOutput(
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
