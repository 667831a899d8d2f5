import { ApiError, statusOf } from '../../api/errors.ts';
import type { Store } from '../store.ts';

/** Texts of saving shared by every set. */
export const REVISIONED_SET_MESSAGES = {
  conflictLoadFailed: (error: string) =>
    `This was saved elsewhere, and the newer version could not be loaded: ${error}`,
  draftUnreadable: 'The changes kept in this browser could not be read.',
} as const;

/** How a save ended. */
export type SaveOutcome = 'saved' | 'conflict' | 'failed' | 'refused';

/** The text of an error for a message. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The saving part of a set's observable state. */
export interface RevisionedState<C extends { revision: number }> {
  /** The server revision the edits are made on (null before the first save of a new set). */
  revision: number | null;
  isDirty: boolean;
  isSaving: boolean;
  /** Epoch ms of the last save that reached the server. */
  savedAt: number | null;
  /** A save met a newer revision: the newer set, to load or overwrite. */
  conflict: C | null;
}

/** What differs between sets: what is sent, where, and what the answers change. */
export interface RevisionedSetAdapter<T, P, A extends { revision: number }, C, S> {
  /** Where the set is saved (null: nothing open). A save answered after it changed is ignored. */
  target(): T | null;
  /** What a save sends, or null when it must not go out (the adapter told the person why). */
  collect(): P | null;
  send(target: T, payload: P, revision: number | undefined): Promise<A>;
  /** The set as the server now has it (after a 409). */
  loadTheirs(target: T): Promise<C>;
  /** State taken from a save's answer (e.g. server ids), read after the answer arrived. */
  savedState(answer: A): Partial<S>;
  /** Puts the newer version in place of the edits (revision, unsaved flag and conflict follow). */
  applyTheirs(conflict: C): void;
  /** A save or a loaded newer version reached the set; `isClean`: no edit came in meanwhile. */
  afterSaved(isClean: boolean): Promise<void>;
  /** A save failed for another reason than a newer revision. */
  afterFailed(): void;
  savedMessage(target: T): string;
  failedMessage(target: T, error: string, isAutosave: boolean): string;
}

/** What saving needs from the app. */
export interface RevisionedSetDeps {
  /** Shows a toast; an error carries the HTTP status of the failed call (none without an answer). */
  notify(kind: 'success' | 'error', message: string, status?: number): void;
  /** A save refused because the session ended (401): the generic handler. */
  onUnauthorized(error: ApiError): void;
  now?: () => number;
}

/**
 * Saves a set against the revision it was loaded at: a 409 loads the newer version as a
 * conflict to resolve (load theirs, or save mine over it), a 401 goes to the session handler,
 * other failures keep every edit and say why. Counts edits, so a save answered after another
 * edit leaves the set unsaved.
 */
export class RevisionedSaver<
  T,
  P,
  A extends { revision: number },
  C extends { revision: number },
  S extends RevisionedState<C>,
> {
  private edits = 0;

  constructor(
    private readonly state: Store<S>,
    private readonly adapter: RevisionedSetAdapter<T, P, A, C, S>,
    private readonly deps: RevisionedSetDeps,
  ) {}

  private patch(update: Partial<S>): void {
    this.state.set((s) => ({ ...s, ...update }));
  }

  /** Notes an edit (or a replaced set): a save already under way does not cover it. */
  edited(): void {
    this.edits += 1;
  }

  /** Whether an autosave is due: unsaved edits, no save under way, no conflict open. */
  isAutosaveDue(): boolean {
    const { isDirty, isSaving, conflict } = this.state.get();
    return isDirty && !isSaving && !conflict && this.adapter.target() !== null;
  }

  /** Saves the whole set against the loaded revision (or `revision`, to overwrite theirs). */
  async save(options: { revision?: number; isAutosave?: boolean } = {}): Promise<SaveOutcome> {
    const target = this.adapter.target();
    const state = this.state.get();
    if (target === null || state.isSaving) return 'refused';
    const payload = this.adapter.collect();
    if (payload === null) return 'refused';
    const edits = this.edits;
    this.patch({ isSaving: true } as Partial<S>);
    try {
      const answer = await this.adapter.send(
        target,
        payload,
        options.revision ?? state.revision ?? undefined,
      );
      if (this.adapter.target() !== target) return 'saved';
      const isClean = this.edits === edits;
      // The set is saved, but 'Saving…' stays until the browser's draft is gone: a person who
      // leaves on 'All changes saved' would otherwise find the draft offered back next time.
      this.patch({
        ...this.adapter.savedState(answer),
        revision: answer.revision,
        savedAt: (this.deps.now ?? Date.now)(),
        isDirty: !isClean,
        conflict: null,
      });
      try {
        await this.adapter.afterSaved(isClean);
      } finally {
        this.patch({ isSaving: false } as Partial<S>);
      }
      if (!options.isAutosave) this.deps.notify('success', this.adapter.savedMessage(target));
      return 'saved';
    } catch (error) {
      this.patch({ isSaving: false } as Partial<S>);
      if (this.adapter.target() !== target) return 'failed';
      if (error instanceof ApiError && error.status === 409) {
        try {
          const theirs = await this.adapter.loadTheirs(target);
          this.patch({ conflict: theirs } as Partial<S>);
          return 'conflict';
        } catch (loadError) {
          this.deps.notify(
            'error',
            REVISIONED_SET_MESSAGES.conflictLoadFailed(describeError(loadError)),
            statusOf(loadError),
          );
          return 'failed';
        }
      }
      this.adapter.afterFailed();
      if (error instanceof ApiError && error.status === 401) this.deps.onUnauthorized(error);
      else
        this.deps.notify(
          'error',
          this.adapter.failedMessage(target, describeError(error), options.isAutosave === true),
          statusOf(error),
        );
      return 'failed';
    }
  }

  /** Resolves a conflict: load the newer version, or save mine over it. */
  async resolveConflict(choice: 'theirs' | 'mine'): Promise<SaveOutcome | 'loaded'> {
    const { conflict } = this.state.get();
    if (!conflict || this.adapter.target() === null) return 'refused';
    if (choice === 'mine') {
      this.patch({ conflict: null } as Partial<S>);
      return this.save({ revision: conflict.revision });
    }
    this.edits += 1;
    this.adapter.applyTheirs(conflict);
    this.patch({ revision: conflict.revision, isDirty: false, conflict: null } as Partial<S>);
    await this.adapter.afterSaved(true);
    return 'loaded';
  }

  /** Closes the conflict dialog without choosing: the edits stay, unsaved. */
  dismissConflict(): void {
    this.patch({ conflict: null } as Partial<S>);
  }
}
