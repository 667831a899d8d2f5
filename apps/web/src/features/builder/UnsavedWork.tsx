import { useEffect, useRef } from 'react';
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useStore } from '../../state/store.ts';
import type { FeedSetEditor } from './feedSetEditor.ts';

/** The unsaved-changes marker's text. */
export const UNSAVED_LABEL = 'Unsaved changes';

const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The words beside the marker once every unsaved edit is also kept in the browser. */
export const KEPT_LABEL = 'kept in this browser';

/** What the save marker shows. */
export interface SaveMarkerProps {
  isSaving: boolean;
  isDirty: boolean;
  /** Every unsaved edit is in the browser's draft too. */
  isKept: boolean;
  hasSaved: boolean;
}

/** 'Saving…', 'Unsaved changes' (and whether the browser keeps them) or 'All changes saved'. */
export function SaveMarker({ isSaving, isDirty, isKept, hasSaved }: SaveMarkerProps) {
  return (
    <span role="status" aria-live="polite">
      {isSaving ? (
        <Badge color="blue" variant="light">
          Saving…
        </Badge>
      ) : isDirty ? (
        <Group component="span" gap={6} wrap="nowrap" display="inline-flex">
          <Badge color="orange" variant="light">
            {UNSAVED_LABEL}
          </Badge>
          {/* Keeps the two apart in the status's text ("Unsaved changes kept in this browser"). */}
          {isKept ? ' ' : null}
          {isKept ? (
            <Text span size="xs" c="dimmed">
              {KEPT_LABEL}
            </Text>
          ) : null}
        </Group>
      ) : hasSaved ? (
        <Badge color="green" variant="light">
          All changes saved
        </Badge>
      ) : null}
    </span>
  );
}

/** Shows whether the set has unsaved changes, is saving, or is saved. */
export function SaveStatus({ editor }: { editor: FeedSetEditor }) {
  const { isDirty, isSaving, savedAt, key, isDraftKept } = useStore(editor.state);
  if (key === null) return null;
  return (
    <SaveMarker
      isSaving={isSaving}
      isDirty={isDirty}
      isKept={isDraftKept}
      hasSaved={savedAt !== null}
    />
  );
}

/**
 * Keeps unsaved work: asks before the page is left (beforeunload), and writes the draft when
 * the page is hidden or the component goes away. `isDirty` and `flushDraft` are read when
 * needed; `source` names what they belong to (the effect restarts when it changes).
 */
export function useLeavePageGuard(
  source: object,
  isDirty: () => boolean,
  flushDraft: () => unknown,
): void {
  const latest = useRef({ isDirty, flushDraft });
  latest.current = { isDirty, flushDraft };
  useEffect(() => {
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!latest.current.isDirty()) return;
      void latest.current.flushDraft();
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    const handleHide = () => {
      if (latest.current.isDirty()) void latest.current.flushDraft();
    };
    const handleVisibility = () => {
      if (document.visibilityState === 'hidden') handleHide();
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    window.addEventListener('pagehide', handleHide);
    document.addEventListener('visibilitychange', handleVisibility);
    return () => {
      window.removeEventListener('beforeunload', handleBeforeUnload);
      window.removeEventListener('pagehide', handleHide);
      document.removeEventListener('visibilitychange', handleVisibility);
      handleHide();
    };
  }, [source]);
}

/** The feeds' leave-page guard. */
export function useKeepUnsavedWork(editor: FeedSetEditor): void {
  useLeavePageGuard(
    editor,
    () => editor.state.get().isDirty,
    () => editor.flushDraft(),
  );
}

/** The 409 dialog's parts, shared by feeds and templates. */
export interface ConflictModalProps {
  opened: boolean;
  /** What changed elsewhere, as the start of a sentence ("This client's feeds"). */
  what: string;
  isSaving: boolean;
  onClose: () => void;
  onResolve: (choice: 'theirs' | 'mine') => void;
}

/** The 409 dialog: load the newer version, or keep mine and overwrite it. */
export function ConflictModal({ opened, what, isSaving, onClose, onResolve }: ConflictModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="A newer version was saved elsewhere"
      centered
      closeButtonProps={{ 'aria-label': 'Close and keep editing' }}
    >
      <Stack gap="md">
        <Text size="sm">
          {what} changed in another tab or on another device since you loaded them. Load the newer
          version (your unsaved changes here are dropped), or keep yours and overwrite it.
        </Text>
        <Group justify="flex-end" gap="xs" wrap="wrap">
          <Button variant="default" onClick={() => onResolve('theirs')}>
            Load the newer version
          </Button>
          <Button color="orange" loading={isSaving} onClick={() => onResolve('mine')}>
            Keep mine and overwrite
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The feeds' 409 dialog. */
export function ConflictDialog({ editor, what }: { editor: FeedSetEditor; what: string }) {
  const { conflict, isSaving } = useStore(editor.state);
  return (
    <ConflictModal
      opened={conflict !== null}
      what={what}
      isSaving={isSaving}
      onClose={() => editor.dismissConflict()}
      onResolve={(choice) => void editor.resolveConflict(choice)}
    />
  );
}

/** The offer of unsaved edits kept in the browser, shared by feeds and templates. */
export interface DraftOfferModalProps {
  offer: { savedAt: number; isBehind: boolean } | null;
  title: string;
  /** What the kept changes are to ("this client's feeds"). */
  what: string;
  onDiscard: () => void;
  onRestore: () => void;
}

/** Offers unsaved edits kept in the browser from an earlier visit. */
export function DraftOfferModal({
  offer,
  title,
  what,
  onDiscard,
  onRestore,
}: DraftOfferModalProps) {
  return (
    <Modal
      opened={offer !== null}
      onClose={onDiscard}
      closeOnClickOutside={false}
      title={title}
      centered
      withCloseButton={false}
    >
      {offer ? (
        <Stack gap="md">
          <Text size="sm">
            This browser kept changes to {what} from {TIME_FORMAT.format(offer.savedAt)} that were
            never saved.
          </Text>
          {offer.isBehind ? (
            <Text size="sm" c="orange.8">
              They were saved elsewhere since then: restoring and saving will ask before overwriting
              that version.
            </Text>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" color="red" onClick={onDiscard}>
              Discard them
            </Button>
            <Button onClick={onRestore} data-autofocus>
              Restore my changes
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

/** Offers the feeds' unsaved edits kept in the browser from an earlier visit. */
export function DraftOfferDialog({ editor, what }: { editor: FeedSetEditor; what: string }) {
  const { draftOffer } = useStore(editor.state);
  return (
    <DraftOfferModal
      offer={draftOffer}
      title="Restore unsaved changes?"
      what={what}
      onDiscard={() => void editor.discardDraft()}
      onRestore={() => editor.restoreDraft()}
    />
  );
}
