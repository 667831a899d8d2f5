import type { SheetDownloadAnswer, StoredFeed } from '@adloom/contract';
import type { Feed } from '@adloom/engine';
import { completeFeedRow, makeUniqueName } from '@adloom/engine';
import { loadLists, saveLists } from '../../api/workspace.ts';
import { createStore, type Store } from '../../state/store.ts';
import { isRowsSaved } from './feedSetEditor.ts';

/** Spec section 7 and 8: the save-list modal's notices. */
export const LIST_MESSAGES = {
  saved: 'List saved successfully',
  saveFailed: 'List could not be saved. Check format and try again',
  fetchFailed: (error: string) => `There was a problem fetching your feeds: ${error}`,
} as const;

/** The user's lists and data tables as last loaded (for dropdowns outside the lists screen). */
export interface ListsSnapshot {
  feeds: StoredFeed[];
  revision: number;
}

/** The lists the builder's dropdowns offer: loaded once, refreshed after a save. */
export const listsSource: Store<ListsSnapshot | null> & {
  refresh(): Promise<ListsSnapshot>;
  /** Saves a new list of root values (name made unique) with the rest of the set. */
  saveNewList(name: string, roots: readonly string[]): Promise<string>;
  /** A linked list or data table was just read from its sheet: its rows are the server's copy. */
  applyRead(name: string, answer: SheetDownloadAnswer): void;
} = (() => {
  const store = createStore<ListsSnapshot | null>(null);
  async function refresh(): Promise<ListsSnapshot> {
    const answer = await loadLists();
    const snapshot = { feeds: answer.feeds, revision: answer.revision };
    store.set(snapshot);
    return snapshot;
  }
  return {
    ...store,
    refresh,
    async saveNewList(name, roots) {
      // Read the set fresh, so a list saved from another tab is not overwritten.
      const current = await refresh();
      const unique = makeUniqueName(
        name.trim(),
        current.feeds.map((feed) => feed.name),
      );
      const list: Feed = {
        name: unique,
        dataType: 'list',
        sheetUrl: '',
        rows: roots.map((root, i) =>
          completeFeedRow(`list-${Date.now().toString(36)}-${i}`, { root }),
        ),
      };
      const answer = await saveLists({
        feeds: [
          ...current.feeds.map(({ sheetSync, ...feed }) =>
            isRowsSaved({ sheetUrl: feed.sheetUrl, sheetSync }) ? feed : { ...feed, rows: [] },
          ),
          list,
        ],
        revision: current.revision,
      });
      store.set({ feeds: answer.feeds, revision: answer.revision });
      return unique;
    },
    applyRead(name, answer) {
      store.set((snapshot) =>
        snapshot === null
          ? snapshot
          : {
              ...snapshot,
              feeds: snapshot.feeds.map((feed) =>
                feed.name === name
                  ? {
                      ...feed,
                      rows: answer.formattedRows,
                      sheetName: answer.sheetName,
                      sheetSync: answer.sheetSync,
                    }
                  : feed,
              ),
            },
      );
    },
  };
})();

/** Lists (dataType 'list') of a snapshot, by name. */
export function findLists(snapshot: ListsSnapshot | null): StoredFeed[] {
  return snapshot?.feeds.filter((feed) => feed.dataType === 'list') ?? [];
}
