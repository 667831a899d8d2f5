import { useEffect, useState } from 'react';
import type { StoredFeed } from '@adloom/contract';
import { Button, Group, NativeSelect, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useStore } from '../../state/store.ts';
import { Combiner } from '../combiner/index.ts';
import { FeedGrid, type FeedGridNotice } from '../feed-grid/index.ts';
import { findLists, listsSource } from './listsSource.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { BUILDER_MESSAGES } from './builderWorkspace.ts';
import { useBuilderWorkspace } from './useBuilderWorkspace.ts';
import { reportFailure } from './failures.ts';
import { ConfirmModal, NewItemModal } from '../../components/modals.tsx';
import { SeedTools } from './SeedTools.tsx';
import { GeoFeedModal } from '../geo/index.ts';
import { XmlFeedPanel } from '../xml-feeds/index.ts';
import {
  LINKED_FEED_MARKER,
  LinkSheetButton,
  SheetBusyArea,
  SheetPanel,
  useSheetsBusy,
} from '../sheets/index.ts';
import '../combiner/seedsFit.css';

function mirrorNotice(notice: FeedGridNotice): void {
  if (notice.kind === 'error') notifyError(notice.message);
}

/**
 * Spec section 2, Data Table section: feed and list dropdowns, New Feed, New Geo Feed, Save
 * Feeds, Link New Sheet, Delete Feed, the XML feed panel (users with the XML tools), the linked
 * sheet's row, the feed grid (with CSV import) and the footer
 * with the seed boxes and the combiner. While a sheet call runs the toolbar is disabled.
 */
