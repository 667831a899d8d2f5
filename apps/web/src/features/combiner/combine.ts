import { FEED_TEXT_COLUMNS, LINKED_VARIABLES_ERROR, splitSeedLines } from '@adloom/engine';
import type { ColumnChunk } from '../feed-grid/columnChunk.ts';
import { FEED_COLUMN_COUNT, normalizeCell } from '../feed-grid/feedColumns.ts';

/** Seed boxes of the combiner: one per text column of the feed (box i fills column i). */
export const SEED_COLUMN_COUNT = FEED_TEXT_COLUMNS.length;
/** The most rows one combine may make (a guard against a typo making billions). */
export const COMBINE_MAX_ROWS = 2_000_000;
/** Rows per chunk the combine worker sends. */
export const COMBINE_CHUNK_ROWS = 10_000;

/** The spec's message for linked columns of different lengths. */
export const LINKED_LENGTH_MESSAGE = LINKED_VARIABLES_ERROR;

/** What to combine: the seed lines of each box and the links between neighbours. */
export interface CombineInput {
  /** One list of values per seed box (see parseSeedText). */
  seeds: string[][];
  /** links[i] joins box i and box i + 1 (one fewer than the boxes). */
  links: boolean[];
}

/** A checked combine: the groups that multiply, and how many rows result. */
export type CombinePlan =
  | { ok: true; rowCount: number; groups: { columns: number[]; length: number }[] }
  | { ok: false; rowCount: number; message: string };

/** The values of a seed box: the engine's `splitSeedLines`, each cut to the 30-character cell limit. */
export function parseSeedText(text: string): string[] {
  return splitSeedLines(text).map((line) => normalizeCell(line, 0));
}

/**
 * Checks a combine: neighbouring linked boxes form one group that is zipped (each must hold the
 * same number of values); groups multiply. Empty unlinked boxes are left out.
 */
export function planCombination({ seeds, links }: CombineInput): CombinePlan {
  const groups: { columns: number[]; length: number }[] = [];
  let column = 0;
  while (column < SEED_COLUMN_COUNT) {
    const members = [column];
    while (column < SEED_COLUMN_COUNT - 1 && links[column] === true) {
      column += 1;
      members.push(column);
    }
    column += 1;
    const lengths = members.map((c) => seeds[c]?.length ?? 0);
    const filled = lengths.filter((n) => n > 0);
    if (filled.length === 0) continue;
    if (members.length > 1 && lengths.some((n) => n !== lengths[0])) {
      return { ok: false, rowCount: 0, message: LINKED_LENGTH_MESSAGE };
    }
    groups.push({ columns: members, length: filled[0]! });
  }
  if (groups.length === 0) return { ok: true, rowCount: 0, groups };
  const rowCount = groups.reduce((product, group) => product * group.length, 1);
  if (rowCount > COMBINE_MAX_ROWS) {
    return {
      ok: false,
      rowCount,
      message: `That would make ${rowCount.toLocaleString('en-US')} rows; one combine makes at most ${COMBINE_MAX_ROWS.toLocaleString('en-US')}.`,
    };
  }
  return { ok: true, rowCount, groups };
}

/**
 * Every combination as ColumnChunks, in the order of the engine's `combineSeeds` (the first box
 * varies slowest), but streamed: the engine builds row objects, fine for the command line and
 * too heavy for a million rows in a browser. Each
 * column's dictionary is its seed values, so a million rows cost five Uint32Arrays.
 */
export function* generateCombinationChunks(
  input: CombineInput,
  chunkRows = COMBINE_CHUNK_ROWS,
): Generator<ColumnChunk> {
  const plan = planCombination(input);
  if (!plan.ok) throw new Error(plan.message);
  if (plan.rowCount === 0) return;
  const { groups } = plan;
  const digits = new Array<number>(groups.length).fill(0);
  const used = new Set(groups.flatMap((group) => group.columns));
  let produced = 0;
  while (produced < plan.rowCount) {
    const rowCount = Math.min(chunkRows, plan.rowCount - produced);
    const codes: Uint32Array[] = [];
    const dicts: string[][] = [];
    for (let c = 0; c < FEED_COLUMN_COUNT; c += 1) {
      const isUsed = used.has(c);
      codes.push(isUsed ? new Uint32Array(rowCount) : new Uint32Array(0));
      dicts.push(isUsed ? input.seeds[c]! : []);
    }
    for (let r = 0; r < rowCount; r += 1) {
      for (let g = 0; g < groups.length; g += 1) {
        for (const c of groups[g]!.columns) codes[c]![r] = digits[g]!;
      }
      // Odometer step: the last group turns fastest.
      for (let g = groups.length - 1; g >= 0; g -= 1) {
        digits[g] = digits[g]! + 1;
        if (digits[g]! < groups[g]!.length) break;
        digits[g] = 0;
      }
    }
    produced += rowCount;
    yield { rowCount, dicts, codes };
  }
}
