import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { NAME_MAX_CHARS } from '@adloom/contract';

/** Spec section 5: the new-item modal's submit button. */
export const ADD_NEW_LABEL = 'Add New';

/**
 * The new-item modal (spec section 2): a required name; 'Add New' is enabled only with a
 * non-blank name. The caller makes the name unique.
 */
export function NewItemModal({
  opened,
  title,
  label = 'Name',
  initialName = '',
  onClose,
  onSubmit,
}: {
  opened: boolean;
  title: string;
  label?: string;
  initialName?: string;
  onClose: () => void;
  onSubmit: (name: string) => void | Promise<unknown>;
}) {
  const [name, setName] = useState(initialName);
  const [isBusy, setIsBusy] = useState(false);
  useEffect(() => {
    if (opened) setName(initialName);
  }, [opened, initialName]);
  const isValid = name.trim() !== '';

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isValid || isBusy) return;
    setIsBusy(true);
    try {
      await onSubmit(name.trim());
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form onSubmit={(event) => void handleSubmit(event)} aria-label={title}>
        <Stack gap="md">
          <TextInput
            label={label}
            required
            data-autofocus
            value={name}
            maxLength={NAME_MAX_CHARS}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!isValid} loading={isBusy}>
              {ADD_NEW_LABEL}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The confirm-delete modal. */
export function ConfirmModal({
  opened,
  title,
  children,
  confirmLabel = 'Delete',
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  onClose: () => void;
  onConfirm: () => void | Promise<unknown>;
}) {
  const [isBusy, setIsBusy] = useState(false);

  async function handleConfirm() {
    setIsBusy(true);
    try {
      await onConfirm();
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        <Text size="sm">{children}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red.9" onClick={() => void handleConfirm()} loading={isBusy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
