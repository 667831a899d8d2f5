import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepDataDirPrivate, makeDataDirPrivate } from './data-dir.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the data folder kept private', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function openFolder(): { dir: string; file: string; sub: string } {
    const dir = mkdtempSync(join(tmpdir(), 'adloom-data-dir-'));
    made.push(dir);
    const sub = join(dir, 'pglite', 'base');
    mkdirSync(sub, { recursive: true });
    const file = join(sub, '16384');
    writeFileSync(file, 'table data');
    for (const path of [dir, join(dir, 'pglite'), sub]) chmodSync(path, 0o777);
    chmodSync(file, 0o666);
    return { dir, file, sub };
  }

  it('makes folders 0700 and files 0600, and counts what it changed', () => {
    const { dir, file, sub } = openFolder();
    expect(makeDataDirPrivate(dir)).toBe(4);
    expect([modeOf(dir), modeOf(sub), modeOf(file)]).toEqual([0o700, 0o700, 0o600]);
    expect(makeDataDirPrivate(dir)).toBe(0);
  });

  it('repairs, while running, a file the database creates world-readable', async () => {
    const { dir, sub } = openFolder();
    makeDataDirPrivate(dir);
    const warnings: string[] = [];
    const stop = keepDataDirPrivate(dir, (message) => warnings.push(message), 20);
    try {
      const segment = join(sub, '16385');
      writeFileSync(segment, 'new rows');
      chmodSync(segment, 0o666);
      await expect.poll(() => modeOf(segment), { timeout: 5_000, interval: 20 }).toBe(0o600);
      expect(warnings).toEqual([]);
    } finally {
      stop();
    }
  });
});