export function DataTableSection() {
  const workspace = useBuilderWorkspace();
  const { client } = useStore(workspace.state);
  const editor = workspace.editor;
  const { feeds, activeFeed, isSaving, key } = useStore(editor.state);
  const isSheetBusy = useSheetsBusy(workspace.sheets);
  const active = feeds.find((feed) => feed.name === activeFeed) ?? null;
  const listsSnapshot = useStore(listsSource);
  const lists = findLists(listsSnapshot);
  const tables = listsSnapshot?.feeds.filter((feed) => feed.dataType === 'table') ?? [];
  const addable = [...tables, ...lists];
  const [isNewOpen, setIsNewOpen] = useState(false);
  const [isGeoOpen, setIsGeoOpen] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  const isNarrow = useMediaQuery('(max-width: 700px)');

  /** 'add list to rows': a linked list's rows come from its sheet. */
  async function appendList(list: StoredFeed) {
    const rows = await workspace.sheets.readRows(list);
    if (rows === null || editor.state.get().activeFeed === null) return;
    const count = editor.appendRows(rows);
    // Said in the grid's status line, under the rows it speaks of (Undo takes it away).
    editor.store.announce(
      count === 0
        ? { kind: 'info', message: `${list.name} has no rows: nothing was added.` }
        : {
            kind: 'success',
            message: `Added ${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'} from ${list.name}.`,
          },
    );
  }

  useEffect(() => {
    if (listsSource.get() === null)
      listsSource
        .refresh()
        .catch((error: unknown) => reportFailure(error, BUILDER_MESSAGES.fetchFeedsFailed));
  }, []);

  if (client === null || key === null) {
    return (
      <section className="builder-section" aria-labelledby="data-heading">
        <Title order={2} size="h4" id="data-heading" className="builder-section__title">
          Data Table
        </Title>
        <Text c="dimmed" size="sm">
          Choose or create a client to see its feeds.
        </Text>
      </section>
    );
  }

  return (
    <section className="builder-section" aria-labelledby="data-heading">
      <Title order={2} size="h4" id="data-heading" className="builder-section__title">
        Data Table
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap" mb="sm">
        <NativeSelect
          className="builder-select"
          label="Feed"
          value={activeFeed ?? ''}
          disabled={isSheetBusy}
          data={[
            { value: '', label: feeds.length === 0 ? 'No feeds yet' : 'Select a feed' },
            ...feeds.map((feed) => ({
              value: feed.name,
              label: feed.sheetUrl ? `${feed.name} ${LINKED_FEED_MARKER}` : feed.name,
            })),
          ]}
          onChange={(event) => editor.selectFeed(event.currentTarget.value || null)}
        />
        <NativeSelect
          className="builder-select"
          label="List"
          value=""
          disabled={activeFeed === null || addable.length === 0 || isSheetBusy}
          data={[
            { value: '', label: 'add list to rows' },
            ...[
              { group: 'Data Tables', items: tables },
              { group: 'Lists', items: lists },
            ]
              .filter((group) => group.items.length > 0)
              .map((group) => ({
                group: group.group,
                items: group.items.map((item) => ({ value: item.name, label: item.name })),
              })),
          ]}
          onChange={(event) => {
            const list = addable.find((l) => l.name === event.currentTarget.value);
            if (list) void appendList(list);
          }}
        />
        <Button variant="default" onClick={() => setIsNewOpen(true)} disabled={isSheetBusy}>
          New Feed
        </Button>
        <Button variant="default" onClick={() => setIsGeoOpen(true)} disabled={isSheetBusy}>
          New Geo Feed
        </Button>
        <Button onClick={() => void editor.save()} loading={isSaving} disabled={isSheetBusy}>
          Save Feeds
        </Button>
        {activeFeed !== null ? (
          <LinkSheetButton sheets={workspace.sheets} itemName={activeFeed} disabled={isSheetBusy} />
        ) : null}
        {activeFeed !== null ? (
          <Button
            variant="light"
            color="red"
            onClick={() => setIsDeleteOpen(true)}
            disabled={isSheetBusy}
          >
            Delete Feed
          </Button>
        ) : null}
      </Group>
      {/* Keyed by client: another client starts with an empty panel. */}
      <XmlFeedPanel
        key={key}
        editor={editor}
        templates={workspace.templateSets.get('extensionTemplates')}
      />
      {active !== null ? (
        <>
          <SheetPanel sheets={workspace.sheets} feed={active} disabled={isSheetBusy} />
          <SheetBusyArea busy={isSheetBusy}>
            <FeedGrid
              store={editor.store}
              label={`Rows of ${active.name}`}
              height={isNarrow ? 380 : 480}
              onNotice={mirrorNotice}
            />
          </SheetBusyArea>
          <div className="builder-footer seeds-fit">
            <Title order={3} size="h5" mb="xs">
              Seeds
            </Title>
            <Combiner
              store={editor.store}
              renderSeedTools={(column, text, setText) => (
                <SeedTools column={column} text={text} setText={setText} />
              )}
              onCombined={(outcome) =>
                outcome.ok ? notifySuccess(outcome.message) : notifyError(outcome.message)
              }
            />
          </div>
        </>
      ) : (
        <Text c="dimmed" size="sm">
          {feeds.length === 0
            ? 'This client has no feeds yet: New Feed makes one.'
            : 'Choose a feed to see its rows.'}
        </Text>
      )}
      <NewItemModal
        opened={isNewOpen}
        title="New Feed"
        label="Feed name"
        onClose={() => setIsNewOpen(false)}
        onSubmit={(name) => {
          editor.addFeed(name);
          setIsNewOpen(false);
        }}
      />
      <GeoFeedModal
        opened={isGeoOpen}
        onClose={() => setIsGeoOpen(false)}
        onCreate={(name, rows) => editor.addFeedWithRows(name, rows)}
      />
      <ConfirmModal
        opened={isDeleteOpen}
        title="Delete Feed"
        confirmLabel="Delete Feed"
        onClose={() => setIsDeleteOpen(false)}
        onConfirm={async () => {
          if (activeFeed === null) return;
          editor.removeFeed(activeFeed);
          setIsDeleteOpen(false);
          await editor.save();
        }}
      >
        Delete the feed “{activeFeed}” and its rows? The client&apos;s feeds are saved right away.
      </ConfirmModal>
    </section>
  );
}
