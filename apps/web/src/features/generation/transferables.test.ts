import { describe, expect, it } from 'vitest';
import { collectTransferables, restoreLongStrings, takeLongStrings } from './transferables.ts';

describe('long strings of a result', () => {
  it('are taken out in order, leave small strings and buffers alone, and go back in place', () => {
    const long = 'x'.repeat(50);
    const offsets = new Uint32Array([0, 50]);
    const result = {
      table: { headers: ['A', long], columns: [{ text: `${long}y`, offsets, codes: null }] },
      note: 'short',
      nested: [[`${long}z`]],
    };
    const original = structuredClone(result);
    const parts = takeLongStrings(result, 50);
    expect(parts).toEqual([long, `${long}y`, `${long}z`]);
    expect(JSON.stringify(result)).not.toContain('xxxxx');
    expect(result.note).toBe('short');
    expect(collectTransferables(result)).toEqual([offsets.buffer]);

    // As the page receives it: a clone of the skeleton, then the parts.
    const received = structuredClone(result);
    restoreLongStrings(received, parts);
    expect(received).toEqual(original);
  });

  it('refuses a result whose part did not arrive', () => {
    const result = { a: 'y'.repeat(10), b: 'z'.repeat(10) };
    const parts = takeLongStrings(result, 10);
    expect(parts).toHaveLength(2);
    expect(() => restoreLongStrings(result, parts.slice(0, 1))).toThrow('Result part 1 is missing');
  });
});
