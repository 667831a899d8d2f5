import { useEffect, useState } from 'react';
import type { TemplateKind } from '@adloom/contract';
import { useStore } from '../../state/store.ts';
import type { FeedSetEditor } from './feedSetEditor.ts';
import { ConflictModal, DraftOfferModal, SaveMarker, useLeavePageGuard } from './UnsavedWork.tsx';
import type { TemplateSetEditor } from '../templates/templateSetEditor.ts';
import type { TemplateSets } from '../templates/templateSets.ts';

/** How each kind is named in the dialogs. */
export const TEMPLATE_KIND_NAMES: Record<TemplateKind, string> = {
  campaignTemplates: 'campaign templates',
  adTemplates: 'legacy ad templates',
  rsaTemplates: 'responsive search ad templates',
  performanceMaxTemplates: 'Performance Max templates',
  extensionTemplates: 'extension templates',
};

/** Re-renders on any change of any kind; returns the editors. */
function useTemplateSetsVersion(sets: TemplateSets): TemplateSetEditor<TemplateKind>[] {
  const [, setTick] = useState(0);
  useEffect(() => {
    const offs = sets.all().map((e) => e.state.subscribe(() => setTick((t) => t + 1)));
    return () => offs.forEach((off) => off());
  }, [sets]);
  return sets.all();
}

/**
 * The 409 dialog for templates, worded like the feeds' one: load the newer version, or keep
 * mine and overwrite it.
 */
export function TemplateConflictDialog({ sets }: { sets: TemplateSets }) {
  const editors = useTemplateSetsVersion(sets);
  const states = editors.map((e) => e.state.get());
  const index = states.findIndex((s) => s.conflict !== null);
  const editor = index >= 0 ? editors[index] : undefined;
  return (
    <ConflictModal
      opened={editor !== undefined}
      what={editor ? `This client's ${TEMPLATE_KIND_NAMES[editor.kind]}` : ''}
      isSaving={index >= 0 && (states[index]?.isSaving ?? false)}
      onClose={() => editor?.dismissConflict()}
      onResolve={(choice) => void editor?.resolveConflict(choice)}
    />
  );
}

/**
 * Offers unsaved template edits kept in the browser from an earlier visit, once the feeds'
 * offer (`feeds`) is answered: the two never stack on load.
 */
export function TemplateDraftOfferDialog({
  sets,
  feeds,
}: {
  sets: TemplateSets;
  feeds: FeedSetEditor;
}) {
  const offer = useStore(sets.draftOffer);
  const feedOffer = useStore(feeds.state).draftOffer;
  return (
    <DraftOfferModal
      offer={feedOffer === null ? offer : null}
      title="Restore unsaved template changes?"
      what="this client's templates"
      onDiscard={() => void sets.discardDraft()}
      onRestore={() => sets.restoreDraft()}
    />
  );
}

/**
 * The page's save marker over feeds and every template kind: 'Saving…', 'Unsaved changes' or
 * 'All changes saved'.
 */
export function WorkspaceSaveStatus({ feeds, sets }: { feeds: FeedSetEditor; sets: TemplateSets }) {
  const feedState = useStore(feeds.state);
  const editors = useTemplateSetsVersion(sets);
  const areTemplatesKept = useStore(sets.isDraftKept);
  const templateStates = editors.map((e) => e.state.get());
  if (feedState.key === null) return null;
  const areTemplatesDirty = templateStates.some((s) => s.isDirty);
  return (
    <SaveMarker
      isSaving={feedState.isSaving || templateStates.some((s) => s.isSaving)}
      isDirty={feedState.isDirty || areTemplatesDirty}
      isKept={
        (!feedState.isDirty || feedState.isDraftKept) && (!areTemplatesDirty || areTemplatesKept)
      }
      hasSaved={feedState.savedAt !== null || templateStates.some((s) => s.savedAt !== null)}
    />
  );
}

/** Asks before leaving with unsaved templates, and writes their draft when the page hides. */
export function useKeepUnsavedTemplates(sets: TemplateSets): void {
  useLeavePageGuard(
    sets,
    () => sets.isDirty,
    () => sets.flushDraft(),
  );
}
