import {
  createClient,
  deleteClient,
  listClients,
  loadClientBundle,
  saveFeeds,
} from '../../api/workspace.ts';
import { handleApiError } from '../../api/client.ts';
import { createStore, type Store } from '../../state/store.ts';
import { draftKey, indexedDbDrafts, type DraftStorage } from '../drafts/drafts.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { FeedSetEditor, type FeedSetTarget } from './feedSetEditor.ts';
import { TemplateSets, type ClientTemplates } from '../templates/templateSets.ts';
import { indexedDbTemplateDrafts, type TemplateDraftStorage } from '../templates/templateDrafts.ts';
import { OutputRegistry } from '../exports/outputRegistry.ts';
import { reportFailure } from './failures.ts';
import { FeedSheets } from '../sheets/index.ts';
import { listsSource } from './listsSource.ts';

/**
 * Spec section 8 texts of the builder: its clients, the feeds and lists its dropdowns load, and
 * its feed saves (Save Feeds, Delete Feed, the conflict dialog's overwrite: 'Unable to save
 * feed'; the autosave, which saves the builder's data every 5 minutes: 'Unable to save data').
 * The lists screen uses the section's other pair ('There was a problem ... your feeds/data').
 */
export const BUILDER_MESSAGES = {
  clientCreated: (name: string) => `Client "${name}" successfully created`,
  clientDeleted: (name: string) => `Client "${name}" successfully deleted`,
  feedsSaved: 'Feeds successfully updated',
  fetchClientsFailed: (error: string) => `Unable to fetch clients: ${error}`,
  createClientFailed: (error: string) => `Unable to create client: ${error}`,
  deleteClientFailed: (error: string) => `Unable to delete client: ${error}`,
  selectClientFailed: 'Whoops. Something went wrong',
  fetchFeedsFailed: (error: string) => `Unable to fetch feeds: ${error}`,
  saveFeedFailed: (error: string) => `Unable to save feed: ${error}`,
  saveDataFailed: (error: string) => `Unable to save data: ${error}`,
} as const;

/** Spec section 3: the default feed of a new client. */
export const DEFAULT_FEED_NAME = 'brands';

/** Local-storage keys that bring a person back to the client and feed they left. */
export const BUILDER_STORAGE_KEYS = {
  client: 'adloom.builder.client',
  feed: 'adloom.builder.feed',
} as const;

/** The builder's client state. */
export interface BuilderState {
  clients: string[];
  isLoadingClients: boolean;
  client: string | null;
  /** The active client's id (its bundle's), which the build history calls take; null until loaded. */
  clientId: string | null;
  isLoadingClient: boolean;
  templates: ClientTemplates | null;
}

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage full or blocked: only the return-to-where-you-were comfort is lost.
  }
}

/**
 * The campaign builder's upper half for one signed-in user: the clients, the active client's
 * bundle, and a FeedSetEditor over its feeds. Kept for the session, so moving to another
 * screen and back keeps unsaved work in memory (and in the draft).
 */
export class BuilderWorkspace {
  readonly state: Store<BuilderState> = createStore<BuilderState>({
    clients: [],
    isLoadingClients: false,
    client: null,
    clientId: null,
    isLoadingClient: false,
    templates: null,
  });
  readonly editor: FeedSetEditor;
  /** The active client's five template kinds (features/templates). */
  readonly templateSets: TemplateSets;
  /** What the template tabs generated (features/exports/outputRegistry). */
  readonly outputs = new OutputRegistry();
  /** The feeds' Google Sheets, and the linked lists the dropdowns read (features/sheets). */
  readonly sheets: FeedSheets;
  readonly userId: string;
  private readonly drafts: DraftStorage;
  private hasStarted = false;
  private selectToken = 0;
  /** Clients made or deleted here so far: a list asked for before one of them is out of date. */
  private clientEdits = 0;

  constructor(
    userId: string,
    drafts: DraftStorage = indexedDbDrafts,
    templateDrafts: TemplateDraftStorage = indexedDbTemplateDrafts,
  ) {
    this.userId = userId;
    this.drafts = drafts;
    this.templateSets = new TemplateSets({
      drafts: templateDrafts,
      notify: (kind, message, status) =>
        kind === 'error' ? notifyError(message, undefined, status) : notifySuccess(message),
      onUnauthorized: (error) => handleApiError(error),
      loadBundle: (client) => loadClientBundle(client),
    });
    this.templateSets.startAutosave();
    this.editor = new FeedSetEditor({
      drafts,
      notify: (kind, message, status) =>
        kind === 'error' ? notifyError(message, undefined, status) : notifySuccess(message),
      onUnauthorized: (error) => handleApiError(error),
    });
    this.editor.state.subscribe(() => {
      const { activeFeed, key } = this.editor.state.get();
      if (key !== null) writeStored(BUILDER_STORAGE_KEYS.feed, activeFeed);
    });
    this.editor.startAutosave();
    this.sheets = new FeedSheets(this.editor, {
      onOtherRead: (name, answer) => listsSource.applyRead(name, answer),
    });
  }

