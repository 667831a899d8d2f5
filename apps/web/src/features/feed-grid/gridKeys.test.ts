import { describe, expect, it } from 'vitest';
import { gridKeyTarget, type GridExtent } from './gridKeys.ts';

// Six value columns: cells 0 (select box), 1 (#), 2-7 (Root..Final URL), 8 (delete).
const MILLION: GridExtent = { rowCount: 1_000_000, columnCount: 6, pageRows: 14 };

const move = (key: string, row: number, col: number, isMod = false, extent = MILLION) =>
  gridKeyTarget(key, isMod, { row, col }, extent);

describe('gridKeyTarget', () => {
  it('moves one cell with the arrows and stops at the edges', () => {
    expect(move('ArrowDown', 10, 3)).toEqual({ row: 11, col: 3 });
    expect(move('ArrowUp', 10, 3)).toEqual({ row: 9, col: 3 });
    expect(move('ArrowLeft', 10, 3)).toEqual({ row: 10, col: 2 });
    expect(move('ArrowRight', 10, 3)).toEqual({ row: 10, col: 4 });
    expect(move('ArrowLeft', 10, 0)).toEqual({ row: 10, col: 0 });
    expect(move('ArrowRight', 10, 8)).toEqual({ row: 10, col: 8 });
    expect(move('ArrowDown', 999_999, 3)).toEqual({ row: 999_999, col: 3 });
  });

  it('goes up from the first row into the header row and no further', () => {
    expect(move('ArrowUp', 0, 0)).toEqual({ row: -1, col: 0 });
    expect(move('ArrowUp', -1, 0)).toEqual({ row: -1, col: 0 });
    expect(move('ArrowDown', -1, 4)).toEqual({ row: 0, col: 4 });
  });

  it('jumps to the first or last row with Ctrl+Up/Down', () => {
    expect(move('ArrowUp', 500, 2, true)).toEqual({ row: 0, col: 2 });
    expect(move('ArrowDown', 5, 2, true)).toEqual({ row: 999_999, col: 2 });
    expect(move('ArrowUp', -1, 2, true)).toEqual({ row: -1, col: 2 });
  });

  it('moves a page with Page Up/Down, stopping at the first and last row', () => {
    expect(move('PageDown', 10, 5)).toEqual({ row: 24, col: 5 });
    expect(move('PageUp', 30, 5)).toEqual({ row: 16, col: 5 });
    expect(move('PageUp', 5, 5)).toEqual({ row: 0, col: 5 });
    expect(move('PageDown', 999_990, 5)).toEqual({ row: 999_999, col: 5 });
    expect(move('PageDown', -1, 5)).toEqual({ row: 13, col: 5 });
  });

  it("goes to the row's first and last value cell with Home/End", () => {
    expect(move('Home', 42, 6)).toEqual({ row: 42, col: 2 });
    expect(move('End', 42, 0)).toEqual({ row: 42, col: 7 });
    expect(move('End', 3, 0, false, { ...MILLION, columnCount: 1 })).toEqual({ row: 3, col: 2 });
  });

  it("goes to the grid's first and last value cell with Ctrl+Home/End", () => {
    expect(move('Home', 777, 8, true)).toEqual({ row: 0, col: 2 });
    expect(move('End', 3, 0, true)).toEqual({ row: 999_999, col: 7 });
  });

  it('keeps to the header row when there are no rows', () => {
    const empty = { ...MILLION, rowCount: 0 };
    expect(move('ArrowDown', -1, 2, false, empty)).toEqual({ row: -1, col: 2 });
    expect(move('End', -1, 2, true, empty)).toEqual({ row: -1, col: 7 });
    expect(move('PageDown', -1, 2, false, empty)).toEqual({ row: -1, col: 2 });
  });

  it('leaves other keys alone', () => {
    expect(move('Tab', 1, 2)).toBeNull();
    expect(move('Enter', 1, 2)).toBeNull();
    expect(move('a', 1, 2)).toBeNull();
  });
});
