/// <reference lib="webworker" />
import { serveChunkTask } from '../chunkTask.ts';
import { encodeColumnChunk } from '../columnChunk.ts';

declare const self: DedicatedWorkerGlobalScope;

const BRANDS = [
  'nike',
  'adidas',
  'puma',
  'reebok',
  'asics',
  'new balance',
  'vans',
  'converse',
  'fila',
  'salomon',
];
const COLORS = ['red', 'blue', 'black', 'white', 'green', 'grey', 'navy', 'pink'];
const SIZES = ['kids', 'women', 'men', 'unisex'];
const SAMPLE_CHUNK_ROWS = 10_000;

/** Makes a realistic sample feed of `rowCount` distinct rows, sent in transferable chunks. */
serveChunkTask<number, number>(self, (rowCount, ctx) => {
  for (let start = 0; start < rowCount; start += SAMPLE_CHUNK_ROWS) {
    const rows: string[][] = [];
    const end = Math.min(rowCount, start + SAMPLE_CHUNK_ROWS);
    for (let i = start; i < end; i += 1) {
      const brand = BRANDS[i % BRANDS.length]!;
      rows.push([
        brand,
        `model ${i + 1}`,
        COLORS[i % COLORS.length]!,
        SIZES[(i >> 3) % SIZES.length]!,
        '',
        `https://shop.example.com/${brand.replace(' ', '-')}/${i + 1}`,
        // Every tenth row paused: the Status column is part of what the grid holds and draws.
        i % 10 === 9 ? 'paused' : '',
      ]);
    }
    ctx.sendChunk(encodeColumnChunk(rows));
  }
  return rowCount;
});