  private patch(update: Partial<BuilderState>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  /**
   * Loads the clients once and reopens the client (and feed) the person left, unless they chose
   * or made one while the list was on its way (reopening it would close what they had started:
   * a new client's default feed, its first rows and templates).
   */
  async start(): Promise<void> {
    if (this.hasStarted) return;
    this.hasStarted = true;
    const token = this.selectToken;
    const clients = await this.loadClients();
    if (token !== this.selectToken) return;
    const storedClient = readStored(BUILDER_STORAGE_KEYS.client);
    if (storedClient !== null && clients?.includes(storedClient)) {
      await this.selectClient(storedClient, readStored(BUILDER_STORAGE_KEYS.feed));
    }
  }

  /**
   * Loads the client list. An answer to a call made before a client was created or deleted here
   * is older than the list that call's own answer gave, and is not shown.
   */
  async loadClients(): Promise<string[] | null> {
    const edits = this.clientEdits;
    this.patch({ isLoadingClients: true });
    try {
      const clients = await listClients();
      if (edits !== this.clientEdits) return this.state.get().clients;
      this.patch({ clients });
      return clients;
    } catch (error) {
      reportFailure(error, BUILDER_MESSAGES.fetchClientsFailed);
      return null;
    } finally {
      this.patch({ isLoadingClients: false });
    }
  }

  private targetFor(name: string): FeedSetTarget {
    return {
      key: draftKey(this.userId, 'client', name),
      name,
      savedMessage: BUILDER_MESSAGES.feedsSaved,
      saveFailedMessage: (error, isAutosave) =>
        isAutosave
          ? BUILDER_MESSAGES.saveDataFailed(error)
          : BUILDER_MESSAGES.saveFeedFailed(error),
      save: async (feeds, revision) => {
        const answer = await saveFeeds({
          name,
          feeds,
          ...(revision === undefined ? {} : { revision }),
        });
        return { feeds: answer.feeds, revision: answer.revision };
      },
      load: async () => {
        const bundle = await loadClientBundle(name);
        return { feeds: bundle.feeds, revision: bundle.revisions.feeds };
      },
    };
  }

  /**
   * Makes a client active: its feeds and templates load, and selections and rows are cleared
   * (spec section 4). Unsaved edits of the previous client stay in its draft.
   */
  async selectClient(name: string | null, activeFeed: string | null = null): Promise<void> {
    const token = (this.selectToken += 1);
    await this.editor.flushDraft();
    await this.templateSets.flushDraft();
    this.editor.close();
    this.templateSets.close();
    this.outputs.dropClient();
    this.patch({ client: name, clientId: null, templates: null, isLoadingClient: name !== null });
    writeStored(BUILDER_STORAGE_KEYS.client, name);
    if (name === null) return;
    try {
      const bundle = await loadClientBundle(name);
      if (token !== this.selectToken) return;
      const { feeds, revisions, id, ...templates } = bundle;
      this.patch({ templates, clientId: id });
      void this.templateSets.open(
        draftKey(this.userId, 'client', name),
        name,
        templates,
        revisions,
      );
      await this.editor.open(
        this.targetFor(name),
        { feeds, revision: revisions.feeds },
        { activeFeed },
      );
    } catch (error) {
      if (token !== this.selectToken) return;
      this.patch({ client: null });
      writeStored(BUILDER_STORAGE_KEYS.client, null);
      reportFailure(error, () => BUILDER_MESSAGES.selectClientFailed);
    } finally {
      if (token === this.selectToken) this.patch({ isLoadingClient: false });
    }
  }

  /**
   * Creates a client (name made unique by the server); resolves with its name as soon as the
   * server has made it (the New Client dialog closes then), while the client opens as the active
   * one with its default feed (`opened`, for callers that wait for that too).
   */
  async createClient(name: string): Promise<{ name: string; opened: Promise<void> } | null> {
    let created: string;
    this.clientEdits += 1;
    try {
      const answer = await createClient(name.trim());
      this.patch({ clients: answer.clients });
      created = answer.name;
    } catch (error) {
      reportFailure(error, BUILDER_MESSAGES.createClientFailed);
      return null;
    }
    notifySuccess(BUILDER_MESSAGES.clientCreated(created));
    return { name: created, opened: this.openCreatedClient(created) };
  }

  /** Makes a just-created client active; spec section 3: it starts with the feed 'brands'. */
  private async openCreatedClient(name: string): Promise<void> {
    try {
      await this.selectClient(name);
      if (this.state.get().client === name && this.editor.state.get().feeds.length === 0) {
        this.editor.addFeed(DEFAULT_FEED_NAME);
        await this.editor.save({ isAutosave: true });
      }
    } catch (error) {
      reportFailure(error, () => BUILDER_MESSAGES.selectClientFailed);
    }
  }

  /** Deletes a client with everything it holds; the selection resets when it was active. */
  async deleteClient(name: string): Promise<boolean> {
    this.clientEdits += 1;
    try {
      const clients = await deleteClient(name);
      this.patch({ clients });
      if (this.state.get().client === name) {
        this.selectToken += 1;
        this.editor.close();
        this.templateSets.close();
        this.outputs.dropClient();
        this.patch({ client: null, clientId: null, templates: null, isLoadingClient: false });
        writeStored(BUILDER_STORAGE_KEYS.client, null);
      }
      await this.drafts.remove(draftKey(this.userId, 'client', name)).catch(() => undefined);
      await this.templateSets.removeDraft(draftKey(this.userId, 'client', name));
      notifySuccess(BUILDER_MESSAGES.clientDeleted(name));
      return true;
    } catch (error) {
      reportFailure(error, BUILDER_MESSAGES.deleteClientFailed);
      return false;
    }
  }

  dispose(): void {
    this.sheets.dispose();
    this.editor.dispose();
    this.templateSets.dispose();
  }
}

/** Holds the signed-in user's workspace: made on first use, a new one when the user changes. */
export class BuilderWorkspaceHolder {
  private current: BuilderWorkspace | null = null;

  forUser(userId: string): BuilderWorkspace {
    if (this.current && this.current.userId === userId) return this.current;
    if (this.current) {
      void this.current.editor.flushDraft();
      void this.current.templateSets.flushDraft();
      this.current.dispose();
    }
    this.current = new BuilderWorkspace(userId);
    return this.current;
  }

  /** Signed out: the outputs go (unsaved edits stay in the workspace and its drafts). */
  signedOut(): void {
    this.current?.outputs.dropClient();
  }
}
