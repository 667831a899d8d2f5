/// <reference lib="webworker" />
import { serveChunkTask } from './chunkTask.ts';
import {
  decodeCsvBytes,
  parseCsvText,
  planCsvImport,
  type CsvColumnMapping,
  type CsvHead,
  type CsvImportSummary,
} from './csvImport.ts';

declare const self: DedicatedWorkerGlobalScope;

/** What the page sends: the file, and the columns a person chose (none: its headers choose). */
export interface CsvImportTaskInput {
  file: Blob;
  mapping?: CsvColumnMapping;
}

/** What the import answers: the summary, or the file's first rows when no header names a column. */
export type CsvImportTaskResult = { summary: CsvImportSummary } | { head: CsvHead };

/**
 * Parses a CSV file off the main thread, sending rows back in transferable chunks. Without a
 * mapping the file's headers choose the columns; when they name none, the file's first rows
 * come back instead, for a person to map.
 */
serveChunkTask<CsvImportTaskInput, CsvImportTaskResult>(self, async ({ file, mapping }, ctx) => {
  const { text, encoding } = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
  const plan = mapping ? { mapping } : planCsvImport(text);
  if ('head' in plan) return plan;
  const summary = parseCsvText({
    text,
    encoding,
    mapping: plan.mapping,
    onChunk: (chunk) => ctx.sendChunk(chunk),
    onProgress: (fraction) => ctx.progress(fraction),
  });
  return { summary };
});
