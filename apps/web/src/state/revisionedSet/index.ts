// One path for saving a revisioned set (feeds, lists, templates): save against the loaded
// revision, a 409 as a conflict to resolve, unsaved edits kept in the browser, autosave.
export { Autosave, AUTOSAVE_INTERVAL_MS } from './autosave.ts';
export { DraftKeeper, DRAFT_DELAY_MS } from './draftKeeper.ts';
export { createMemoryDraftStorage, type DraftStorage } from './draftStorage.ts';
export {
  RevisionedSaver,
  REVISIONED_SET_MESSAGES,
  describeError,
  type RevisionedSetDeps,
  type SaveOutcome,
} from './revisionedSaver.ts';
export { realTimers, type Timers } from './timers.ts';
