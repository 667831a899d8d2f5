/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { getChunkTransferables, type ColumnChunk } from './columnChunk.ts';
import {
  decodeCsvBytes,
  parseCsvText,
  planCsvImport,
  type CsvColumnMapping,
  type CsvHead,
  type CsvImportSummary,
} from './csvImport.ts';

/**
 * Parses a CSV file off the main thread, sending rows back in transferable chunks. Without a
 * mapping the file's headers choose the columns; when they name none, the file's first rows
 * come back instead, for a person to map.
 */
const api = {
  async importCsv(
    file: Blob,
    onChunk: (chunk: ColumnChunk) => unknown,
    onProgress: (fraction: number) => unknown,
    chosen?: CsvColumnMapping,
  ): Promise<{ summary: CsvImportSummary } | { head: CsvHead }> {
    const text = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
    const plan = chosen ? { mapping: chosen } : planCsvImport(text);
    if ('head' in plan) return plan;
    const sends: unknown[] = [];
    const summary = parseCsvText({
      text,
      mapping: plan.mapping,
      onChunk: (chunk) =>
        sends.push(onChunk(Comlink.transfer(chunk, getChunkTransferables(chunk)))),
      onProgress: (fraction) => void onProgress(fraction),
    });
    await Promise.all(sends);
    return { summary };
  },
};

/** The import worker's typed surface. */
export type CsvImportWorkerApi = typeof api;

Comlink.expose(api);
