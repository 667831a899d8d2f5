import { combineSeeds } from '@adloom/engine';
import { describe, expect, it } from 'vitest';
import { readChunkCell } from '../feed-grid/columnChunk.ts';
import {
  COMBINE_MAX_ROWS,
  LINKED_LENGTH_MESSAGE,
  generateCombinationChunks,
  parseSeedText,
  planCombination,
  type CombineInput,
} from './combine.ts';

const NO_LINKS = [false, false, false, false];

function rowsOf(input: CombineInput, chunkRows?: number): string[][] {
  const rows: string[][] = [];
  for (const chunk of generateCombinationChunks(input, chunkRows)) {
    for (let r = 0; r < chunk.rowCount; r += 1)
      rows.push([0, 1, 2, 3, 4, 5].map((c) => readChunkCell(chunk, r, c)));
  }
  return rows;
}

describe('parseSeedText', () => {
  it('takes one trimmed value per line, drops empty lines, cuts to 30', () => {
    expect(parseSeedText(` shoes \r\n\n boots\n${'z'.repeat(40)}\n  `)).toEqual([
      'shoes',
      'boots',
      'z'.repeat(30),
    ]);
  });
});

describe('planCombination', () => {
  it.each([
    [[['a', 'b'], ['x', 'y', 'z'], [], [], []], NO_LINKS, 6],
    [[['a', 'b'], [], ['1', '2'], [], ['q']], NO_LINKS, 4],
    [[['a', 'b'], ['x', 'y'], ['1', '2', '3'], [], []], [true, false, false, false], 6],
    [[[], [], [], [], []], NO_LINKS, 0],
    [[['a'], ['b'], ['c'], ['d'], ['e']], [true, true, true, true], 1],
  ])('counts rows for %j with links %j', (seeds, links, rowCount) => {
    expect(planCombination({ seeds, links })).toMatchObject({ ok: true, rowCount });
  });

  it('refuses linked columns of different lengths with the spec message', () => {
    expect(
      planCombination({
        seeds: [['a', 'b'], ['x'], [], [], []],
        links: [true, false, false, false],
      }),
    ).toEqual({
      ok: false,
      rowCount: 0,
      message: LINKED_LENGTH_MESSAGE,
    });
    expect(
      planCombination({ seeds: [['a'], [], [], [], []], links: [true, false, false, false] }),
    ).toMatchObject({ ok: false });
  });

  it('refuses more than the most rows one combine makes', () => {
    const big = Array.from({ length: 2000 }, (_, i) => `v${i}`);
    const plan = planCombination({ seeds: [big, big, [], [], []], links: NO_LINKS });
    expect(plan).toMatchObject({ ok: false, rowCount: 4_000_000 });
    expect(plan.ok ? '' : plan.message).toContain(COMBINE_MAX_ROWS.toLocaleString('en-US'));
  });
});

describe('generateCombinationChunks', () => {
  it('makes every combination, first box slowest', () => {
    expect(rowsOf({ seeds: [['a', 'b'], ['x', 'y'], [], [], ['1']], links: NO_LINKS })).toEqual([
      ['a', 'x', '', '', '1', ''],
      ['a', 'y', '', '', '1', ''],
      ['b', 'x', '', '', '1', ''],
      ['b', 'y', '', '', '1', ''],
    ]);
  });

  it('zips linked columns', () => {
    expect(
      rowsOf({
        seeds: [['nike', 'puma'], ['n.com', 'p.com'], ['red', 'blue'], [], []],
        links: [true, false, false, false],
      }),
    ).toEqual([
      ['nike', 'n.com', 'red', '', '', ''],
      ['nike', 'n.com', 'blue', '', '', ''],
      ['puma', 'p.com', 'red', '', '', ''],
      ['puma', 'p.com', 'blue', '', '', ''],
    ]);
  });

  it('splits into chunks that continue the sequence', () => {
    const seeds = [['a', 'b', 'c'], ['1', '2', '3'], [], [], []];
    const whole = rowsOf({ seeds, links: NO_LINKS });
    expect(rowsOf({ seeds, links: NO_LINKS }, 4)).toEqual(whole);
    expect(whole).toHaveLength(9);
  });

  it('throws for an invalid plan', () => {
    expect(() =>
      rowsOf({ seeds: [['a'], [], [], [], []], links: [true, false, false, false] }),
    ).toThrow(LINKED_LENGTH_MESSAGE);
  });

  it.each([
    [
      [['a', 'b'], ['x', 'y', 'z'], [], ['1'], []],
      [false, false, false, false],
    ],
    [
      [['a', 'b'], ['x', 'y'], ['1', '2', '3'], ['q', 'r', 's'], []],
      [true, false, true, false],
    ],
    [
      [[], ['m', 'n'], ['1', '2'], [], ['k']],
      [false, true, false, false],
    ],
  ])('makes the same rows, in the same order, as the engine combineSeeds (%j)', (seeds, links) => {
    const engine = combineSeeds({
      seeds: { root: seeds[0], mod: seeds[1], var1: seeds[2], var2: seeds[3], var3: seeds[4] },
      links,
    });
    if (!engine.ok) throw new Error(engine.error);
    const expected = engine.rows.map((row) => [
      row.root,
      row.mod,
      row.var1,
      row.var2,
      row.var3,
      row.url,
    ]);
    expect(rowsOf({ seeds, links }, 5)).toEqual(expected);
  });
});
