import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Autocomplete,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  FEED_MAX_ROWS,
  GEO_COUNTRY_CODES,
  GEO_REMOVAL_PLANNED,
  GEO_FILTER_MAX_CHARS,
  GEO_MESSAGES,
  GEO_TARGET_TYPES,
  NAME_MAX_CHARS,
  type GeoRelease,
  type GeoSearchAnswer,
} from '@adloom/contract';
import { useMediaQuery } from '@mantine/hooks';
import type { FeedRow } from '@adloom/engine';
import { handleApiError } from '../../api/client.ts';
import { ApiError, statusOf } from '../../api/errors.ts';
import { describeGeoFailure, fetchGeoTargets, getGeoStatus } from '../../api/geo.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import {
  EMPTY_GEO_FORM,
  GEO_PARENT_ID_MAX_CHARS,
  canCreateGeoFeed,
  cleanCountryCode,
  cleanParentId,
  findCountryCodeProblem,
  isCountryCodeRequired,
  isRemovalPlanned,
  toGeoFeedRows,
  toGeoParams,
  toTargetType,
  type GeoForm,
} from './geoForm.ts';
import { useGeoSearch, type GeoSearchState } from './useGeoSearch.ts';
import { CAN_HOVER } from '../../components/pointer.ts';
import './GeoFeedModal.css';

/** What the modal makes: a client's Feed (spec section 2), or a Data Table on /lists. */
type GeoItem = 'Feed' | 'Data Table';

/** The modal's title and its submit button (spec section 2; "Data Table" instead of "Feed" on /lists). */
export const GEO_FEED_TEXTS = {
  title: (item: GeoItem = 'Feed') => `New Geo ${item}`,
  submit: (item: GeoItem = 'Feed') => `Create ${item}`,
  leaveOut: 'Leave out targets marked Removal Planned',
  previewLabel: 'First matching geo targets',
} as const;

/** Before the plain words of a Create Feed that failed in the browser. */
const GEO_CREATE_FAILED = 'Geo feed not created';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');
/** Country codes the suggestions list at once. */
const COUNTRY_SUGGESTIONS_MAX = 8;

/** Whether the server has geo targets loaded, as the modal last heard. */
type GeoStatusView =
  | { kind: 'checking' }
  | { kind: 'loaded'; release: GeoRelease }
  | { kind: 'not-loaded' }
  | { kind: 'failed'; message: string };

/**
 * New Geo Feed (spec sections 2, 5 and 7): name (*), target type (*), country code (**), parent
 * ID and a canonical-name filter. While the person types it shows how many targets match and
 * the first of them; Create Feed fetches every match, filters them on the client and hands the
 * rows (root = criteria ID, mod = name) to `onCreate`. A server without geo targets says how an
 * operator loads them instead of showing the form.
 */
