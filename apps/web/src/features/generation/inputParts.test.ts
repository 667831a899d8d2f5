import { describe, expect, it } from 'vitest';
import { partBytes, partMessages, restoreInput, splitInput } from './inputParts.ts';

const big = (char: string) => char.repeat(40_000); // 80,000 bytes as UTF-16

describe('a job input split for posting', () => {
  it('takes big strings and typed arrays out, leaves the rest, and puts them back', () => {
    const codes = new Uint32Array(20_000).map((_, i) => i);
    const small = new Uint32Array([1, 2, 3]);
    const file = new Blob(['x']);
    const input = {
      tables: [
        { kind: 'keywords', source: { packed: { texts: [big('a'), 'short', big('b')], codes } } },
        { kind: 'negatives', source: { packed: { texts: ['tiny'], codes: small } } },
      ],
      file,
      label: 'adloom',
    };
    const { input: taken, parts } = splitInput(input);
    expect(parts).toHaveLength(3);
    expect(parts[0]).toBe(input.tables[0]!.source.packed.texts[0]);
    expect(parts[2]).toBe(codes);
    // The untouched branch is shared, not copied; the Blob is passed as it is.
    const t = taken as typeof input;
    expect(t.tables[1]).toBe(input.tables[1]);
    expect(t.file).toBe(file);
    expect(t.tables[0]!.source.packed.texts[1]).toBe('short');
    expect(t.tables[0]!.source.packed.texts[0]).toEqual({ adloomInputPart: 0 });
    // The caller's input keeps its values.
    expect(input.tables[0]!.source.packed.texts[0]).toBe(big('a'));
    expect(input.tables[0]!.source.packed.codes).toBe(codes);
    // The worker's copy (a structured clone; the test realm's Blob does not clone) gets its values back.
    const copy = structuredClone({ ...t, file: null });
    expect(restoreInput(copy, parts)).toEqual({ ...input, file: null });
  });

  it('leaves an input without big values as it is', () => {
    const input = { tables: [{ texts: ['a', 'b'] }], rows: new Uint8Array(10) };
    const { input: taken, parts } = splitInput(input);
    expect(parts).toEqual([]);
    expect(taken).toBe(input);
  });

  it('copies an array or object from its first big value on, in order, sharing the rest', () => {
    const before = { n: 1 };
    const after = { n: 2 };
    const input = { a: 'x', list: [before, big('d'), after, 'e'], b: big('f'), c: [before] };
    const { input: taken, parts } = splitInput(input);
    const t = taken as { a: string; list: unknown[]; b: unknown; c: unknown[] };
    expect(Object.keys(t)).toEqual(['a', 'list', 'b', 'c']);
    expect(t.list).toEqual([before, { adloomInputPart: 0 }, after, 'e']);
    expect(t.list[0]).toBe(before);
    expect(t.list[2]).toBe(after);
    expect(t.b).toEqual({ adloomInputPart: 1 });
    expect(t.c).toBe(input.c);
    expect(parts).toEqual([big('d'), big('f')]);
    expect(restoreInput(structuredClone(taken), parts)).toEqual(input);
  });

  it('fails plainly when a part did not arrive', () => {
    const { input } = splitInput({ text: big('c') });
    expect(() => restoreInput(structuredClone(input), [])).toThrow('Input part 0 is missing');
  });

  it('groups parts into messages of at most the given bytes, a bigger part alone', () => {
    const parts = [big('a'), big('b'), big('c'), new Uint8Array(300_000), big('d')];
    const messages = partMessages(parts, 170_000);
    expect(messages.map((m) => m.length)).toEqual([2, 1, 1, 1]);
    expect(messages.flat()).toEqual(parts);
    for (const m of messages)
      if (m.length > 1)
        expect(m.reduce((n, p) => n + partBytes(p), 0)).toBeLessThanOrEqual(170_000);
  });
});
