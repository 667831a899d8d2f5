import {
  TEMPLATE_KINDS,
  type ClientBundleAnswer,
  type ClientRevisions,
  type TemplateKind,
  type TemplateOfKind,
} from '@adloom/contract';
import type { ApiError } from '../../api/errors.ts';
import { createStore, type Store } from '../../state/store.ts';
import { TemplateSetEditor } from './templateSetEditor.ts';
import type { TemplateDraft, TemplateDraftStorage } from './templateDrafts.ts';
import { saveTemplates } from './templateApi.ts';

/** Templates of the active client (its bundle without the feeds). */
export type ClientTemplates = Omit<ClientBundleAnswer, 'feeds' | 'revisions'>;

/** Spec sections 4 and 9: sets are saved every 5 minutes while unsaved. */
export const TEMPLATE_AUTOSAVE_INTERVAL_MS = 5 * 60_000;
/** Unsaved edits are written to the browser this long after the last change. */
export const TEMPLATE_DRAFT_DELAY_MS = 800;

/** What the template sets need from the app. */
export interface TemplateSetsDeps {
  drafts: TemplateDraftStorage;
  notify(kind: 'success' | 'error', message: string): void;
  onUnauthorized(error: ApiError): void;
  /** Loads the client's bundle (for the 409 dialog's "load the newer version"). */
  loadBundle(client: string): Promise<ClientTemplates & { revisions: ClientRevisions }>;
  save?: typeof saveTemplates;
  now?: () => number;
}

/** Unsaved template edits from an earlier visit, waiting to be restored or discarded. */
export interface TemplateDraftOffer {
  savedAt: number;
  isBehind: boolean;
}

/** A set as comparable text: keys sorted, server ids left out (a save adds them). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (key === '_id') return undefined;
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    return v;
  });
}

type Editors = { [K in TemplateKind]: TemplateSetEditor<K> };

/**
 * The five template kinds of the active client: one TemplateSetEditor each, autosave every 5
 * minutes, unsaved edits written to IndexedDB (one draft per client, all kinds) and offered
 * back on the next visit.
 */
