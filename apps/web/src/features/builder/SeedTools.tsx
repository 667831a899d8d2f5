import { useState } from 'react';
import { Button, Modal, NativeSelect, Stack, Group, TextInput, Text } from '@mantine/core';
import { NAME_MAX_CHARS } from '@adloom/contract';
import { useStore } from '../../state/store.ts';
import { LIST_MESSAGES, findLists, listsSource } from './listsSource.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { parseSeedText, SEED_LABELS } from '../combiner/index.ts';
import { ApiError } from '../../api/errors.ts';
import { handleApiError } from '../../api/client.ts';
import { track } from '../../api/analytics.ts';
import type { StoredFeed } from '@adloom/contract';
import { useSheetsBusy } from '../sheets/index.ts';
import { useBuilderWorkspace } from './useBuilderWorkspace.ts';

/** Spec section 7: a list saved from the save-list modal records a create-item event of type feed. */
const SAVE_LIST_EVENT = { name: 'create-item', type: 'feed' } as const;

/**
 * Under each seed box: a list dropdown that fills the box with a list's root values, and Save
 * List, which saves the box's lines as a new list (save-list modal; the backdrop closes it).
 */
export function SeedTools({
  column,
  text,
  setText,
}: {
  column: number;
  text: string;
  setText: (text: string) => void;
}) {
  const label = SEED_LABELS[column] ?? `Box ${column + 1}`;
  const lists = findLists(useStore(listsSource));
  const [isSaveOpen, setIsSaveOpen] = useState(false);
  const values = parseSeedText(text);
  const { sheets } = useBuilderWorkspace();
  const isSheetBusy = useSheetsBusy(sheets);

  /** Fills the box with a list's root values (a linked list's from its sheet). */
  async function fill(list: StoredFeed) {
    const rows = await sheets.readRows(list);
    if (rows === null) return;
    setText(
      rows
        .map((row) => row.root)
        .filter(Boolean)
        .join('\n'),
    );
  }

  return (
    <div className="seed-tools">
      <NativeSelect
        size="xs"
        aria-label={`List for ${label}`}
        value=""
        data={[
          { value: '', label: 'Fill from list…' },
          ...lists.map((list) => ({ value: list.name, label: list.name })),
        ]}
        disabled={isSheetBusy}
        onChange={(event) => {
          const list = lists.find((l) => l.name === event.currentTarget.value);
          if (list) void fill(list);
        }}
      />
      <Button
        size="compact-xs"
        variant="default"
        aria-label={`Save List: ${label}`}
        disabled={values.length === 0}
        onClick={() => setIsSaveOpen(true)}
      >
        Save List
      </Button>
      <SaveListModal
        opened={isSaveOpen}
        values={values}
        sourceLabel={label}
        onClose={() => setIsSaveOpen(false)}
      />
    </div>
  );
}

/** The save-list modal: a name, and the box's values saved as a list of roots. */
export function SaveListModal({
  opened,
  values,
  sourceLabel,
  onClose,
}: {
  opened: boolean;
  values: string[];
  sourceLabel: string;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [isBusy, setIsBusy] = useState(false);

  async function handleSave() {
    if (name.trim() === '') return;
    setIsBusy(true);
    try {
      await listsSource.saveNewList(name, values);
      onClose();
      track(SAVE_LIST_EVENT);
      setName('');
      notifySuccess(LIST_MESSAGES.saved);
    } catch (error) {
      if (error instanceof ApiError && (error.status > 499 || error.status === 401))
        handleApiError(error);
      else notifyError(LIST_MESSAGES.saveFailed);
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Save List" centered closeOnClickOutside>
      <form
        aria-label="Save List"
        onSubmit={(event) => {
          event.preventDefault();
          void handleSave();
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Saves the {values.length} {values.length === 1 ? 'value' : 'values'} of {sourceLabel} as
            a list you can use in any client.
          </Text>
          <TextInput
            label="List name"
            required
            data-autofocus
            maxLength={NAME_MAX_CHARS}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={name.trim() === ''} loading={isBusy}>
              Save List
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
