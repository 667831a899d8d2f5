/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { encodeColumnChunk, getChunkTransferables, type ColumnChunk } from '../columnChunk.ts';

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
const api = {
  async makeSample(rowCount: number, onChunk: (chunk: ColumnChunk) => unknown): Promise<number> {
    const sends: unknown[] = [];
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
        ]);
      }
      const chunk = encodeColumnChunk(rows);
      sends.push(onChunk(Comlink.transfer(chunk, getChunkTransferables(chunk))));
    }
    await Promise.all(sends);
    return rowCount;
  },
};

export type SampleWorkerApi = typeof api;

Comlink.expose(api);
