import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTestLog } from './helpers.ts';

/** apps/server: where the server's entry points are run from. */
const SERVER_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A server process (or another entry point of apps/server) started by a test. */
export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  output: () => string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Where a process's output is copied too (tests: `openTestLog('server')`, scanned for secrets). */
export interface OutputLog {
  write(text: string): void;
  close(): void;
}

/**
 * Runs `command` (a program and its arguments) in apps/server with a small environment
 * (loopback, a free port, info logs, no web app) plus `env`, copying its output to `log`.
 */
export function startServerProcess(
  env: Record<string, string>,
  command: string[],
  log?: OutputLog,
): ServerProcess {
  const child = spawn(command[0]!, command.slice(1), {
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
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    log?.write(chunk.toString());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      log?.close();
      resolve(code);
    }),
  );
  return { child, output: () => output, exited };
}

/** The entry points the compiled server has (scripts/run.mjs), by the source file each is built from. */
const COMPILED_ENTRIES: Record<string, string> = {
  'src/main.ts': 'main',
  'src/geo-load.ts': 'geo-load',
  'src/data-command.ts': 'data',
};

/**
 * Runs an entry point of the server (by its source file, with its arguments) compiled, as it
 * ships: `node scripts/run.mjs ENTRY ...`, which builds dist/ first when it is older than the
 * source. Its output is copied to the run's log folder (scanned for secrets after the run).
 */
export function startServer(env: Record<string, string>, command = ['src/main.ts']): ServerProcess {
  const [source = '', ...args] = command;
  const entry = COMPILED_ENTRIES[source];
  if (!entry) throw new Error(`${source} is not an entry point of the compiled server`);
  return startServerProcess(
    env,
    [process.execPath, join(SERVER_DIR, 'scripts', 'run.mjs'), entry, ...args],
    openTestLog('server'),
  );
}

/** Waits until the process's output matches `pattern`; throws when it exits or time runs out. */
export async function waitForOutput(
  started: ServerProcess,
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

/** A listening server process and its address. */
export interface ListeningServer extends ServerProcess {
  url: string;
}

/**
 * Starts the compiled server as `npm start` runs it (scripts/run.mjs as a program, whose first
 * line sets the memory settings, and which builds dist/ first when it is stale) and waits until
 * it listens.
 */
export async function startCompiledServer(
  env: Record<string, string>,
  log?: OutputLog,
): Promise<ListeningServer> {
  const started = startServerProcess(env, [join(SERVER_DIR, 'scripts', 'run.mjs'), 'main'], log);
  try {
    // A first build and the migrations take a while on a busy machine.
    const [, url] = await waitForOutput(
      started,
      /Adloom is listening on (http:\/\/[^\s]+)/,
      120_000,
    );
    return { ...started, url: url ?? '' };
  } catch (error) {
    started.child.kill('SIGKILL');
    throw error;
  }
}

/** An answer of `callServer`: the status, the parsed JSON (or text) and the headers. */
export interface HttpAnswer {
  status: number;
  // Parsed JSON, or the text when the answer is not JSON. `any` keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
}

/** One request over HTTP to a running server (or proxy) at `base`; objects go as JSON. */
export async function callServer(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return {
    status: response.status,
    body: isJson ? (JSON.parse(text) as unknown) : text,
    headers: response.headers,
  };
}
