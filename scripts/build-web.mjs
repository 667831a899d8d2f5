#!/usr/bin/env node
// `npm start`'s first step: builds the web app (vite build) only when apps/web/dist is missing or
// older than a source file. A production install (npm ci --omit=dev) has no Vite: it starts
// with the dist/ it was given, and says what to do when there is none.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isOlderThanSources } from './sources.cjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps', 'web');
const built = path.join(web, 'dist', 'index.html');
const SOURCES = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(web, 'package.json'),
  path.join(root, 'packages', 'contract', 'src'),
  path.join(root, 'packages', 'engine', 'src'),
];

function hasVite() {
  try {
    createRequire(path.join(web, 'package.json')).resolve('vite');
    return true;
  } catch {
    return false;
  }
}

const isStale = isOlderThanSources(built, SOURCES);
if (!isStale) {
  process.stdout.write('The web app is built and up to date (apps/web/dist).\n');
} else if (!hasVite()) {
  if (existsSync(built)) {
    process.stdout.write(
      'The web app may be older than its source, and Vite is not installed (a production install): starting with apps/web/dist as it is.\n',
    );
  } else {
    process.stderr.write(
      'The web app is not built and Vite is not installed (a production install, npm ci --omit=dev). Build it where the development dependencies are (npm ci && npm run build) and bring apps/web/dist along.\n',
    );
    process.exit(1);
  }
} else {
  const result = spawnSync('npm', ['run', 'build', '-w', '@adloom/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  process.exit(result.status ?? 1);
}
