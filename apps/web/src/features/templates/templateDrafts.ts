import Dexie, { type Table } from 'dexie';
import type { TemplateKind } from '@adloom/contract';
import type { DraftStorage } from '../../state/revisionedSet/index.ts';
import { keptForPage } from '../../state/pageState.ts';

/** Unsaved template edits of one client, per kind, kept in the browser until saved. */
export interface TemplateDraft {
  /** `${userId}|client|${client}` */
  key: string;
  savedAt: number;
  kinds: Partial<
    Record<
      TemplateKind,
      { templates: unknown[]; baseRevision: number | null; active: string | null }
    >
  >;
}

/** Where template drafts live: IndexedDB in the app, memory in tests. */
export type TemplateDraftStorage = DraftStorage<TemplateDraft>;

class TemplateDraftDatabase extends Dexie {
  templateDrafts!: Table<TemplateDraft, string>;
  constructor() {
    super('adloom-template-drafts');
    this.version(1).stores({ templateDrafts: 'key' });
  }
}

let database: TemplateDraftDatabase | null = null;
keptForPage(() => {
  database?.close();
  database = null;
});

/** Template drafts in IndexedDB (reads that fail answer `undefined`). */
export const indexedDbTemplateDrafts: TemplateDraftStorage = {
  async find(key) {
    try {
      database ??= new TemplateDraftDatabase();
      return await database.templateDrafts.get(key);
    } catch {
      return undefined;
    }
  },
  async put(draft) {
    database ??= new TemplateDraftDatabase();
    await database.templateDrafts.put(draft);
  },
  async remove(key) {
    database ??= new TemplateDraftDatabase();
    await database.templateDrafts.delete(key);
  },
};

/** Removes every template draft of a user from IndexedDB, e.g. when the account is deleted. */
export async function removeUserTemplateDraftsFromIndexedDb(userId: string): Promise<void> {
  database ??= new TemplateDraftDatabase();
  await database.templateDrafts.where('key').startsWith(`${userId}|`).delete();
}
