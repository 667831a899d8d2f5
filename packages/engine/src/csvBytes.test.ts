import { describe, expect, it } from 'vitest';
import { formatCsvLine } from './csv.ts';
import { CsvBytes, csvBytesOf } from './csvBytes.ts';

/** The bytes a writer with a buffer of `bufferBytes` hands over for `lines`, joined. */
function written(lines: string[][], bufferBytes?: number): Uint8Array {
  const pieces: number[] = [];
  const csv = new CsvBytes((bytes) => pieces.push(...bytes), bufferBytes);
  for (const cells of lines) csv.line(cells);
  csv.end();
  return Uint8Array.from(pieces);
}

const encode = (lines: string[][]): Uint8Array =>
  new TextEncoder().encode(lines.map((cells) => formatCsvLine(cells)).join(''));

const CELLS = [
  'plain',
  '',
  'a,b',
  'say "hi"',
  'line\nbreak',
  'cr\rhere',
  ' padded ',
  'trailing ',
  ' leading',
  'café crème',
  '€ – — “quoted” ™',
  'emoji 😀 here',
  'lone \ud800 surrogate',
  'lone low \udc00',
  'end high \ud83d',
  '日本語のテキスト, with a comma',
  '"',
  ',',
];

describe('CsvBytes', () => {
  it('writes the UTF-8 bytes of formatCsvLine for every kind of cell', () => {
    const lines = CELLS.map((c) => [c, 'x', c]);
    expect(written(lines)).toEqual(encode(lines));
  });

  it.each([4, 7, 16, 64])('gives the same bytes through a buffer of %i bytes', (bufferBytes) => {
    const lines = [CELLS, CELLS.map((c) => c.repeat(9)), ['x'.repeat(200), 'é'.repeat(150)]];
    expect(written(lines, bufferBytes)).toEqual(encode(lines));
  });

  it.each([16, 64, 1 << 20])(
    'copies cells repeated from the line before right, with a buffer of %i bytes',
    (bufferBytes) => {
      const lines = Array.from({ length: 60 }, (_, i) => [
        'say "hi", twice',
        `row ${i}`,
        i % 3 === 0 ? 'café 😀' : 'plain',
        ' padded ',
        ...(i % 7 === 0 ? ['one more'] : []),
      ]);
      expect(written(lines, bufferBytes)).toEqual(encode(lines));
    },
  );

  it.each([16, 200, 1 << 20])(
    'copies runs of repeated cells as blocks right, with a buffer of %i bytes',
    (bufferBytes) => {
      // Wide lines like an ad's: long runs of fixed texts between cells that change.
      const fixed = ['Free Delivery', 'say "hi", twice', '', 'café 😀', 'x'.repeat(40), ''];
      const lines = Array.from({ length: 40 }, (_, i) => [
        `row ${i}`,
        ...fixed,
        i % 4 === 0 ? 'every fourth' : `varies ${i}`,
        ...fixed,
        ...(i % 5 === 0 ? [] : fixed.slice(0, i % 5)),
        i % 3 === 0 ? '' : 'end',
      ]);
      expect(written(lines, bufferBytes)).toEqual(encode(lines));
    },
  );

  it('hands over its first 16 KB early, then whole buffers, and every byte once', () => {
    const sizes: number[] = [];
    const got: number[] = [];
    const csv = new CsvBytes((bytes) => {
      sizes.push(bytes.length);
      got.push(...bytes);
    }, 1 << 16);
    const lines = Array.from({ length: 3000 }, (_, i) => [`row ${i}`, 'a fixed cell', `${i * 7}`]);
    for (const cells of lines) csv.line(cells);
    csv.end();
    expect(sizes.length).toBeGreaterThan(2);
    expect(sizes[0]).toBeLessThanOrEqual(1 << 14);
    expect(sizes[0]).toBeGreaterThan((1 << 14) - 64);
    for (const size of sizes.slice(1, -1)) expect(size).toBeGreaterThan((1 << 16) - 64);
    expect(Uint8Array.from(got)).toEqual(encode(lines));
  });

  it('writes text as it is, unquoted', () => {
    const pieces: number[] = [];
    const csv = new CsvBytes((bytes) => pieces.push(...bytes), 8);
    csv.text('\uFEFFa,"b"\r\n');
    csv.text('€'.repeat(20));
    csv.end();
    expect(Uint8Array.from(pieces)).toEqual(
      new TextEncoder().encode(`\uFEFFa,"b"\r\n${'€'.repeat(20)}`),
    );
  });

  it.each([8, 64, 1 << 20])(
    'writes long texts through encodeInto, with a buffer of %i bytes',
    (bufferBytes) => {
      const encoder = new TextEncoder();
      const pieces: number[] = [];
      const csv = new CsvBytes(
        (bytes) => pieces.push(...bytes),
        bufferBytes,
        (text, into) => encoder.encodeInto(text, into),
      );
      const texts = ['a,"b"\r\n'.repeat(40), 'é€😀\ud800x'.repeat(100), 'short'];
      for (const t of texts) csv.text(t);
      csv.end();
      expect(Uint8Array.from(pieces)).toEqual(encoder.encode(texts.join('')));
    },
  );

  it.each([8, 64, 1 << 16])(
    'writes bytes made beforehand between lines and cells, a buffer of %i bytes',
    (bufferBytes) => {
      const pieces = [',', 'say "hi",', 'x'.repeat(100), 'café 😀,', ''];
      const made = pieces.map((p) => csvBytesOf((csv) => csv.text(p)));
      expect(made.map((b) => new TextDecoder().decode(b))).toEqual(pieces);
      const out: number[] = [];
      const csv = new CsvBytes((bytes) => out.push(...bytes), bufferBytes);
      let want = '';
      for (let i = 0; i < 20; i++) {
        const cells = ['same', `row ${i}`, 'same too'];
        csv.line(cells);
        want += formatCsvLine(cells);
        const k = i % made.length;
        csv.bytes(made[k] as Uint8Array);
        csv.cell(`a, ${i}`);
        want += `${pieces[k] as string}"a, ${i}"`;
      }
      csv.end();
      expect(new TextDecoder().decode(Uint8Array.from(out))).toBe(want);
    },
  );
});
