import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** The command's entry point, as the package's `bin` names it. */
export const ADLOOM_BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../bin/adloom.js',
);

/** What one run of the command gave. */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `adloom` command through this Node.js with `args` (from `cwd` when given), with
 * Node's `nodeFlags` before it (as the command's first line gives them).
 */
export function runAdloom(
  args: readonly string[],
  cwd?: string,
  nodeFlags: readonly string[] = [],
): CommandRun {
  const r = spawnSync(process.execPath, [...nodeFlags, ADLOOM_BIN, ...args], {
    ...(cwd ? { cwd } : {}),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A fresh temporary folder for one test file, removed after its tests; returns the path of a
 * name inside it.
 */
export function workFolder(prefix: string): (name: string) => string {
  const work = mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  return (name) => path.join(work, name);
}
