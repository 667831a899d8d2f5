import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordItemCount } from './recordStream.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'adloom-record-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER =
  '{"format":"adloom-build","version":3,"created":"","client":"","feed":"","templates":[],"label":"adloom"}\n';

function file(name: string, text: string): string {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
}

describe('the number of items a record file says it holds', () => {
  it("is its end line's", () => {
    const items = `Kkeyword\nP'Shoes,'Nike\nFfinalurl\n${"1,,0AAAAAB,'nike air running shoes,'Broad\n".repeat(3)}`;
    expect(recordItemCount(file('whole.json', `${HEADER}${items}E{"items":3}\n`))).toBe(3);
  });

  it('is 0 for a record cut short or one of version 1', () => {
    expect(recordItemCount(file('cut.json', `${HEADER}Kkeyword\nP'Shoes,'Nike\n1,,0AA`))).toBe(0);
    expect(
      recordItemCount(
        file('v1.json', '{"format":"adloom-build","version":1,"items":[\n],"counts":{}}\n'),
      ),
    ).toBe(0);
  });

  it('is at most one per 16 bytes of the file, whatever a damaged end line says', () => {
    const f = file('damaged.json', `${HEADER}E{"items":900000000}\n`);
    const size = HEADER.length + '{"items":900000000}\n'.length + 1;
    expect(recordItemCount(f)).toBe(Math.floor(size / 16));
  });
});
