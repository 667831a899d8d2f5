import { useEffect, useState } from 'react';
import {
  Button,
  FileButton,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DROPPED_ITEM_ACTIONS, LoopLabelSchema, type DroppedItemAction } from '@adloom/contract';
import {
  CHANGE_ACTIONS,
  PLAN_ITEM_KIND_LABELS,
  type ChangeAction,
  type PlanCounts,
  type PlanItemKind,
} from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import { OutputTable } from '../output/index.ts';
import { changeCount, type AccountLoop } from './accountLoop.ts';
import type { ComparedWith } from './loopJobs.ts';
import './ChangePlanPanel.css';

/** The panel's words. */
export const CHANGE_PLAN_TEXTS = {
  firstExport: 'First export',
  changesSince: (date: string) => `Changes since ${date}`,
  changesAgainstAccount: (names: string) => `Changes against the account export ${names}`,
  planning: 'Working out the changes…',
  nothingToChange: 'Nothing to change',
  downloadChanges: 'Download changes',
  downloadMicrosoftChanges: 'Download changes for Microsoft Advertising',
  changesAgainstMicrosoft: (names: string) =>
    `Changes against the Microsoft Advertising download ${names}`,
  compareWithAccount: 'Compare with an account export…',
  compareWithLast: 'Compare with the last export',
  droppedLabel: 'Items the feed no longer makes',
  labelLabel: 'Label',
  countsLabel: 'Changes per kind',
  linesLabel: 'Changes',
  collisionsLabel: 'Collisions',
  refusedByMicrosoft: (count: string, one: boolean) =>
    `${count} ${one ? 'item' : 'items'} Microsoft Advertising cannot take ${one ? 'is' : 'are'} not planned: the report in the changes download says why.`,
  actionFilter: 'Action',
  kindFilter: 'Kind',
} as const;

/** How the counts name each action (the issue's words). */
const ACTION_WORDS: Readonly<Record<ChangeAction, string>> = {
  add: 'New',
  update: 'Changed',
  pause: 'Paused',
  enable: 'Resumed',
  remove: 'Removed',
};

/** The choices for dropped items, as the person reads them. */
const DROPPED_WORDS: Readonly<Record<DroppedItemAction, string>> = {
  pause: 'Pause',
  remove: 'Remove',
  keep: 'Leave alone',
};

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** "2 Dec 2026, 10:42" (local time). */
export function formatBuildDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_FORMAT.format(date);
}

/** The panel's title for what the plan was compared with. */
function titleOf(compared: ComparedWith | undefined, latestAt: string | null): string {
  if (compared?.source === 'account')
    return compared.microsoft
      ? CHANGE_PLAN_TEXTS.changesAgainstMicrosoft(compared.names.join(', '))
      : CHANGE_PLAN_TEXTS.changesAgainstAccount(compared.names.join(', '));
  if (compared?.source === 'record')
    return CHANGE_PLAN_TEXTS.changesSince(formatBuildDate(compared.created));
  if (latestAt) return CHANGE_PLAN_TEXTS.changesSince(formatBuildDate(latestAt));
  return CHANGE_PLAN_TEXTS.firstExport;
}

/** A line under the title: what the baseline holds. */
function baselineNote(compared: ComparedWith | undefined): string | null {
  if (!compared || compared.source === 'none') return null;
  if (compared.source === 'record')
    return `The last export made ${NUMBER_FORMAT.format(compared.items)} items${compared.feed ? ` from ‘${compared.feed}’` : ''}.`;
  const other =
    compared.otherRows > 0
      ? `; ${NUMBER_FORMAT.format(compared.otherRows)} rows of other kinds are left alone`
      : '';
  return `${NUMBER_FORMAT.format(compared.items)} items in the account; ${NUMBER_FORMAT.format(compared.unlabelled)} without the label are never changed${other}.`;
}

