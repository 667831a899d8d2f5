import { useState } from 'react';
import { Button, Group, Text, Title } from '@mantine/core';
import { Combiner } from '../features/combiner/index.ts';
import { FeedGrid, FeedStore, type FeedGridNotice } from '../features/feed-grid/index.ts';
import { TABLE_COPIED_MESSAGE, copyToClipboard } from '../components/clipboard.ts';
import { formatStoreAsTsv } from '../features/feed-grid/copyTable.ts';
import { notifyError, notifySuccess } from '../state/notifications.ts';
import { describeLocalFailure } from '../state/localFailure.ts';
import { useFeedStoreVersion } from '../features/feed-grid/useFeedStoreVersion.ts';
import { SendToFeedModal } from '../features/builder/SendToFeedModal.tsx';
import { useSession } from '../state/useSession.ts';
import '../features/combiner/seedsFit.css';
import './CombinationsPage.css';

function createResultStore(): FeedStore {
  const store = new FeedStore();
  store.load([]);
  return store;
}

function mirrorNotice(notice: FeedGridNotice): void {
  if (notice.kind === 'error') notifyError(notice.message);
}

/**
 * /combinations, open to visitors: the five seed boxes with links, Combine, and the resulting
 * table with Copy (and, signed in, Send to Feed). Each Combine adds its rows under the ones
 * already made (Clear Table empties it).
 */
export function CombinationsPage() {
  const [store] = useState(createResultStore);
  useFeedStoreVersion(store);
  const isSignedIn = useSession() !== null;
  const [isCopying, setIsCopying] = useState(false);
  const [isSendOpen, setIsSendOpen] = useState(false);
  const hasRows = store.rowCount > 0;

  async function handleCopy() {
    setIsCopying(true);
    try {
      const text = formatStoreAsTsv(store);
      await copyToClipboard(text);
      notifySuccess(TABLE_COPIED_MESSAGE);
    } catch (error) {
      notifyError(`Could not copy the table: ${describeLocalFailure(error)}`);
    } finally {
      setIsCopying(false);
    }
  }

  return (
    <div className="combinations-page">
      <Title order={1}>Keyword Combiner</Title>
      <Text c="dimmed" mb="md">
        Type one value per line in each box. Combine makes every combination of the filled boxes;
        linked neighbours are paired line by line instead.
      </Text>
      <div className="seeds-fit">
        <Combiner store={store} />
      </div>
      <section className="combinations-page__result" aria-labelledby="combinations-result">
        <Group justify="space-between" align="center" mb="xs" wrap="wrap">
          <Title order={2} size="h4" id="combinations-result">
            Combinations
          </Title>
          <Group gap="xs">
            <Button
              variant="default"
              onClick={() => {
                store.reset();
              }}
              disabled={!hasRows}
            >
              Clear Table
            </Button>
            <Button onClick={() => void handleCopy()} disabled={!hasRows} loading={isCopying}>
              Copy
            </Button>
            {isSignedIn ? (
              <Button variant="light" onClick={() => setIsSendOpen(true)} disabled={!hasRows}>
                Send to Feed
              </Button>
            ) : null}
          </Group>
        </Group>
        <FeedGrid store={store} label="Combinations" height={420} onNotice={mirrorNotice} />
      </section>
      {isSignedIn ? (
        <SendToFeedModal store={store} opened={isSendOpen} onClose={() => setIsSendOpen(false)} />
      ) : null}
    </div>
  );
}
