import { describe, expect, it } from 'vitest';
import { jsonPiecesBytes, jsonTextPieces } from './json-text.ts';

/** A JSON text with letters, accents and characters outside the BMP (surrogate pairs). */
function awkwardJson(seed: number, length: number): string {
  const parts = ['a', 'é', '😀', '"', '\\n', '𝄞', 'Ω', ' ', '🇩🇪'];
  let state = seed;
  const cells: string[] = [];
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    cells.push(parts[state % parts.length]!);
  }
  return JSON.stringify({ rows: [cells.join('')] });
}

describe('jsonTextPieces', () => {
  it('gives the bytes of the whole text, in pieces that each decode alone (no pair split)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const json = awkwardJson(seed, 50 + seed * 7);
      for (const size of [1, 2, 3, 5, 16, 1000]) {
        const pieces = [...jsonTextPieces(json, size)];
        expect(Buffer.concat(pieces).equals(Buffer.from(json, 'utf8'))).toBe(true);
        for (const piece of pieces) expect(piece.toString('utf8')).not.toContain('\ufffd');
        if (size >= 2 && json.length > size) expect(pieces.length).toBeGreaterThan(1);
      }
    }
  });

  it('makes one piece of a short text and none of an empty one', () => {
    expect([...jsonTextPieces('[]')].map(String)).toEqual(['[]']);
    expect([...jsonTextPieces('')]).toEqual([]);
  });
});

describe('jsonPiecesBytes', () => {
  it('gives text and bytes in order, the bytes as views of their own buffer', () => {
    const rows = new TextEncoder().encode(awkwardJson(7, 400));
    const pieces = [...jsonPiecesBytes(['{"rows":', rows, ',"name":"Ω 😀"}'], 64)];
    expect(Buffer.concat(pieces).toString('utf8')).toBe(
      `{"rows":${new TextDecoder().decode(rows)},"name":"Ω 😀"}`,
    );
    const views = pieces.filter((piece) => piece.buffer === rows.buffer);
    expect(views.length).toBe(Math.ceil(rows.length / 64));
    expect(views.every((view) => view.length <= 64)).toBe(true);
  });
});
