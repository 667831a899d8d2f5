import { useEffect, useState, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type {
  AdminCounts,
  AdminFeedbackEntry,
  AdminSettings,
  AdminWaitingListEntry,
} from '@adloom/contract';
import {
  downloadEntriesCsv,
  fetchAdminCounts,
  fetchAdminSettings,
  fetchFeedbackPage,
  fetchWaitingListPage,
} from '../api/admin.ts';
import { saveBlob } from '../features/exports/index.ts';
import classes from './AdminPage.module.css';

/** How long typing rests before the search runs. */
const SEARCH_DELAY_MS = 300;

/** A date as the page shows it: the operator's own time, to the minute. */
function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `adloom-<kind>-<yyyymmdd>.csv` for today. */
function csvName(kind: 'feedback' | 'waiting-list'): string {
  return `adloom-${kind}-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}.csv`;
}

interface EntryPage<Entry> {
  entries: Entry[];
  total: number;
  nextCursor: string | null;
}

/**
 * Entries newest first for the search text (searched once typing rests), a page at a time:
 * Show More appends the next page.
 */
function useEntries<Entry>(
  fetchPage: (q: string, cursor?: string | null) => Promise<EntryPage<Entry>>,
  q: string,
) {
  const [page, setPage] = useState<EntryPage<Entry> | null>(null);
  const [isLoadingMore, setIsLoadingMore] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    fetchPage(q).then(
      (first) => {
        if (isCurrent) setPage(first);
      },
      () => {
        if (isCurrent) setPage({ entries: [], total: 0, nextCursor: null });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [fetchPage, q]);

  async function showMore() {
    if (!page?.nextCursor) return;
    setIsLoadingMore(true);
    try {
      const next = await fetchPage(q, page.nextCursor);
      setPage({ ...next, entries: [...page.entries, ...next.entries] });
    } catch {
      // The generic handler has said what went wrong; the entries shown stay.
    } finally {
      setIsLoadingMore(false);
    }
  }
  return { page, isLoadingMore, showMore };
}

/** The search box, the CSV download and the count of one entry list. */
function EntriesToolbar({
  label,
  search,
  onSearch,
  kind,
  query,
  shown,
  total,
}: {
  label: string;
  search: string;
  onSearch: (value: string) => void;
  kind: 'feedback' | 'waitingList';
  query: string;
  shown: number | undefined;
  total: number | undefined;
}) {
  const [isDownloading, setIsDownloading] = useState(false);
  async function handleDownload() {
    setIsDownloading(true);
    try {
      saveBlob(
        await downloadEntriesCsv(kind, query),
        csvName(kind === 'feedback' ? 'feedback' : 'waiting-list'),
      );
    } catch {
      // The generic handler has said what went wrong.
    } finally {
      setIsDownloading(false);
    }
  }
  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={label}
          type="search"
          placeholder="Email, message or type"
          value={search}
          onChange={(event) => onSearch(event.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
        />
        <Button variant="default" loading={isDownloading} onClick={() => void handleDownload()}>
          Download CSV
        </Button>
      </Group>
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === undefined
          ? 'Loading…'
          : total === 0
            ? query === ''
              ? 'No entries yet.'
              : 'No entry matches this search.'
            : `Showing ${shown ?? 0} of ${total} ${total === 1 ? 'entry' : 'entries'}${query === '' ? '' : ' matching the search'}.`}
      </Text>
    </Stack>
  );
}

function ShowMore({ onClick, isLoading }: { onClick: () => void; isLoading: boolean }) {
  return (
    <Group justify="center" mt="sm">
      <Button variant="light" loading={isLoading} onClick={onClick}>
        Show More
      </Button>
    </Group>
  );
}

/**
 * One list of entries (feedback or the waiting list): the search, the page read so far, Show
 * More; `renderEntry` draws one entry's line.
 */
function Entries<Entry>({
  fetchPage,
  kind,
  searchLabel,
  listLabel,
  keyOf,
  renderEntry,
}: {
  fetchPage: (q: string, cursor?: string | null) => Promise<EntryPage<Entry>>;
  kind: 'feedback' | 'waitingList';
  searchLabel: string;
  listLabel: string;
  keyOf: (entry: Entry) => string;
  renderEntry: (entry: Entry) => ReactNode;
}) {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const { page, isLoadingMore, showMore } = useEntries<Entry>(fetchPage, query);
  return (
    <Stack gap="sm">
      <EntriesToolbar
        label={searchLabel}
        search={search}
        onSearch={setSearch}
        kind={kind}
        query={query}
        shown={page?.entries.length}
        total={page?.total}
      />
      <ul aria-label={listLabel} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {page?.entries.map((entry) => (
          <li key={keyOf(entry)} className={classes.entry}>
            {renderEntry(entry)}
          </li>
        ))}
      </ul>
      {page?.nextCursor ? (
        <ShowMore onClick={() => void showMore()} isLoading={isLoadingMore} />
      ) : null}
    </Stack>
  );
}

function FeedbackEntries() {
  return (
    <Entries<AdminFeedbackEntry>
      fetchPage={fetchFeedbackPage}
      kind="feedback"
      searchLabel="Search feedback"
      listLabel="Feedback entries"
      keyOf={(entry) => entry.id}
      renderEntry={(entry) => (
        <>
          <Group gap="xs" wrap="wrap">
            <Badge variant="light">{entry.type}</Badge>
            <Text size="sm" fw={600} className={classes.email}>
              {entry.email}
            </Text>
            <Text size="sm" c="dimmed">
              <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
            </Text>
          </Group>
          <Text size="sm" mt={6} className={classes.message}>
            {entry.message}
          </Text>
        </>
      )}
    />
  );
}

function WaitingListEntries() {
  return (
    <Entries<AdminWaitingListEntry>
      fetchPage={fetchWaitingListPage}
      kind="waitingList"
      searchLabel="Search the waiting list"
      listLabel="Waiting-list entries"
      keyOf={(entry) => entry.email}
      renderEntry={(entry) => (
        <Group gap="sm" justify="space-between" wrap="wrap">
          <Text size="sm" fw={600} className={classes.email}>
            {entry.email}
          </Text>
          <Text size="sm" c="dimmed">
            <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
          </Text>
        </Group>
      )}
    />
  );
}

const COUNT_LABELS: ReadonlyArray<[keyof AdminCounts, string]> = [
  ['users', 'Users'],
  ['verifiedUsers', 'Verified users'],
  ['clients', 'Clients'],
  ['feeds', 'Feeds'],
  ['lists', 'Lists'],
  ['feedback', 'Feedback'],
  ['waitingList', 'Waiting list'],
];

function Counts() {
  const [counts, setCounts] = useState<AdminCounts | null>(null);
  useEffect(() => {
    fetchAdminCounts().then(setCounts, () => undefined);
  }, []);
  if (!counts) return <Loader size="sm" aria-label="Loading the counts" />;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" component="dl" m={0}>
      {COUNT_LABELS.map(([key, label]) => (
        <div key={key} className={classes.count}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} fz={24} fw={700}>
            {counts[key].toLocaleString()}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

function SettingsStatus() {
  const [settings, setSettings] = useState<AdminSettings | null>(null);
  useEffect(() => {
    fetchAdminSettings().then(setSettings, () => undefined);
  }, []);
  if (!settings) return <Loader size="sm" aria-label="Loading the settings" />;
  return (
    <ul aria-label="Features" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {settings.features.map((feature) => (
        <li key={feature.id} className={classes.feature}>
          <Group gap="sm" justify="space-between" wrap="wrap">
            <Text fw={600}>{feature.name}</Text>
            <Badge color={feature.configured ? 'teal' : 'gray'} variant="light">
              {feature.configured ? 'Configured' : 'Not configured'}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" mt={4}>
            Settings: {feature.settings.join(', ')}
          </Text>
          {feature.details.length > 0 ? (
            <dl className={classes.details}>
              {feature.details.map((item) => (
                <div key={item.label} style={{ display: 'contents' }}>
                  <dt>
                    <Text size="sm" span c="dimmed">
                      {item.label}
                    </Text>
                  </dt>
                  <dd>
                    <Text size="sm" span>
                      {item.value}
                    </Text>
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * /admin (issue 38, an operator's view): feedback and waiting-list entries (newest first,
 * searchable, CSV download), counts, and the server's settings status. Operators only (the route
 * shows everyone else the 404 page).
 */
export function AdminPage() {
  return (
    <div className={classes.page}>
      <Title order={1} mb="lg">
        Admin
      </Title>
      <Stack gap="lg">
        <section aria-labelledby="admin-entries" className={classes.section}>
          <Title order={2} size="h3" id="admin-entries" mb="sm">
            Entries
          </Title>
          <Tabs defaultValue="feedback" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="feedback">Feedback</Tabs.Tab>
              <Tabs.Tab value="waiting-list">Waiting List</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="feedback">
              <FeedbackEntries />
            </Tabs.Panel>
            <Tabs.Panel value="waiting-list">
              <WaitingListEntries />
            </Tabs.Panel>
          </Tabs>
        </section>
        <section aria-labelledby="admin-counts" className={classes.section}>
          <Title order={2} size="h3" id="admin-counts" mb="sm">
            Counts
          </Title>
          <Counts />
        </section>
        <section aria-labelledby="admin-settings" className={classes.section}>
          <Title order={2} size="h3" id="admin-settings" mb="sm">
            Settings Status
          </Title>
          <Text size="sm" c="dimmed">
            What this server has configured. Secrets (keys, passwords) are never shown.
          </Text>
          <SettingsStatus />
        </section>
      </Stack>
    </div>
  );
}
