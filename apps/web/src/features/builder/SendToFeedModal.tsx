import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  Anchor,
  Button,
  Group,
  Modal,
  NativeSelect,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { NAME_MAX_CHARS } from '@adloom/contract';
import { formatRows, type FeedStore } from '../feed-grid/index.ts';
import { useStore } from '../../state/store.ts';
import { notifySuccess } from '../../state/notifications.ts';
import { useBuilderWorkspace } from './useBuilderWorkspace.ts';

/** The name a new feed of combinations starts with. */
const NEW_FEED_NAME = 'combinations';

type Destination = 'existing' | 'new';

/**
 * Sends the rows of `store` (the keyword combiner's table) to the active client's feeds: added
 * under the rows of a feed the person picks (one undoable step in the builder's grid) or as a
 * new feed. Then the builder opens on that feed, its status line saying what arrived.
 */
export function SendToFeedModal({
  store,
  opened,
  onClose,
}: {
  store: FeedStore;
  opened: boolean;
  onClose: () => void;
}) {
  const workspace = useBuilderWorkspace();
  const navigate = useNavigate();
  const { client, isLoadingClient, isLoadingClients } = useStore(workspace.state);
  const { feeds, activeFeed } = useStore(workspace.editor.state);
  const [destination, setDestination] = useState<Destination>('existing');
  const [feedName, setFeedName] = useState('');
  const [newName, setNewName] = useState(NEW_FEED_NAME);
  const rowCount = store.rowCount;
  const rowsText = formatRows(rowCount);
  const target = feeds.some((feed) => feed.name === feedName)
    ? feedName
    : (activeFeed ?? feeds[0]?.name ?? '');
  const isNew = destination === 'new' || feeds.length === 0;
  const canSend =
    client !== null && rowCount > 0 && (isNew ? newName.trim() !== '' : target !== '');

  useEffect(() => {
    if (opened) void workspace.start();
  }, [opened, workspace]);

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSend || client === null) return;
    const editor = workspace.editor;
    const rows = store.toFeedRows();
    let message: string;
    if (isNew) {
      const name = editor.addFeedWithRows(newName, rows);
      message = `Made the feed ${name} of ${client} with ${rowsText} from the Keyword Combiner.`;
    } else {
      editor.selectFeed(target);
      const added = editor.appendRows(rows);
      message = `Added ${formatRows(added)} from the Keyword Combiner to the feed ${target} of ${client}.`;
    }
    editor.store.announce({ kind: 'success', message });
    notifySuccess(message);
    onClose();
    void navigate('/campaign-builder');
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Send to Feed" centered>
      {client === null ? (
        <Stack gap="md">
          <Text size="sm">
            {isLoadingClients || isLoadingClient
              ? 'Loading your clients…'
              : 'Rows go to a feed of the active client. Choose or create a client in the Campaign Builder first.'}
          </Text>
          <Group justify="flex-end">
            <Anchor component={Link} to="/campaign-builder">
              Open the Campaign Builder
            </Anchor>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit} aria-label="Send to Feed">
          <Stack gap="md">
            <Radio.Group
              label={`Send ${rowsText} to a feed of ${client}`}
              value={isNew ? 'new' : 'existing'}
              onChange={(value) => setDestination(value as Destination)}
            >
              <Stack gap="xs" mt="xs">
                <Radio
                  value="existing"
                  label="Add them under the rows of a feed"
                  disabled={feeds.length === 0}
                />
                <Radio value="new" label="Make a new feed of them" />
              </Stack>
            </Radio.Group>
            {isNew ? (
              <TextInput
                label="Feed name"
                required
                value={newName}
                maxLength={NAME_MAX_CHARS}
                onChange={(event) => setNewName(event.currentTarget.value)}
              />
            ) : (
              <NativeSelect
                label="Feed"
                value={target}
                data={feeds.map((feed) => feed.name)}
                onChange={(event) => setFeedName(event.currentTarget.value)}
              />
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={!canSend}>
                Send to Feed
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