export function GeoFeedModal({
  opened,
  item = 'Feed',
  onClose,
  onCreate,
}: {
  opened: boolean;
  item?: GeoItem;
  onClose: () => void;
  /** Adds the feed (the caller makes the name unique and makes it active). */
  onCreate: (name: string, rows: Omit<FeedRow, 'id'>[]) => void;
}) {
  const [status, setStatus] = useState<GeoStatusView>({ kind: 'checking' });
  const [form, setForm] = useState<GeoForm>(EMPTY_GEO_FORM);
  const [leaveOut, setLeaveOut] = useState(true);
  const [isBusy, setIsBusy] = useState(false);

  const checkStatus = useCallback(() => {
    setStatus({ kind: 'checking' });
    getGeoStatus().then(
      ({ release }) => setStatus(release ? { kind: 'loaded', release } : { kind: 'not-loaded' }),
      (error: unknown) => {
        const failure = describeGeoFailure(error);
        if (failure.kind === 'not-loaded') return setStatus({ kind: 'not-loaded' });
        if (failure.kind === 'generic') handleApiError(failure.error);
        setStatus({
          kind: 'failed',
          message: failure.kind === 'message' ? failure.message : failure.error.message,
        });
      },
    );
  }, []);

  useEffect(() => {
    if (!opened) return;
    setForm(EMPTY_GEO_FORM);
    setLeaveOut(true);
    checkStatus();
  }, [opened, checkStatus]);

  const isLoaded = opened && status.kind === 'loaded';
  const search = useGeoSearch(isLoaded ? toGeoParams(form) : null);
  useEffect(() => {
    if (search.kind !== 'failed') return;
    if (search.failure.kind === 'not-loaded') setStatus({ kind: 'not-loaded' });
    else if (search.failure.kind === 'generic') handleApiError(search.failure.error);
  }, [search]);

  function update(patch: Partial<GeoForm>) {
    setForm((current) => ({ ...current, ...patch }));
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const params = toGeoParams(form);
    if (!canCreateGeoFeed(form) || params === null || isBusy) return;
    setIsBusy(true);
    try {
      const targets = await fetchGeoTargets(params);
      const rows = toGeoFeedRows(targets, form, { leaveOutRemovalPlanned: leaveOut });
      if (rows.length === 0) {
        notifyError(GEO_MESSAGES.none);
        return;
      }
      const leftOut = leaveOut
        ? toGeoFeedRows(targets, form, { leaveOutRemovalPlanned: false }).length - rows.length
        : 0;
      onCreate(form.name.trim(), rows);
      notifySuccess(GEO_MESSAGES.creating(rows.length, leftOut));
      onClose();
    } catch (error) {
      reportCreateFailure(error, () => setStatus({ kind: 'not-loaded' }));
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!isBusy) onClose();
      }}
      title={GEO_FEED_TEXTS.title(item)}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {status.kind === 'loaded' ? (
        <GeoFeedForm
          item={item}
          form={form}
          release={status.release}
          search={search}
          leaveOut={leaveOut}
          isBusy={isBusy}
          onChange={update}
          onLeaveOutChange={setLeaveOut}
          onSubmit={(event) => void handleSubmit(event)}
          onCancel={onClose}
        />
      ) : (
        <GeoStatusNotice status={status} onRetry={checkStatus} onClose={onClose} />
      )}
    </Modal>
  );
}

/**
 * A failed Create Feed (spec section 8): the toast carries the HTTP status of the answer (none
 * when no answer came); a refused session and server failures go to the generic handler; a
 * failure in the browser says so in plain words.
 */
function reportCreateFailure(error: unknown, onNotLoaded: () => void): void {
  if (!(error instanceof ApiError)) {
    notifyError(`${GEO_CREATE_FAILED}: ${describeLocalFailure(error)}`);
    return;
  }
  const failure = describeGeoFailure(error);
  if (failure.kind === 'generic') {
    handleApiError(failure.error);
    return;
  }
  if (failure.kind === 'not-loaded') onNotLoaded();
  notifyError(
    failure.kind === 'not-loaded' ? GEO_MESSAGES.notLoaded : failure.message,
    undefined,
    statusOf(error),
  );
}

