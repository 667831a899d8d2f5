import Dexie, { type Table } from 'dexie';
import { forEachCsvRecord, readMicrosoftLocations } from '@adloom/engine';
import { keptForPage } from '../../state/pageState.ts';

/**
 * Microsoft Advertising's geographical locations file, kept in this browser per user (IndexedDB
 * through Dexie, as the drafts: the file is about 10 MB, past what localStorage holds, and a
 * Blob is kept as it is, not copied into a string). A Microsoft download maps the campaigns'
 * Google locations by it (downloads.ts); without it they are reported, as before.
 */

/** What is kept of the file, besides the file. */
export interface MicrosoftLocationsInfo {
  name: string;
  /** Bytes. */
  size: number;
  /** When it was chosen (ms since 1970). */
  keptAt: number;
}

/** One user's kept file. */
export interface KeptMicrosoftLocations extends MicrosoftLocationsInfo {
  userId: string;
  file: Blob;
}

/** Where the file is kept: IndexedDB in the app, memory in tests. */
export interface MicrosoftLocationsStorage {
  find(userId: string): Promise<KeptMicrosoftLocations | undefined>;
  put(kept: KeptMicrosoftLocations): Promise<void>;
  remove(userId: string): Promise<void>;
}

class MicrosoftLocationsDatabase extends Dexie {
  files!: Table<KeptMicrosoftLocations, string>;

  constructor() {
    super('adloom-microsoft-locations');
    this.version(1).stores({ files: 'userId' });
  }
}

let database: MicrosoftLocationsDatabase | null = null;
keptForPage(() => {
  database?.close();
  database = null;
});

/** The file in IndexedDB. A browser that refuses IndexedDB keeps none: reads find nothing. */
export const indexedDbMicrosoftLocations: MicrosoftLocationsStorage = {
  async find(userId) {
    try {
      return await (database ??= new MicrosoftLocationsDatabase()).files.get(userId);
    } catch {
      return undefined;
    }
  },
  async put(kept) {
    await (database ??= new MicrosoftLocationsDatabase()).files.put(kept);
  },
  async remove(userId) {
    await (database ??= new MicrosoftLocationsDatabase()).files.delete(userId);
  },
};

/** How much of the file's start is read to check its header. */
const HEADER_BYTES = 64 * 1024;

/**
 * Why `file` is not Microsoft's geographical locations file (its header lacks a column the
 * mapping reads), or undefined when it looks like it. Only the file's start is read.
 */
export async function microsoftLocationsFileProblem(file: Blob): Promise<string | undefined> {
  const start = await file.slice(0, HEADER_BYTES).text();
  let header: string[] | undefined;
  forEachCsvRecord(start, (cells) => {
    header = cells;
    return false;
  });
  const reading = readMicrosoftLocations(header ? [header] : []);
  return reading.ok ? undefined : `This file ${reading.problem}.`;
}
