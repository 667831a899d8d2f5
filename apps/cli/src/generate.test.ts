/**
 * The command's streamed files (ad groups, keywords, negatives, responsive search ads) are the
 * Google Ads Editor format's: their header and cells come from `GOOGLE_ADS_EDITOR.stream`, so a
 * change there shows in every one of them. Runs the generation in this process (the ads made on
 * this thread) with the engine's format, then with a format whose streamed tables differ.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as engine from '@adloom/engine';
import { csvRecordsOfPiece } from './fileTables.ts';
import { commandFileName, runGenerate } from './generate.ts';

/** When set, the format's streamed tables get one more column, this cell in every row. */
const changed = vi.hoisted(() => ({ cell: undefined as string | undefined }));

vi.mock('@adloom/engine', async (importOriginal) => {
  const original = await importOriginal<typeof engine>();
  const editor = original.GOOGLE_ADS_EDITOR;
  return {
    ...original,
    GOOGLE_ADS_EDITOR: {
      ...editor,
      stream(table: engine.ExportStream, context: engine.ExportContext) {
        const file = editor.stream(table, context);
        const cell = changed.cell;
        if (cell === undefined) return file;
        const headers = [...file.headers.map((h) => h.toUpperCase()), 'Market'];
        const end = `,${cell}\r\n`;
        return {
          ...file,
          headers,
          header: original.formatCsvLine(headers),
          addsCells: true,
          row: (cells: string[]) => [...file.row(cells), cell],
          text: (chunk: string) => file.text(chunk).replaceAll('\r\n', end),
        };
      },
    },
  };
});

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures');
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'adloom-generate-'));
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

const STREAMED = {
  'ad-groups.csv': 'ad-groups',
  'keywords.csv': 'keywords',
  'negatives.csv': 'negatives',
  'responsive-search-ads.csv': 'responsive-search-ads',
} as const;

/** Generates the fixtures' search build (with a status column when `withStatus`) into a folder. */
async function generate(name: string, withStatus: boolean): Promise<string> {
  let feed = path.join(fixtures, 'feed.csv');
  if (withStatus) {
    const lines = readFileSync(feed, 'utf8').trimEnd().split('\r\n');
    feed = path.join(tmpRoot, `${name}.csv`);
    writeFileSync(
      feed,
      lines.map((l, i) => `${l},${i === 0 ? 'Status' : i === 1 ? 'paused' : ''}`).join('\r\n'),
    );
  }
  const out = path.join(tmpRoot, name);
  await runGenerate({
    feed,
    campaign: path.join(fixtures, 'campaign.json'),
    rsa: path.join(fixtures, 'rsa.json'),
    legacyAd: path.join(fixtures, 'legacy-ad.json'),
    extensions: [],
    out,
    today: '20261122',
    label: 'Acme, "North"',
  });
  return out;
}

/** A file's records (CSV cells), its BOM checked and left out. */
function records(file: string): string[][] {
  const text = readFileSync(file, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return csvRecordsOfPiece(text.slice(1), true).records;
}

describe("the command's streamed files are the Editor format's", () => {
  for (const withStatus of [false, true]) {
    it(`have the format's header, name and cells (status column: ${withStatus})`, async () => {
      const out = await generate(`plain-${withStatus}`, withStatus);
      for (const [name, kind] of Object.entries(STREAMED)) {
        const stream = engine.GOOGLE_ADS_EDITOR.stream(
          { kind, ...(withStatus ? { status: new engine.BuildStatus() } : {}) },
          { fileName: commandFileName, clientLabel: 'Acme, "North"' },
        );
        expect(stream.name).toBe(name);
        const [header, ...rows] = records(path.join(out, name));
        expect(header).toEqual(stream.headers);
        expect(header!.includes('Status') || header!.includes('Ad Group Status')).toBe(withStatus);
        expect(rows.length).toBeGreaterThan(0);
        const labels = header!.indexOf('Labels');
        for (const row of rows) {
          expect(row).toHaveLength(header!.length);
          // The label where the format says: its own column, or the ads' own labels.
          if (kind !== 'negatives') expect(row[labels]!.split(';')).toContain('Acme, "North"');
        }
      }
    });
  }

  it('show a change of the format in every streamed file', async () => {
    changed.cell = 'EU';
    try {
      for (const withStatus of [false, true]) {
        const out = await generate(`changed-${withStatus}`, withStatus);
        for (const name of Object.keys(STREAMED)) {
          const [header, ...rows] = records(path.join(out, name));
          expect(header!.at(-1)).toBe('Market');
          expect(header![0]).toBe('CAMPAIGN');
          expect(rows.length).toBeGreaterThan(0);
          for (const row of rows) {
            expect(row).toHaveLength(header!.length);
            expect(row.at(-1)).toBe('EU');
          }
        }
      }
    } finally {
      changed.cell = undefined;
    }
  });
});