function CountsTable({
  counts,
  totals,
}: {
  counts: { kind: PlanItemKind; counts: PlanCounts }[];
  totals: PlanCounts;
}) {
  const withCollisions = totals.collisions > 0;
  const cells = (c: PlanCounts) => [
    ...CHANGE_ACTIONS.map((a) => c[a]),
    c.unchanged,
    ...(withCollisions ? [c.collisions] : []),
  ];
  return (
    // Scrolls sideways on a phone: a keyboard stop, so the counts can be read without a mouse.
    <div
      className="change-plan__counts"
      role="region"
      aria-label={CHANGE_PLAN_TEXTS.countsLabel}
      tabIndex={0}
    >
      <Table
        aria-label={CHANGE_PLAN_TEXTS.countsLabel}
        withTableBorder
        striped={false}
        verticalSpacing={4}
        horizontalSpacing="xs"
        fz="sm"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Kind</Table.Th>
            {CHANGE_ACTIONS.map((a) => (
              <Table.Th key={a} scope="col" className="change-plan__number">
                {ACTION_WORDS[a]}
              </Table.Th>
            ))}
            <Table.Th scope="col" className="change-plan__number">
              Unchanged
            </Table.Th>
            {withCollisions ? (
              <Table.Th scope="col" className="change-plan__number">
                Collisions
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {counts.map(({ kind, counts: c }) => (
            <Table.Tr key={kind}>
              <Table.Th scope="row">{PLAN_ITEM_KIND_LABELS[kind]}</Table.Th>
              {cells(c).map((n, i) => (
                <Table.Td key={i} className="change-plan__number">
                  {NUMBER_FORMAT.format(n)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          <Table.Tr className="change-plan__total">
            <Table.Th scope="row">Total</Table.Th>
            {cells(totals).map((n, i) => (
              <Table.Td key={i} className="change-plan__number">
                {NUMBER_FORMAT.format(n)}
              </Table.Td>
            ))}
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </div>
  );
}

/** The client's loop settings: what happens to dropped items, and the label. */
function LoopSettingsFields({ loop }: { loop: AccountLoop }) {
  const { settings } = useStore(loop.state);
  const [label, setLabel] = useState(settings?.label ?? '');
  const [labelError, setLabelError] = useState<string | null>(null);
  useEffect(() => {
    setLabel(settings?.label ?? '');
    setLabelError(null);
  }, [settings?.label]);
  if (!settings) return null;

  function saveLabel() {
    const parsed = LoopLabelSchema.safeParse(label);
    if (!parsed.success) {
      setLabelError(parsed.error.issues[0]?.message ?? 'The label is not valid');
      return;
    }
    setLabelError(null);
    if (parsed.data !== settings?.label) void loop.changeSettings({ label: parsed.data });
  }

  return (
    <Group gap="sm" align="flex-start" className="change-plan__settings">
      <Select
        size="xs"
        label={CHANGE_PLAN_TEXTS.droppedLabel}
        data={DROPPED_ITEM_ACTIONS.map((value) => ({ value, label: DROPPED_WORDS[value] }))}
        value={settings.dropped}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        onChange={(value) => {
          if (value && value !== settings.dropped)
            void loop.changeSettings({ dropped: value as DroppedItemAction });
        }}
        className="change-plan__setting"
      />
      <TextInput
        size="xs"
        label={CHANGE_PLAN_TEXTS.labelLabel}
        description="Marks what Adloom made, in Google Ads and Microsoft Advertising"
        value={label}
        error={labelError}
        onChange={(e) => setLabel(e.currentTarget.value)}
        onBlur={saveLabel}
        onKeyDown={(e) => {
          if (e.key === 'Enter') saveLabel();
        }}
        className="change-plan__setting"
      />
    </Group>
  );
}

/**
 * The change plan under the template tabs (issue 35): what a download would change in the
 * account since the last export (or against an Editor export of the account), per kind and line
 * by line, "Download changes", and the client's loop settings.
 */
export function ChangePlanPanel({ loop }: { loop: AccountLoop }) {
  const state = useStore(loop.state);
  useEffect(() => loop.attach(), [loop]);
  const { plan, phase, latest, account, filter, lines } = state;
  if (!state.clientId || (phase === 'idle' && !plan)) return null;

  const compared = plan?.compared;
  const title = titleOf(compared, latest?.createdAt ?? null);
  const note = baselineNote(compared);
  const changes = changeCount(plan);
  const kinds = plan?.counts.map((c) => c.kind) ?? [];

  return (
    <section className="change-plan" aria-labelledby="change-plan-title">
      <Group justify="space-between" gap="xs" wrap="wrap" className="change-plan__head">
        <Stack gap={2} className="change-plan__heading">
          <Title order={3} size="h5" id="change-plan-title">
            {title}
          </Title>
          {note ? (
            <Text size="xs" c="dimmed">
              {note}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs" wrap="wrap">
          {account ? (
            <Button size="xs" variant="subtle" onClick={() => loop.useLastExport()}>
              {CHANGE_PLAN_TEXTS.compareWithLast}
            </Button>
          ) : null}
          <FileButton
            accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
            multiple
            onChange={(files) => loop.useAccountExport(files)}
          >
            {(props) => (
              <Button size="xs" variant="default" {...props}>
                {CHANGE_PLAN_TEXTS.compareWithAccount}
              </Button>
            )}
          </FileButton>
          <Button
            size="xs"
            disabled={phase !== 'ready' || changes === 0}
            loading={state.isDownloading}
            onClick={() => void loop.downloadChanges()}
          >
            {compared?.source === 'account' && compared.microsoft
              ? CHANGE_PLAN_TEXTS.downloadMicrosoftChanges
              : CHANGE_PLAN_TEXTS.downloadChanges}
          </Button>
        </Group>
      </Group>

      {phase === 'planning' ? (
        <Text size="sm" c="dimmed" role="status">
          {CHANGE_PLAN_TEXTS.planning}
        </Text>
      ) : null}
      {phase === 'failed' && state.failure ? (
        <Text size="sm" c="red.8" role="alert">
          {state.failure}
        </Text>
      ) : null}

      {plan ? (
        <Stack gap="sm">
          {changes === 0 && plan.totals.collisions === 0 ? (
            <Text size="sm" role="status" className="change-plan__nothing">
              {CHANGE_PLAN_TEXTS.nothingToChange}
              {plan.totals.unchanged > 0
                ? `: ${NUMBER_FORMAT.format(plan.totals.unchanged)} items are as the account has them.`
                : '.'}
            </Text>
          ) : null}
          <CountsTable counts={plan.counts} totals={plan.totals} />
          {changes > 0 ? (
            <>
              <Group gap="sm" align="flex-end">
                <Select
                  size="xs"
                  label={CHANGE_PLAN_TEXTS.actionFilter}
                  data={[
                    { value: 'all', label: 'All actions' },
                    ...CHANGE_ACTIONS.map((a) => ({
                      value: a,
                      label: `${ACTION_WORDS[a]} (${a})`,
                    })),
                  ]}
                  value={filter.action ?? 'all'}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: false }}
                  onChange={(value) =>
                    void loop.setFilter({
                      ...filter,
                      action: !value || value === 'all' ? null : (value as ChangeAction),
                    })
                  }
                  className="change-plan__filter"
                />
                <Select
                  size="xs"
                  label={CHANGE_PLAN_TEXTS.kindFilter}
                  data={[
                    { value: 'all', label: 'All kinds' },
                    ...kinds.map((k) => ({ value: k, label: PLAN_ITEM_KIND_LABELS[k] })),
                  ]}
                  value={filter.kind ?? 'all'}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: false }}
                  onChange={(value) =>
                    void loop.setFilter({
                      ...filter,
                      kind: !value || value === 'all' ? null : (value as PlanItemKind),
                    })
                  }
                  className="change-plan__filter"
                />
              </Group>
              <OutputTable
                label={CHANGE_PLAN_TEXTS.linesLabel}
                table={lines}
                unit={['change', 'changes']}
                emptyText="No change of this action and kind"
                neutraliseCopy
                height={280}
                columnWidths="90px 130px minmax(140px, 1fr) minmax(140px, 1fr) minmax(160px, 1.4fr) minmax(200px, 2fr) 90px"
              />
            </>
          ) : null}
          {plan.refused > 0 ? (
            <Text size="sm">
              {CHANGE_PLAN_TEXTS.refusedByMicrosoft(
                NUMBER_FORMAT.format(plan.refused),
                plan.refused === 1,
              )}
            </Text>
          ) : null}
          {plan.totals.collisions > 0 ? (
            <Stack gap={4}>
              <Text size="sm">
                {`${NUMBER_FORMAT.format(plan.totals.collisions)} ${plan.totals.collisions === 1 ? 'item is' : 'items are'} not written: the account has an item of the same name without the label “${state.settings?.label ?? ''}”, which Adloom never changes.`}
              </Text>
              <OutputTable
                label={CHANGE_PLAN_TEXTS.collisionsLabel}
                table={plan.collisions}
                unit={['collision', 'collisions']}
                neutraliseCopy
                height={160}
              />
            </Stack>
          ) : null}
        </Stack>
      ) : null}
      <LoopSettingsFields loop={loop} />
    </section>
  );
}
