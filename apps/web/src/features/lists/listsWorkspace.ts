import { LISTS_SAVED_MESSAGE } from '@adloom/contract';
import type { FeedDataType, FeedRow } from '@adloom/engine';
import { saveLists } from '../../api/workspace.ts';
import { handleApiError } from '../../api/client.ts';
import { createStore, type Store } from '../../state/store.ts';
import { draftKey, indexedDbDrafts, type DraftStorage } from '../drafts/drafts.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { FeedSetEditor, SAVE_MESSAGES, type FeedSetTarget } from '../builder/feedSetEditor.ts';
import { reportFailure } from '../builder/failures.ts';
import { LIST_MESSAGES, listsSource } from '../builder/listsSource.ts';
import { FeedSheets } from '../sheets/index.ts';
import { keptForPage } from '../../state/pageState.ts';

/** The lists screen's two tabs (spec section 2) and the kind of feed each shows. */
export const LISTS_TABS = [
  { value: 'table', label: 'Data Tables', item: 'Data Table' },
  { value: 'list', label: 'Lists', item: 'List' },
] as const satisfies readonly { value: FeedDataType; label: string; item: string }[];

/** The lists screen's state beside the editor's. */
export interface ListsScreenState {
  tab: FeedDataType;
  isLoading: boolean;
  /** The set could not be loaded: nothing can be saved over it. */
  loadFailed: boolean;
}

/**
 * The lists screen for one signed-in user: the user's data tables and lists as one set in a
 * FeedSetEditor (revisions, 409 dialog, drafts, autosave), the open tab, and the builder's list
 * dropdowns kept up to date after each save. Kept for the session like the builder's.
 */
export class ListsWorkspace {
  readonly state: Store<ListsScreenState> = createStore<ListsScreenState>({
    tab: 'table',
    isLoading: false,
    loadFailed: false,
  });
  readonly editor: FeedSetEditor;
  /** The Google Sheets of the lists and data tables (features/sheets). */
  readonly sheets: FeedSheets;
  readonly userId: string;
  private loadToken = 0;
  private readonly unsubscribe: () => void;

  constructor(userId: string, drafts: DraftStorage = indexedDbDrafts) {
    this.userId = userId;
    this.editor = new FeedSetEditor({
      drafts,
      notify: (kind, message, status) =>
        kind === 'error' ? notifyError(message, undefined, status) : notifySuccess(message),
      onUnauthorized: (error) => handleApiError(error),
    });
    // A restored draft or a loaded conflict may make a feed of the other tab active.
    this.unsubscribe = this.editor.state.subscribe(() => {
      const { activeFeed, feeds } = this.editor.state.get();
      const active = feeds.find((feed) => feed.name === activeFeed);
      if (active && active.dataType !== this.state.get().tab) this.patch({ tab: active.dataType });
    });
    this.editor.startAutosave();
    this.sheets = new FeedSheets(this.editor);
  }

  private patch(update: Partial<ListsScreenState>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  private target(): FeedSetTarget {
    return {
      key: draftKey(this.userId, 'lists'),
      name: '',
      savedMessage: LISTS_SAVED_MESSAGE,
      saveFailedMessage: SAVE_MESSAGES.failed,
      save: async (feeds, revision) => {
        const answer = await saveLists({
          feeds,
          ...(revision === undefined ? {} : { revision }),
        });
        // The builder's list dropdowns show what was just saved.
        listsSource.set({ feeds: answer.feeds, revision: answer.revision });
        return { feeds: answer.feeds, revision: answer.revision };
      },
      load: async () => listsSource.refresh(),
    };
  }

  /**
   * Loads the set from the server, unless unsaved edits are open (they stay, and a save that
   * meets a newer revision asks). Called each time the screen opens, so a list saved from the
   * builder's seed boxes shows up here.
   */
  async load(): Promise<void> {
    const { isDirty, key } = this.editor.state.get();
    if (isDirty && key !== null) return;
    const token = (this.loadToken += 1);
    this.patch({ isLoading: true, loadFailed: false });
    try {
      const snapshot = await listsSource.refresh();
      if (token !== this.loadToken) return;
      const current = this.editor.state.get();
      if (current.isDirty && current.key !== null) return;
      await this.editor.open(this.target(), snapshot, { activeFeed: current.activeFeed });
    } catch (error) {
      if (token !== this.loadToken) return;
      this.patch({ loadFailed: this.editor.state.get().key === null });
      reportFailure(error, LIST_MESSAGES.fetchFailed);
    } finally {
      if (token === this.loadToken) this.patch({ isLoading: false });
    }
  }

  /** Opens a tab: the selection (active feed and its selected rows) is cleared (spec section 4). */
  selectTab(tab: FeedDataType): void {
    if (tab === this.state.get().tab) return;
    this.editor.store.clearSelection();
    this.editor.selectFeed(null);
    this.patch({ tab });
  }

  /** Adds a feed or list of the open tab (name made unique); it becomes active. */
  addItem(name: string): string {
    return this.editor.addFeed(name, this.state.get().tab);
  }

  /**
   * Adds a geo feed (a data table, name made unique) holding `rows`; it becomes active, so the
   * Lists tab gives way to Data Tables (spec section 4).
   */
  addGeoFeed(name: string, rows: readonly Omit<FeedRow, 'id'>[]): string {
    return this.editor.addFeedWithRows(name, rows, 'table');
  }

  /** Copies the active feed (rows deep-copied, server id dropped); the copy becomes active. */
  copyActive(): string | null {
    const { activeFeed } = this.editor.state.get();
    return activeFeed === null ? null : this.editor.copyFeed(activeFeed);
  }

  /** Deletes the active feed, clears the selection and saves the whole set. */
  async deleteActive(): Promise<boolean> {
    const { activeFeed } = this.editor.state.get();
    if (activeFeed === null) return false;
    this.editor.removeFeed(activeFeed);
    const outcome = await this.editor.save();
    return outcome === 'saved';
  }

  dispose(): void {
    this.sheets.dispose();
    this.unsubscribe();
    this.editor.dispose();
  }
}

let current: ListsWorkspace | null = null;
keptForPage(() => {
  current?.dispose();
  current = null;
});

/** The signed-in user's lists workspace (a new one when the user changes). */
export function getListsWorkspace(userId: string): ListsWorkspace {
  if (current && current.userId === userId) return current;
  if (current) {
    void current.editor.flushDraft();
    current.dispose();
  }
  current = new ListsWorkspace(userId);
  return current;
}
