import { describe, expect, it } from 'vitest';
import { FEED_COLUMNS, newIdentifiedFeedCells, type Feed, type FeedRow } from '@adloom/engine';
import { draftFeeds, joinDraft, splitDraft, type FeedSetDraft } from './drafts.ts';
import { createMemoryDraftStorage } from '../../state/revisionedSet/index.ts';
import { packRows, RowPacker, rowObjectColumns, unpackRows } from './packedRows.ts';

function row(id: string, cells: Partial<Omit<FeedRow, 'id'>> = {}): FeedRow {
  return { ...newIdentifiedFeedCells(id), ...cells };
}

const AWKWARD: FeedRow[] = [
  row('a', {
    root: 'tab\there',
    mod: 'new\nline',
    var1: 'cr\r\nlf',
    url: 'https://x.test/?a=1&b=2',
  }),
  row(''),
  row('emoji-😀', { root: '😀👍🏽', mod: '🇫🇷', var2: 'é' }),
  row('sep', { root: '\u0000\u001f\u001e|,;"', var3: '\\', url: '"quoted"' }),
  row('x'.repeat(70_000), { url: 'u'.repeat(2048) }),
  row('blank-again'),
  row('last', { root: ' ', var1: '\ud83d' }),
];

describe('packed rows', () => {
  it('gives back awkward cells and ids exactly, across blocks', () => {
    for (const blockSize of [1, 2, 3, 100]) {
      const packer = new RowPacker(rowObjectColumns(AWKWARD), blockSize);
      packer.step();
      const packed = structuredClone(packer.result);
      expect(unpackRows(packed)).toEqual(AWKWARD);
    }
  });

  it('packs no rows', () => {
    expect(unpackRows(packRows(rowObjectColumns([])))).toEqual([]);
  });

  it('keeps the cells of each block as one string per field', () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(`r${i}`, { root: `root ${i}` }));
    const packer = new RowPacker(rowObjectColumns(rows), 2);
    packer.step();
    const packed = packer.result;
    expect(packed.blockRows).toEqual([2, 2, 1]);
    expect(packed.text[1]).toEqual(['root 0root 1', 'root 2root 3', 'root 4']);
    expect([...packed.lengths[1]!]).toEqual([6, 6, 6, 6, 6]);
  });

  it('packs in steps that stop at the deadline', () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(`r${i}`, { mod: String(i) }));
    const packer = new RowPacker(rowObjectColumns(rows), 3);
    let clock = 0;
    const now = () => (clock += 1);
    expect(packer.step(1, now)).toBe(false);
    expect(packer.isDone).toBe(false);
    expect(() => packer.result).toThrow();
    expect(packer.step()).toBe(true);
    expect(unpackRows(packer.result)).toEqual(rows);
  });

  it('records its fields, and reads each cell by its field name', () => {
    const packed = packRows(rowObjectColumns([row('r1', { root: 'a', url: 'https://x.test' })]));
    expect(packed.fields).toEqual(['id', ...FEED_COLUMNS]);
    // Another order, a column the draft lacks and a field no column has any more.
    const reordered = {
      ...packed,
      fields: ['url', 'retired', 'id', 'root'],
      text: [['https://x.test'], ['gone'], ['r1'], ['a']],
      lengths: [Uint16Array.of(14), Uint16Array.of(4), Uint16Array.of(2), Uint16Array.of(1)],
    };
    expect(unpackRows(reordered)).toEqual([row('r1', { root: 'a', url: 'https://x.test' })]);
  });

  it('reads a draft packed before drafts recorded their fields (id, root..var3, url)', () => {
    // The shape IndexedDB holds from drafts written before: no `fields`, seven fields in order.
    const kept = {
      rowCount: 2,
      blockRows: [2],
      text: [['r1r2'], ['ab'], ['m'], ['v1'], [''], ['x'], ['https://u']],
      lengths: [
        Uint16Array.of(2, 2),
        Uint16Array.of(1, 1),
        Uint16Array.of(1, 0),
        Uint16Array.of(2, 0),
        Uint16Array.of(0, 0),
        Uint16Array.of(0, 1),
        Uint16Array.of(0, 9),
      ],
    };
    expect(unpackRows(kept)).toEqual([
      row('r1', { root: 'a', mod: 'm', var1: 'v1' }),
      row('r2', { root: 'b', var3: 'x', url: 'https://u' }),
    ]);
  });

  it('refuses damaged data', () => {
    const packed = packRows(rowObjectColumns(AWKWARD));
    packed.lengths[1]![0] = 99;
    expect(() => unpackRows(packed)).toThrow(/damaged/);
  });
});

describe('draftFeeds', () => {
  const meta = { name: 'brands', dataType: 'table' as const, sheetUrl: '' };

  it('unpacks packed feeds kept in storage', async () => {
    const drafts = createMemoryDraftStorage<FeedSetDraft>();
    const draft: FeedSetDraft = {
      key: 'u|client|Acme',
      userId: 'u',
      name: 'Acme',
      baseRevision: 3,
      savedAt: 1,
      activeFeed: 'brands',
      feeds: [{ ...meta, _id: 'f1', packed: packRows(rowObjectColumns(AWKWARD)) }],
    };
    await drafts.put(draft);
    const found = await drafts.find(draft.key);
    expect(found && draftFeeds(found)).toEqual([{ ...meta, _id: 'f1', rows: AWKWARD }]);
  });

  it('reads drafts written with row objects (before packing)', () => {
    const feeds: Feed[] = [{ ...meta, rows: AWKWARD }];
    const old = {
      key: 'u|lists|',
      userId: 'u',
      name: '',
      baseRevision: null,
      savedAt: 1,
      activeFeed: null,
      feeds,
    } satisfies FeedSetDraft;
    expect(draftFeeds(old)).toEqual(feeds);
  });
});

describe('splitDraft', () => {
  const rows = Array.from({ length: 7 }, (_, i) =>
    row(`r${i}`, { root: `root ${i}`, url: `u${i}` }),
  );
  const packer = new RowPacker(rowObjectColumns(rows), 3);
  packer.step();
  const draft: FeedSetDraft = {
    key: 'u|client|Acme',
    userId: 'u',
    name: 'Acme',
    baseRevision: 2,
    savedAt: 1,
    activeFeed: 'big',
    feeds: [
      { name: 'old', dataType: 'table', sheetUrl: '', rows: AWKWARD.slice(0, 2) },
      { name: 'big', dataType: 'table', sheetUrl: '', packed: packer.result },
    ],
  };

  it('keeps a small draft whole', () => {
    expect(splitDraft(draft, 1_000)).toEqual({ head: draft, parts: [] });
  });

  it('puts each block of a big draft in a part and joins them back', () => {
    const { head, parts } = structuredClone(splitDraft(draft, 10));
    expect(head.parts).toBe(3);
    expect(head.feeds[1]!.packed!.text.flat()).toEqual([]);
    expect(parts.map((p) => [p.id, p.feed, p.block, p.text[1]])).toEqual([
      ['u|client|Acme#0', 1, 0, 'root 0root 1root 2'],
      ['u|client|Acme#1', 1, 1, 'root 3root 4root 5'],
      ['u|client|Acme#2', 1, 2, 'root 6'],
    ]);
    const joined = joinDraft(head, parts);
    expect(joined).toEqual(draft);
    expect(draftFeeds(joined)[1]!.rows).toEqual(rows);
    expect(() => joinDraft(head, parts.slice(1))).toThrow(/damaged/);
  });
});
