import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Where the harness is built. */
export const HARNESS_DIR = join(REPO_ROOT, '.tmp', 'grid-harness');

/** Builds the feed grid harness with Vite into .tmp/grid-harness. */
export function buildHarness(): void {
  const result = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'apps/web/src/features/feed-grid/harness/vite.config.ts'],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (result.status !== 0 || !existsSync(join(HARNESS_DIR, 'index.html')))
    throw new Error('The grid harness did not build');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Serves the built harness on a free port of 127.0.0.1. */
export async function startHarnessServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(HARNESS_DIR, path === '/' ? 'index.html' : path));
    if (!file.startsWith(HARNESS_DIR) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end('Not found');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
