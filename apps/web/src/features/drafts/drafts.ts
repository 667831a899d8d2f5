import Dexie, { type Table } from 'dexie';
import type { StoredFeed } from '@adloom/contract';
import type { FeedRow } from '@adloom/engine';
import type { DraftStorage as RevisionedDraftStorage } from '../../state/revisionedSet/index.ts';
import { unpackRows, type PackedRows } from './packedRows.ts';
import { keptForPage } from '../../state/pageState.ts';

/**
 * A feed in a draft: its rows packed by column (`packed`, written since 2026-11-23), or as row
 * objects (`rows`, drafts written before; still read).
 */
export type DraftFeed = Omit<StoredFeed, 'rows'> & { packed?: PackedRows; rows?: FeedRow[] };

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
  /** In IndexedDB: how many part records hold the packed text (see splitDraft). */
  parts?: number;
}

/** Some packed text of a big draft, kept in its own record (one block of one feed). */
export interface DraftPart {
  /** `${draftKey}#${n}` */
  id: string;
  draftKey: string;
  feed: number;
  block: number;
  /** The block's text per field (PACKED_FIELDS order). */
  text: string[];
}

/** Drafts with more packed text than this are kept in parts. */
export const DRAFT_INLINE_MAX_CHARS = 1_000_000;

/**
 * Splits a big draft into a head and one part per block of packed rows, so that storing it is
 * many short puts (IndexedDB copies each put's value on the main thread: ~250 ms for 90 MB).
 * A small draft stays whole.
 */
export function splitDraft(
  draft: FeedSetDraft,
  maxInlineChars = DRAFT_INLINE_MAX_CHARS,
): { head: FeedSetDraft; parts: DraftPart[] } {
  let chars = 0;
  for (const feed of draft.feeds)
    for (const field of feed.packed?.text ?? []) for (const text of field) chars += text.length;
  if (chars <= maxInlineChars) return { head: draft, parts: [] };
  const parts: DraftPart[] = [];
  const feeds = draft.feeds.map((feed, f) => {
    if (!feed.packed) return feed;
    const { text } = feed.packed;
    for (let block = 0; block < feed.packed.blockRows.length; block += 1) {
      parts.push({
        id: `${draft.key}#${parts.length}`,
        draftKey: draft.key,
        feed: f,
        block,
        text: text.map((field) => field[block] ?? ''),
      });
    }
    return { ...feed, packed: { ...feed.packed, text: text.map(() => []) } };
  });
  return { head: { ...draft, feeds, parts: parts.length }, parts };
}

/** The draft a head and its parts make (see splitDraft). Throws when a part is missing. */
export function joinDraft(head: FeedSetDraft, parts: readonly DraftPart[]): FeedSetDraft {
  if (!head.parts) return head;
  if (parts.length !== head.parts) throw new Error('A kept draft is damaged (parts)');
  const { parts: _count, ...draft } = head;
  const feeds = draft.feeds.map((feed) =>
    feed.packed
      ? { ...feed, packed: { ...feed.packed, text: feed.packed.text.map(() => [] as string[]) } }
      : feed,
  );
  for (const part of parts) {
    const packed = feeds[part.feed]?.packed;
    if (!packed) throw new Error('A kept draft is damaged (parts)');
    part.text.forEach((text, field) => {
      const column = packed.text[field];
      if (column) column[part.block] = text;
    });
  }
  return { ...draft, feeds };
}

/** The feeds of a draft with their rows as objects (packed rows unpacked). Throws when damaged. */
export function draftFeeds(draft: FeedSetDraft): StoredFeed[] {
  return draft.feeds.map(({ packed, rows, ...meta }) => ({
    ...meta,
    rows: packed ? unpackRows(packed) : (rows ?? []),
  }));
}

/** Where feed drafts live: IndexedDB in the app, memory in tests. */
export type DraftStorage = RevisionedDraftStorage<FeedSetDraft>;

/** The key of a draft: per user, per set. */
export function draftKey(userId: string, scope: 'client' | 'lists', name = ''): string {
  return `${userId}|${scope}|${name}`;
}

class DraftDatabase extends Dexie {
  feedDrafts!: Table<FeedSetDraft, string>;
  feedDraftParts!: Table<DraftPart, string>;

  constructor() {
    super('adloom-drafts');
    this.version(1).stores({ feedDrafts: 'key, userId' });
    this.version(2).stores({ feedDrafts: 'key, userId', feedDraftParts: 'id, draftKey' });
  }
}

let database: DraftDatabase | null = null;
keptForPage(() => {
  database?.close();
  database = null;
});

/** Drafts in IndexedDB (through Dexie). Failures are swallowed into `undefined` for reads. */
export const indexedDbDrafts: DraftStorage = {
  async find(key) {
    try {
      const db = (database ??= new DraftDatabase());
      return await db.transaction('r', db.feedDrafts, db.feedDraftParts, async () => {
        const head = await db.feedDrafts.get(key);
        if (!head?.parts) return head;
        const parts = await db.feedDraftParts.where('draftKey').equals(key).toArray();
        parts.sort((a, b) => a.feed - b.feed || a.block - b.block);
        return joinDraft(head, parts);
      });
    } catch {
      return undefined;
    }
  },
  async put(draft) {
    const db = (database ??= new DraftDatabase());
    const { head, parts } = splitDraft(draft);
    if (parts.length === 0) {
      // One put, issued at once (a page being left may not run again).
      await db.transaction('rw', db.feedDrafts, db.feedDraftParts, async () => {
        await db.feedDrafts.put(head);
        await db.feedDraftParts.where('draftKey').equals(draft.key).delete();
      });
      return;
    }
    // One transaction; each part is put after the previous one is stored, so each copy of a
    // part's text is a short task of its own.
    await db.transaction('rw', db.feedDrafts, db.feedDraftParts, async () => {
      await db.feedDraftParts.where('draftKey').equals(draft.key).delete();
      for (const part of parts) await db.feedDraftParts.put(part);
      await db.feedDrafts.put(head);
    });
  },
  async remove(key) {
    const db = (database ??= new DraftDatabase());
    await db.transaction('rw', db.feedDrafts, db.feedDraftParts, async () => {
      await db.feedDrafts.delete(key);
      await db.feedDraftParts.where('draftKey').equals(key).delete();
    });
  },
};

/** Removes every feed draft (and its parts) of a user from IndexedDB, e.g. when the account is deleted. */
export async function removeUserDraftsFromIndexedDb(userId: string): Promise<void> {
  const db = (database ??= new DraftDatabase());
  await db.transaction('rw', db.feedDrafts, db.feedDraftParts, async () => {
    await db.feedDrafts.where('userId').equals(userId).delete();
    await db.feedDraftParts.where('draftKey').startsWith(`${userId}|`).delete();
  });
}
