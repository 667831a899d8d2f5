import { useEffect, useState } from 'react';
import { Button, Group, NativeSelect, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FeedDataType } from '@adloom/engine';
import { useSession } from '../state/useSession.ts';
import { useStore } from '../state/store.ts';
import { FeedGrid, type FeedGridNotice } from '../features/feed-grid/index.ts';
import { notifyError } from '../state/notifications.ts';
import { ConfirmModal, NewItemModal } from '../components/modals.tsx';
import {
  ConflictDialog,
  DraftOfferDialog,
  SaveStatus,
  useKeepUnsavedWork,
} from '../features/builder/UnsavedWork.tsx';
import {
  LINKED_FEED_MARKER,
  LinkSheetButton,
  SheetBusyArea,
  SheetPanel,
  useSheetsBusy,
} from '../features/sheets/index.ts';
import { GeoFeedModal } from '../features/geo/index.ts';
import {
  getListsWorkspace,
  LISTS_TABS,
  type ListsWorkspace,
} from '../features/lists/listsWorkspace.ts';
import './ListsPage.css';

function mirrorNotice(notice: FeedGridNotice): void {
  if (notice.kind === 'error') notifyError(notice.message);
}

/** /lists: the user's data tables and lists (spec sections 2 and 4). */
export function ListsPage() {
  const current = useSession();
  if (!current) return null;
  return <ListsScreen workspace={getListsWorkspace(current.user._id)} />;
}

function ListsScreen({ workspace }: { workspace: ListsWorkspace }) {
  const { tab } = useStore(workspace.state);
  useEffect(() => {
    void workspace.load();
  }, [workspace]);
  useKeepUnsavedWork(workspace.editor);

  return (
    <div className="lists-page">
      <header className="lists-page__header">
        <Title order={1}>Lists</Title>
        <SaveStatus editor={workspace.editor} />
      </header>
      <Text c="dimmed" size="sm" className="lists-page__intro">
        Data tables and lists belong to your account, not to a client: a client&apos;s feeds are in
        the Campaign Builder. There, &lsquo;add list to rows&rsquo; adds a data table&apos;s or a
        list&apos;s rows to the open feed, and each seed box fills from a list.
      </Text>
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value) workspace.selectTab(value as FeedDataType);
        }}
        keepMounted={false}
      >
        <Tabs.List>
          {LISTS_TABS.map((item) => (
            <Tabs.Tab key={item.value} value={item.value}>
              {item.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {LISTS_TABS.map((item) => (
          <Tabs.Panel key={item.value} value={item.value} className="lists-page__panel">
            <ListsTab workspace={workspace} dataType={item.value} item={item.item} />
          </Tabs.Panel>
        ))}
      </Tabs>
      <ConflictDialog editor={workspace.editor} what="Your lists and data tables" />
      <DraftOfferDialog editor={workspace.editor} what="your lists and data tables" />
    </div>
  );
}

function ListsTab({
  workspace,
  dataType,
  item,
}: {
  workspace: ListsWorkspace;
  dataType: FeedDataType;
  item: (typeof LISTS_TABS)[number]['item'];
}) {
  const { isLoading, loadFailed } = useStore(workspace.state);
  const editor = workspace.editor;
  const { feeds, activeFeed, isSaving, key } = useStore(editor.state);
  const [isNewOpen, setIsNewOpen] = useState(false);
  const [isGeoOpen, setIsGeoOpen] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  const isNarrow = useMediaQuery('(max-width: 700px)');
  const shown = feeds.filter((feed) => feed.dataType === dataType);
  const active = shown.find((feed) => feed.name === activeFeed) ?? null;
  const isSheetBusy = useSheetsBusy(workspace.sheets);
  const isReady = key !== null && !isLoading && !isSheetBusy;
  const noun = item.toLowerCase();

  if (key === null) {
    return (
      <Text c="dimmed" size="sm" role="status">
        {isLoading
          ? 'Loading your lists and data tables…'
          : loadFailed
            ? 'Your lists could not be loaded. Reload the page to try again.'
            : ''}
      </Text>
    );
  }

  return (
    <>
      <div className="lists-page__toolbar">
        <NativeSelect
          className="lists-page__select"
          label={item}
          value={active?.name ?? ''}
          disabled={!isReady}
          data={[
            {
              value: '',
              label: shown.length === 0 ? `No ${noun}s yet` : `Select a ${noun}`,
            },
            ...shown.map((feed) => ({
              value: feed.name,
              label: feed.sheetUrl ? `${feed.name} ${LINKED_FEED_MARKER}` : feed.name,
            })),
          ]}
          onChange={(event) => editor.selectFeed(event.currentTarget.value || null)}
        />
        <Group gap="xs" wrap="wrap" role="toolbar" aria-label={`${item} actions`}>
          <Button variant="default" onClick={() => setIsNewOpen(true)} disabled={!isReady}>
            New {item}
          </Button>
          <Button variant="default" onClick={() => setIsGeoOpen(true)} disabled={!isReady}>
            New Geo Data Table
          </Button>
          <Button
            variant="default"
            onClick={() => workspace.copyActive()}
            disabled={!isReady || active === null}
          >
            Copy {item}
          </Button>
          <Button
            variant="light"
            color="red"
            onClick={() => setIsDeleteOpen(true)}
            disabled={!isReady || active === null}
          >
            Delete {item}
          </Button>
          <Button onClick={() => void editor.save()} loading={isSaving} disabled={!isReady}>
            Save Changes
          </Button>
          {active !== null ? (
            <LinkSheetButton sheets={workspace.sheets} itemName={active.name} disabled={!isReady} />
          ) : null}
        </Group>
      </div>
      {active !== null ? (
        <>
          <SheetPanel sheets={workspace.sheets} feed={active} disabled={isSheetBusy} />
          <SheetBusyArea busy={isSheetBusy}>
            <FeedGrid
              store={editor.store}
              label={`Rows of ${active.name}`}
              height={isNarrow ? 380 : 520}
              columnCount={dataType === 'list' ? 1 : undefined}
              onNotice={mirrorNotice}
            />
          </SheetBusyArea>
        </>
      ) : (
        <Text c="dimmed" size="sm">
          {shown.length === 0
            ? `You have no ${noun}s yet: New ${item} makes one.`
            : `Choose a ${noun} to see its rows.`}
        </Text>
      )}
      <NewItemModal
        opened={isNewOpen}
        title={`New ${item}`}
        label={`${item} name`}
        onClose={() => setIsNewOpen(false)}
        onSubmit={(name) => {
          workspace.addItem(name);
          setIsNewOpen(false);
        }}
      />
      <GeoFeedModal
        item="Data Table"
        opened={isGeoOpen}
        onClose={() => setIsGeoOpen(false)}
        onCreate={(name, rows) => workspace.addGeoFeed(name, rows)}
      />
      <ConfirmModal
        opened={isDeleteOpen}
        title={`Delete ${item}`}
        confirmLabel={`Delete ${item}`}
        onClose={() => setIsDeleteOpen(false)}
        onConfirm={async () => {
          setIsDeleteOpen(false);
          await workspace.deleteActive();
        }}
      >
        Delete the {noun} “{active?.name}” and its rows? Your lists and data tables are saved right
        away.
      </ConfirmModal>
    </>
  );
}
