import { runChunkTask } from './chunkTask.ts';
import {
  describeCsvImport,
  type CsvColumnMapping,
  type CsvHead,
  type CsvImportSummary,
} from './csvImport.ts';
import type { CsvImportTaskInput, CsvImportTaskResult } from './csvImport.worker.ts';
import type { FeedStore } from './feedStore.ts';

/**
 * How an import ended: the summary and its notice, the file's first rows when its headers name
 * no feed column (nothing imported; a mapping is needed), or the refusal shown to the person.
 */
export type CsvImportOutcome =
  | { ok: true; summary: CsvImportSummary; message: string }
  | { ok: false; head: CsvHead }
  | { ok: false; head?: undefined; message: string };

/**
 * Imports a CSV file into the store: parsed in a module worker, rows appended in chunks as one
 * undoable step (a feed of only blank rows is replaced). `mapping`: the columns a person chose;
 * without it the file's headers choose. A refused file leaves the feed as it was.
 */
export async function importCsvFile(
  file: Blob,
  store: FeedStore,
  onProgress?: (fraction: number) => void,
  mapping?: CsvColumnMapping,
): Promise<CsvImportOutcome> {
  const worker = new Worker(new URL('./csvImport.worker.ts', import.meta.url), {
    type: 'module',
    name: 'csv-import',
  });
  const bulk = store.beginBulkAppend();
  try {
    // Chunks and progress arrive in order, before the result (chunkTask.ts).
    const result = await runChunkTask<CsvImportTaskInput, CsvImportTaskResult>(
      worker,
      mapping ? { file, mapping } : { file },
      { onChunk: (chunk) => bulk.addChunk(chunk), ...(onProgress ? { onProgress } : {}) },
    );
    if ('head' in result) {
      bulk.abort();
      return { ok: false, head: result.head };
    }
    const { summary } = result;
    if (summary.rowCount === 0) {
      bulk.abort();
      return {
        ok: false,
        message: 'This file has no rows under its header. Nothing was imported.',
      };
    }
    bulk.commit({ replaceBlankFeed: true });
    const firstRowNumber = store.rowCount - summary.rowCount + 1;
    return { ok: true, summary, message: describeCsvImport(summary, firstRowNumber) };
  } catch (error) {
    bulk.abort();
    const isRefusal = error instanceof Error && error.name === 'CsvImportError';
    const message = isRefusal
      ? error.message
      : `This file could not be read. Nothing was imported.`;
    return { ok: false, message };
  }
}