/** The modal without its form: checking, not loaded (how to load), or the check failed. */
function GeoStatusNotice({
  status,
  onRetry,
  onClose,
}: {
  status: Exclude<GeoStatusView, { kind: 'loaded' }>;
  onRetry: () => void;
  onClose: () => void;
}) {
  if (status.kind === 'checking') {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" />
        <Text size="sm">Checking the geo targets on this server…</Text>
      </Group>
    );
  }
  return (
    <Stack gap="md">
      {status.kind === 'not-loaded' ? (
        <Alert color="yellow" variant="light" title="Geo targets not loaded" role="alert">
          <Text size="sm">{GEO_MESSAGES.notLoaded}</Text>
        </Alert>
      ) : (
        <Alert
          color="red"
          variant="light"
          title="The geo targets could not be checked"
          role="alert"
        >
          <Text size="sm">{status.message}</Text>
        </Alert>
      )}
      <Group justify="flex-end" gap="xs">
        {status.kind === 'failed' ? (
          <Button variant="default" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
        <Button variant="default" onClick={onClose} autoFocus>
          OK
        </Button>
      </Group>
    </Stack>
  );
}

function GeoFeedForm({
  item,
  form,
  release,
  search,
  leaveOut,
  isBusy,
  onChange,
  onLeaveOutChange,
  onSubmit,
  onCancel,
}: {
  form: GeoForm;
  release: GeoRelease;
  search: GeoSearchState;
  leaveOut: boolean;
  isBusy: boolean;
  onChange: (patch: Partial<GeoForm>) => void;
  onLeaveOutChange: (leaveOut: boolean) => void;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
  item: GeoItem;
}) {
  const hintId = useId();
  const canCreate = canCreateGeoFeed(form);
  const answer =
    search.kind === 'done' ? search.answer : search.kind === 'searching' ? search.previous : null;

  return (
    <form onSubmit={onSubmit} aria-label={GEO_FEED_TEXTS.title(item)}>
      <Stack gap="md">
        <Text size="xs" c="dimmed">
          Google geo targets of {release.date} ({NUMBER_FORMAT.format(release.rows)} targets)
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          <TextInput
            label={<MarkedLabel text="Name" marker="*" />}
            required
            autoFocus
            maxLength={NAME_MAX_CHARS}
            value={form.name}
            onChange={(event) => onChange({ name: event.currentTarget.value })}
          />
          <NativeSelect
            label={<MarkedLabel text="Target Type" marker="*" />}
            required
            withAsterisk={false}
            value={form.targetType}
            data={[{ value: '', label: 'Choose a target type' }, ...GEO_TARGET_TYPES]}
            onChange={(event) => onChange({ targetType: toTargetType(event.currentTarget.value) })}
          />
          <Autocomplete
            label={<MarkedLabel text="Country Code" marker="**" />}
            description="Two letters, e.g. DE"
            aria-required={isCountryCodeRequired(form)}
            autoComplete="off"
            maxLength={2}
            value={form.countryCode}
            data={GEO_COUNTRY_CODES as string[]}
            limit={COUNTRY_SUGGESTIONS_MAX}
            filter={({ options, search: text, limit }) =>
              options
                .filter(
                  (option) => 'value' in option && option.value.startsWith(cleanCountryCode(text)),
                )
                .slice(0, limit)
            }
            error={findCountryCodeProblem(form)}
            onChange={(value) => onChange({ countryCode: cleanCountryCode(value) })}
          />
          <TextInput
            label="Parent ID"
            description="The criteria ID of the parent target"
            inputMode="numeric"
            maxLength={GEO_PARENT_ID_MAX_CHARS}
            value={form.parentId}
            onChange={(event) => onChange({ parentId: cleanParentId(event.currentTarget.value) })}
          />
        </SimpleGrid>
        <TextInput
          label="Canonical Name Filter"
          description="Keeps the targets whose canonical name contains this text, e.g. Bavaria"
          maxLength={GEO_FILTER_MAX_CHARS}
          value={form.canonicalName}
          onChange={(event) => onChange({ canonicalName: event.currentTarget.value })}
        />
        <Text size="xs" c="dimmed">
          {GEO_MESSAGES.footnotes}
        </Text>
        <GeoMatches
          search={search}
          answer={answer}
          idleText={
            form.targetType === ''
              ? 'Choose a target type to see the matching targets.'
              : 'Enter a two-letter country code to see the matching targets.'
          }
          leaveOut={leaveOut}
          onLeaveOutChange={onLeaveOutChange}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={isBusy}>
            Cancel
          </Button>
          {/* Looks disabled but stays focusable, so its tooltip is reached by keyboard too
              (handleSubmit refuses the click). */}
          <Tooltip
            label={GEO_MESSAGES.required}
            disabled={canCreate}
            events={{ hover: CAN_HOVER, focus: true, touch: false }}
            withArrow
          >
            <Button
              type="submit"
              data-disabled={canCreate ? undefined : true}
              aria-disabled={!canCreate}
              onClick={(event) => {
                if (!canCreate) event.preventDefault();
              }}
              loading={isBusy}
              aria-describedby={canCreate ? undefined : hintId}
            >
              {GEO_FEED_TEXTS.submit(item)}
            </Button>
          </Tooltip>
          <span id={hintId} className="visually-hidden">
            {canCreate ? '' : GEO_MESSAGES.required}
          </span>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * A field's label with the spec's footnote marker, (*) or (**); the marker is not part of the
 * field's accessible name (`required` and `aria-required` say it).
 */
function MarkedLabel({ text, marker }: { text: string; marker: '*' | '**' }) {
  return (
    <>
      {text}
      <span className="geo-feed__marker" aria-hidden="true">
        {` ${marker}`}
      </span>
    </>
  );
}

/** The live count, the Removal Planned note and choice, and the first matches. */
function GeoMatches({
  search,
  answer,
  idleText,
  leaveOut,
  onLeaveOutChange,
}: {
  search: GeoSearchState;
  answer: GeoSearchAnswer | null;
  /** What to say before the search is complete. */
  idleText: string;
  leaveOut: boolean;
  onLeaveOutChange: (leaveOut: boolean) => void;
}) {
  const isSearching = search.kind === 'searching';
  return (
    <Stack gap={6} className="geo-feed__matches" aria-busy={isSearching}>
      <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
        {isSearching ? <Loader size={14} aria-hidden="true" /> : null}
        <Text size="sm" fw={500} c={search.kind === 'failed' ? 'red.8' : undefined}>
          {search.kind === 'idle' ? idleText : describeMatches(search, answer)}
        </Text>
      </Group>
      {answer && answer.count > FEED_MAX_ROWS ? (
        <Text size="sm" c="red.8">
          {GEO_MESSAGES.tooMany(answer.count, FEED_MAX_ROWS)}
        </Text>
      ) : null}
      {answer && answer.removalPlanned > 0 ? (
        <Checkbox
          label={`${GEO_FEED_TEXTS.leaveOut} (${NUMBER_FORMAT.format(answer.removalPlanned)})`}
          checked={leaveOut}
          onChange={(event) => onLeaveOutChange(event.currentTarget.checked)}
        />
      ) : null}
      {answer && answer.targets.length > 0 ? (
        <GeoPreview answer={answer} isStale={isSearching} />
      ) : null}
    </Stack>
  );
}

function describeMatches(search: GeoSearchState, answer: GeoSearchAnswer | null): string {
  if (search.kind === 'failed')
    return search.failure.kind === 'message'
      ? search.failure.message
      : 'The search failed. Try again.';
  if (answer === null) return 'Searching…';
  const matches =
    answer.count === 0
      ? 'No targets match these filters'
      : `${NUMBER_FORMAT.format(answer.count)} ${answer.count === 1 ? 'target matches' : 'targets match'}`;
  return answer.removalPlanned > 0
    ? `${matches}, ${NUMBER_FORMAT.format(answer.removalPlanned)} marked Removal Planned by Google`
    : matches;
}

/**
 * The first matches: criteria ID, name, canonical name, type and status. On a phone the name,
 * canonical name, type and status share one column, so nothing needs scrolling sideways.
 */
function GeoPreview({ answer, isStale }: { answer: GeoSearchAnswer; isStale: boolean }) {
  const isNarrow = useMediaQuery('(max-width: 575px)');
  const shown = answer.targets.length;
  return (
    <div className={isStale ? 'geo-feed__preview geo-feed__preview--stale' : 'geo-feed__preview'}>
      <Table.ScrollContainer minWidth={isNarrow ? 0 : 560} maxHeight={260}>
        <Table
          striped
          withTableBorder
          stickyHeader
          fz="xs"
          verticalSpacing={4}
          aria-label={GEO_FEED_TEXTS.previewLabel}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th className="geo-feed__id">Criteria ID</Table.Th>
              {isNarrow ? (
                <Table.Th>Target</Table.Th>
              ) : (
                <>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Canonical Name</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Status</Table.Th>
                </>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {answer.targets.map((target) => (
              <Table.Tr key={target.criteriaId}>
                <Table.Td className="geo-feed__id">{target.criteriaId}</Table.Td>
                {isNarrow ? (
                  <Table.Td>
                    <Text span fz="xs" fw={600}>
                      {target.name}
                    </Text>{' '}
                    <StatusBadge status={target.status} />
                    <Text fz="xs" c="dimmed">
                      {target.canonicalName.join(', ')} · {target.targetType}
                    </Text>
                  </Table.Td>
                ) : (
                  <>
                    <Table.Td>{target.name}</Table.Td>
                    <Table.Td>{target.canonicalName.join(', ')}</Table.Td>
                    <Table.Td>{target.targetType}</Table.Td>
                    <Table.Td>
                      {isRemovalPlanned(target) ? (
                        <StatusBadge status={target.status} />
                      ) : (
                        target.status
                      )}
                    </Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed" mt={4}>
        {shown < answer.count
          ? `The first ${NUMBER_FORMAT.format(shown)} of ${NUMBER_FORMAT.format(answer.count)}, by criteria ID`
          : `All ${NUMBER_FORMAT.format(shown)}, by criteria ID`}
      </Text>
    </div>
  );
}

/** Google's Removal Planned mark, visible at a glance (nothing for other statuses). */
function StatusBadge({ status }: { status: string }) {
  if (status !== GEO_REMOVAL_PLANNED) return null;
  return (
    <Badge color="orange" variant="light" size="sm">
      {status}
    </Badge>
  );
}
