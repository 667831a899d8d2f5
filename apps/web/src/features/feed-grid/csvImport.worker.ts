/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { getChunkTransferables, type ColumnChunk } from './columnChunk.ts';
import { decodeCsvBytes, parseCsvText, type CsvImportSummary } from './csvImport.ts';

/** Parses a CSV file off the main thread, sending rows back in transferable chunks. */
const api = {
  async importCsv(
    file: Blob,
    onChunk: (chunk: ColumnChunk) => unknown,
    onProgress: (fraction: number) => unknown,
  ): Promise<CsvImportSummary> {
    const text = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
    const sends: unknown[] = [];
    const summary = parseCsvText({
      text,
      onChunk: (chunk) =>
        sends.push(onChunk(Comlink.transfer(chunk, getChunkTransferables(chunk)))),
      onProgress: (fraction) => void onProgress(fraction),
    });
    await Promise.all(sends);
    return summary;
  },
};

/** The import worker's typed surface. */
export type CsvImportWorkerApi = typeof api;

Comlink.expose(api);
