/** Where drafts of one kind live: IndexedDB in the app, memory in tests. */
export interface DraftStorage<D extends { key: string }> {
  /** The draft under a key; `undefined` when none (or when it cannot be read). */
  find(key: string): Promise<D | undefined>;
  put(draft: D): Promise<void>;
  remove(key: string): Promise<void>;
}

/** Drafts in memory (tests), copied in and out as IndexedDB does. */
export function createMemoryDraftStorage<D extends { key: string }>(): DraftStorage<D> & {
  readonly size: number;
} {
  const drafts = new Map<string, D>();
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
