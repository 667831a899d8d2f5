import { describe, expect, it } from 'vitest';
import {
  canLinkSheet,
  describeAgo,
  describeSheetProgress,
  describeSheetSync,
  describeUnreachable,
  sheetProgressPercent,
  truncateSheetName,
} from './sheetText.ts';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const URL = 'https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOp/edit#gid=0';

describe('truncateSheetName (spec section 9: 32 characters then ...)', () => {
  it.each([
    ['Prices', 'Prices'],
    ['x'.repeat(32), 'x'.repeat(32)],
    ['x'.repeat(33), `${'x'.repeat(32)}...`],
    ['Product feed for the autumn sale 2026 (final)', 'Product feed for the autumn sale...'],
    // Counted in characters, so an emoji is never cut in half.
    [`${'é'.repeat(31)}😀😀`, `${'é'.repeat(31)}😀...`],
  ])('%s', (name, shown) => {
    expect(truncateSheetName(name)).toBe(shown);
  });
});

describe('canLinkSheet (spec section 5: a sheet URL and a choice of data)', () => {
  it.each([
    [URL, 'upload', true],
    [URL, 'download', true],
    ['https://sheets.example.test/spreadsheets/d/1AbCdEfGhIjKlMnOp', 'upload', true],
    [URL, null, false],
    ['', 'upload', false],
    ['https://docs.google.com/document/d/1AbCdEfGhIjKlMnOp/edit', 'upload', false],
    ['https://docs.google.com/spreadsheets/d/short', 'download', false],
    ['docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOp', 'upload', false],
  ] as const)('%s, %s', (url, keep, expected) => {
    expect(canLinkSheet(url, keep)).toBe(expected);
  });
});

describe('describeSheetSync: the link row says when rows last moved, and how many', () => {
  it.each([
    [
      { at: '2026-11-26T11:58:00.000Z', direction: 'read', rows: 1234 },
      'Last read from the sheet 2 min ago · 1,234 rows',
    ],
    [
      { at: '2026-11-26T11:59:30.000Z', direction: 'written', rows: 1 },
      'Last written to the sheet just now · 1 row',
    ],
    [
      { at: '2026-11-26T09:00:00.000Z', direction: 'kept', rows: 40 },
      'Not read from the sheet yet · 40 rows kept from the feed 3 h ago',
    ],
    [
      { at: '2026-11-20T09:00:00.000Z', direction: 'read', rows: 100000 },
      'Last read from the sheet on Nov 20, 2026 · 100,000 rows',
    ],
  ] as const)('%o', (sync, text) => {
    expect(describeSheetSync(sync, NOW)).toBe(text);
  });

  it('says so when nothing was read yet', () => {
    expect(describeSheetSync(undefined, NOW)).toBe('Not read from the sheet yet');
  });

  it('never says a time in the future', () => {
    expect(describeAgo('2026-11-26T12:05:00.000Z', NOW)).toBe('just now');
  });
});

describe('describeUnreachable: whose rows show while the sheet cannot be read', () => {
  it('names the read or write the rows come from', () => {
    const read = describeUnreachable({
      at: '2026-11-20T09:00:00.000Z',
      direction: 'read',
      rows: 3,
    });
    expect(read).toMatch(/^Showing the rows last read from the sheet on Nov 20, 2026, /);
    expect(read).toMatch(/: the sheet could not be reached\.$/);
    expect(
      describeUnreachable({ at: '2026-11-20T09:00:00.000Z', direction: 'written', rows: 3 }),
    ).toMatch(/^Showing the rows last written to the sheet on Nov 20, 2026/);
  });

  it("says the rows are the feed's own before any sync", () => {
    const own = "Showing the feed's own rows: the sheet could not be reached.";
    expect(describeUnreachable(undefined)).toBe(own);
    expect(
      describeUnreachable({ at: '2026-11-20T09:00:00.000Z', direction: 'kept', rows: 3 }),
    ).toBe(own);
  });
});

describe('describeSheetProgress', () => {
  it.each([
    [
      'download',
      { phase: 'reading', done: 40000, total: 100000 },
      'Downloading from Sheets: 40,000 of 100,000 rows',
      40,
    ],
    [
      'upload',
      { phase: 'reading', done: 0, total: 2500 },
      'Checking the sheet: 0 of 2,500 rows',
      0,
    ],
    [
      'upload',
      { phase: 'writing', done: 20000, total: 30000 },
      'Uploading to Sheets: 20,000 of 30,000 rows',
      67,
    ],
    ['upload', { phase: 'done', done: 1, total: 1 }, 'Uploading to Sheets: 1 of 1 row', 100],
    ['download', { phase: 'reading', done: 0, total: 0 }, 'Downloading from Sheets…', null],
    ['upload', null, 'Uploading to Sheets…', null],
  ] as const)('%s %o', (direction, progress, text, percent) => {
    expect(describeSheetProgress(direction, progress)).toBe(text);
    expect(sheetProgressPercent(progress)).toBe(percent);
  });
});