export class TemplateSets {
  private readonly editors: Editors;
  readonly draftOffer: Store<TemplateDraftOffer | null> = createStore<TemplateDraftOffer | null>(
    null,
  );
  /** Every unsaved template edit is also kept in this browser. */
  readonly isDraftKept: Store<boolean> = createStore(false);
  /** Counts edits, so a draft written while another came in is not taken as holding it. */
  private changes = 0;
  private key: string | null = null;
  private client: string | null = null;
  private pendingDraft: TemplateDraft | null = null;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  private autosaveTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly deps: TemplateSetsDeps) {
    const make = <K extends TemplateKind>(kind: K) =>
      new TemplateSetEditor(kind, {
        notify: deps.notify,
        onUnauthorized: deps.onUnauthorized,
        onChange: () => this.scheduleDraft(),
        // A save that leaves the sets clean must not leave a stale draft behind for a reload.
        onSaved: () => void this.flushDraft(),
        now: deps.now,
      });
    this.editors = {
      campaignTemplates: make('campaignTemplates'),
      adTemplates: make('adTemplates'),
      rsaTemplates: make('rsaTemplates'),
      performanceMaxTemplates: make('performanceMaxTemplates'),
      extensionTemplates: make('extensionTemplates'),
    };
  }

  /** The editor of one kind. */
  get<K extends TemplateKind>(kind: K): TemplateSetEditor<K> {
    return this.editors[kind] as unknown as TemplateSetEditor<K>;
  }

  /** Every editor. */
  all(): TemplateSetEditor<TemplateKind>[] {
    return TEMPLATE_KINDS.map(
      (kind) => this.editors[kind] as unknown as TemplateSetEditor<TemplateKind>,
    );
  }

  /** Whether any kind has unsaved edits. */
  get isDirty(): boolean {
    return this.all().some((e) => e.state.get().isDirty);
  }

  /** Opens a client's templates as loaded, then offers a draft of them if one was kept. */
  async open(
    key: string,
    client: string,
    templates: ClientTemplates,
    revisions: ClientRevisions,
  ): Promise<void> {
    this.cancelDraftTimer();
    this.key = key;
    this.client = client;
    this.pendingDraft = null;
    this.draftOffer.set(null);
    this.isDraftKept.set(false);
    for (const kind of TEMPLATE_KINDS)
      this.openKind(kind, client, templates[kind], revisions[kind]);
    const draft = await this.deps.drafts.find(key);
    if (!draft || this.key !== key || this.isDirty) return;
    // A draft that holds exactly what was loaded has nothing to restore.
    const isSameAsLoaded = Object.entries(draft.kinds).every(
      ([kind, part]) =>
        !part || canonical(part.templates) === canonical(templates[kind as TemplateKind]),
    );
    if (isSameAsLoaded) {
      await this.deps.drafts.remove(key).catch(() => undefined);
      return;
    }
    this.pendingDraft = draft;
    const isBehind = Object.entries(draft.kinds).some(
      ([kind, part]) => part && part.baseRevision !== revisions[kind as TemplateKind],
    );
    this.draftOffer.set({ savedAt: draft.savedAt, isBehind });
  }

  private openKind<K extends TemplateKind>(
    kind: K,
    client: string,
    templates: TemplateOfKind[K][],
    revision: number,
  ): void {
    const save = this.deps.save ?? saveTemplates;
    this.get(kind).open(
      {
        name: client,
        save: async (next, rev) => {
          const answer = await save(kind, {
            name: client,
            templates: next,
            ...(rev === undefined ? {} : { revision: rev }),
          });
          return { templates: answer.templates, revision: answer.revision };
        },
        load: async () => {
          const bundle = await this.deps.loadBundle(client);
          return {
            templates: bundle[kind] as TemplateOfKind[K][],
            revision: bundle.revisions[kind],
          };
        },
      },
      { templates, revision },
    );
  }

  /** Stops editing (call flushDraft first to keep edits). */
  close(): void {
    this.cancelDraftTimer();
    this.key = null;
    this.client = null;
    this.pendingDraft = null;
    this.draftOffer.set(null);
    this.isDraftKept.set(false);
    for (const editor of this.all()) editor.close();
  }

  /** The client being edited. */
  get clientName(): string | null {
    return this.client;
  }

  restoreDraft(): void {
    const draft = this.pendingDraft;
    this.pendingDraft = null;
    this.draftOffer.set(null);
    if (!draft) return;
    for (const kind of TEMPLATE_KINDS) {
      const part = draft.kinds[kind];
      if (part)
        this.get(kind).restore(
          part as {
            templates: TemplateOfKind[typeof kind][];
            baseRevision: number | null;
            active: string | null;
          },
        );
    }
  }

  async discardDraft(): Promise<void> {
    const key = this.key;
    this.pendingDraft = null;
    this.draftOffer.set(null);
    if (key) await this.deps.drafts.remove(key).catch(() => undefined);
  }

  /** Forgets the draft of a client (it was deleted). */
  async removeDraft(key: string): Promise<void> {
    await this.deps.drafts.remove(key).catch(() => undefined);
  }

  /** Saves every kind with unsaved edits (quietly). */
  async saveDirty(): Promise<void> {
    for (const editor of this.all()) {
      const s = editor.state.get();
      if (s.isOpen && s.isDirty && !s.isSaving && !s.conflict)
        await editor.save({ isAutosave: true });
    }
  }

  startAutosave(): void {
    this.stopAutosave();
    this.autosaveTimer = setInterval(() => {
      if (this.draftOffer.get() === null) void this.saveDirty();
    }, TEMPLATE_AUTOSAVE_INTERVAL_MS);
  }

  stopAutosave(): void {
    if (this.autosaveTimer !== undefined) clearInterval(this.autosaveTimer);
    this.autosaveTimer = undefined;
  }

  private cancelDraftTimer(): void {
    if (this.draftTimer !== undefined) clearTimeout(this.draftTimer);
    this.draftTimer = undefined;
  }

  private scheduleDraft(): void {
    this.changes += 1;
    if (this.isDraftKept.get()) this.isDraftKept.set(false);
    if (!this.key || this.draftOffer.get()) return;
    this.cancelDraftTimer();
    this.draftTimer = setTimeout(() => {
      this.draftTimer = undefined;
      void this.writeDraft();
    }, TEMPLATE_DRAFT_DELAY_MS);
  }

  /** Writes unsaved edits now (leaving the page, switching client). */
  async flushDraft(): Promise<void> {
    this.cancelDraftTimer();
    await this.writeDraft();
  }

  private async writeDraft(): Promise<void> {
    const key = this.key;
    if (!key || this.draftOffer.get()) return;
    const changes = this.changes;
    const kinds: TemplateDraft['kinds'] = {};
    for (const kind of TEMPLATE_KINDS) {
      const s = this.get(kind).state.get();
      if (s.isDirty)
        kinds[kind] = { templates: s.templates, baseRevision: s.revision, active: s.active };
    }
    try {
      if (Object.keys(kinds).length === 0) await this.deps.drafts.remove(key);
      else await this.deps.drafts.put({ key, savedAt: (this.deps.now ?? Date.now)(), kinds });
      if (this.changes === changes && this.key === key) this.isDraftKept.set(true);
    } catch {
      // No room or no IndexedDB: the edits stay in memory and the marker shows.
    }
  }

  dispose(): void {
    this.stopAutosave();
    this.cancelDraftTimer();
  }
}
