import Dexie, { type Table } from 'dexie';
import type { Feed, FeedRow } from '@adloom/engine';
import { unpackRows, type PackedRows } from './packedRows.ts';

/**
 * A feed in a draft: its rows packed by column (`packed`, written since 2026-11-23), or as row
 * objects (`rows`, drafts written before; still read).
 */
export type DraftFeed = Omit<Feed, 'rows'> & { packed?: PackedRows; rows?: FeedRow[] };

/**
 * Unsaved edits of one feed set (a client's feeds, or the user's lists), kept in the browser
 * until the server has them. `baseRevision` is the server revision the edits were made on.
 */
export interface FeedSetDraft {
  /** `${userId}|${scope}|${name}` (see draftKey). */
  key: string;
  userId: string;
  /** Client name, or '' for the lists set. */
  name: string;
  baseRevision: number | null;
  /** Epoch milliseconds of the last edit written. */
  savedAt: number;
  feeds: DraftFeed[];
  activeFeed: string | null;
}

/** The feeds of a draft with their rows as objects (packed rows unpacked). Throws when damaged. */
export function draftFeeds(draft: FeedSetDraft): Feed[] {
  return draft.feeds.map(({ packed, rows, ...meta }) => ({
    ...meta,
    rows: packed ? unpackRows(packed) : (rows ?? []),
  }));
}

/** Where drafts live: IndexedDB in the app, memory in tests. */
export interface DraftStorage {
  find(key: string): Promise<FeedSetDraft | undefined>;
  put(draft: FeedSetDraft): Promise<void>;
  remove(key: string): Promise<void>;
}

/** The key of a draft: per user, per set. */
export function draftKey(userId: string, scope: 'client' | 'lists', name = ''): string {
  return `${userId}|${scope}|${name}`;
}

class DraftDatabase extends Dexie {
  feedDrafts!: Table<FeedSetDraft, string>;

  constructor() {
    super('adloom-drafts');
    this.version(1).stores({ feedDrafts: 'key, userId' });
  }
}

let database: DraftDatabase | null = null;

/** Drafts in IndexedDB (through Dexie). Failures are swallowed into `undefined` for reads. */
export const indexedDbDrafts: DraftStorage = {
  async find(key) {
    try {
      database ??= new DraftDatabase();
      return await database.feedDrafts.get(key);
    } catch {
      return undefined;
    }
  },
  async put(draft) {
    database ??= new DraftDatabase();
    await database.feedDrafts.put(draft);
  },
  async remove(key) {
    database ??= new DraftDatabase();
    await database.feedDrafts.delete(key);
  },
};

/** Drafts in memory, for tests and browsers without IndexedDB. */
export function createMemoryDrafts(): DraftStorage & { readonly size: number } {
  const drafts = new Map<string, FeedSetDraft>();
  return {
    get size() {
      return drafts.size;
    },
    find: (key) => Promise.resolve(structuredClone(drafts.get(key))),
    put: (draft) => {
      drafts.set(draft.key, structuredClone(draft));
      return Promise.resolve();
    },
    remove: (key) => {
      drafts.delete(key);
      return Promise.resolve();
    },
  };
}
