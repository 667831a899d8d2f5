import { useMemo } from 'react';
import { Button, Group, NativeSelect, Progress, Text, Tooltip } from '@mantine/core';
import {
  EXTENSION_TYPES,
  newExtensionTemplate,
  resolveAttachLevel,
  type AssetLevel,
  type ExtensionTemplate,
  type ExtensionTypeName,
} from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import { useBuilderWorkspace } from '../builder/useBuilderWorkspace.ts';
import { ChangedSinceNote, OriginNote } from '../exports/OriginNote.tsx';
import { useDownloadTarget } from '../exports/index.ts';
import { useSelectedRows } from '../generation/index.ts';
import { IssuesList, OutputTable, focusNextOutput } from '../output/index.ts';
import { TemplateToolbar } from '../builder/TemplateToolbar.tsx';
import { useTemplateSet } from '../builder/useTemplateSet.ts';
import { ValidatorScore } from '../validation/index.ts';
import { useTextMeasurer } from '../validation/useWorkerChecks.ts';
import { ExtensionEditor } from './ExtensionEditor.tsx';
import { createExtensionValidator } from './extensionValidator.ts';
import { EXTENSION_TABLE_KINDS } from './extensionTables.ts';
import {
  cancelExtensionGeneration,
  clearExtensionOutput,
  extensionOutputsOf,
  extensionsTabStore,
  generateExtensionOutput,
} from './extensionOutput.ts';
import './ExtensionsTab.css';

/** Spec texts of the Extensions tab. */
export const EXTENSIONS_TAB_TEXTS = {
  typeLabel: 'Extension type',
  templateLabel: 'Extension template',
  generate: 'Generate Extensions',
  noRows: 'Have you remembered to select a feed and rows?',
  noTemplate: 'Choose or make an extension template first.',
  noCampaignTemplate:
    'Choose a campaign template first: its campaigns and ad groups are where these assets attach.',
  outputLabel: 'Extensions',
  validatorLabel: 'Extension',
} as const;

/** What the output says its assets attached to, by level. */
const ATTACHED_TO: Readonly<Record<AssetLevel, string>> = {
  account: 'the account',
  campaign: 'each campaign',
  adGroup: 'each ad group',
};

/**
 * The Extensions tab (spec section 2): the type dropdown (Callout, Sitelink, Structured
 * Snippet), the template dropdown with New, Copy, Save and Delete Template, the field editor
 * with each field's limit and live counters, and Generate Extensions with the output table
 * (Copy, Clear, Download for Google Ads Editor) and the rows the engine skipped.
 */
export function ExtensionsTab() {
  const workspace = useBuilderWorkspace();
  const { templates, active, update, setActive, hasClient } = useTemplateSet('extensionTemplates');
  const campaignTemplate = useTemplateSet('campaignTemplates').active;
  const tab = useStore(extensionsTabStore(workspace));
  const outputs = useStore(extensionOutputsOf(workspace.outputs));
  const target = useDownloadTarget();
  const selection = useSelectedRows();
  const measurer = useTextMeasurer();
  const { count, version, source } = selection;
  // A new check whenever the template changes, a new validator whenever the rows do.
  const check = useMemo(
    () => (active ? { template: active, campaign: campaignTemplate } : null),
    [active, campaignTemplate],
  );
  // Where the assets attach with the active campaign template (shown under 'Attach to').
  const attach = useMemo(
    () => (active ? resolveAttachLevel(active, campaignTemplate ?? undefined) : null),
    [active, campaignTemplate],
  );
  // One check at a time, the newest kept: a keystroke never ends the worker the counters share.
  const validator = useMemo(
    () => createExtensionValidator(count, version, source),
    // source is rebuilt on every render; count and version say when the rows change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [count, version],
  );

  const type: ExtensionTypeName = active ? active.extensionType.name : tab.type;
  // Each type's output stays whichever template or type is chosen (issue 14: a build stays).
  const output = outputs[type] ?? null;
  const otherKept = EXTENSION_TYPES.filter((t) => t !== type && outputs[t]).map(
    (t) => `${t} (${outputs[t]?.table.rowCount ?? 0})`,
  );

  if (!hasClient) {
    return <Text c="dimmed">Choose or create a client to see its extension templates.</Text>;
  }

  function handleTypeChange(next: ExtensionTypeName) {
    extensionsTabStore(workspace).set((s) => ({ ...s, type: next }));
    // The type's first template opens (none when the type has no template yet).
    if (active?.extensionType.name !== next) {
      const first = templates.find((t) => t.extensionType.name === next);
      setActive(first ? first.name : null);
    }
  }

  const isRunning = tab.progress !== null;
  const needsCampaignTemplate = attach !== null && attach.level !== 'account';
  const blockedReason =
    selection.count === 0
      ? EXTENSIONS_TAB_TEXTS.noRows
      : active === null
        ? EXTENSIONS_TAB_TEXTS.noTemplate
        : needsCampaignTemplate && campaignTemplate === null
          ? EXTENSIONS_TAB_TEXTS.noCampaignTemplate
          : null;
  const canGenerate = blockedReason === null && !isRunning;
  const ofType = templates.filter((t) => t.extensionType.name === type).length;

  return (
    <div className="extensions-tab">
      <div className="extensions-tab__toolbar">
        <NativeSelect
          className="extensions-tab__type"
          label={EXTENSIONS_TAB_TEXTS.typeLabel}
          value={type}
          data={EXTENSION_TYPES.map((t) => ({ value: t, label: t }))}
          onChange={(event) => handleTypeChange(event.currentTarget.value as ExtensionTypeName)}
        />
        <TemplateToolbar
          kind="extensionTemplates"
          label={EXTENSIONS_TAB_TEXTS.templateLabel}
          makeNew={(name) => newExtensionTemplate(name, type)}
          filter={(t) => t.extensionType.name === type}
        />
      </div>
      {check ? (
        <div className="extensions-tab__score">
          <ValidatorScore
            label={EXTENSIONS_TAB_TEXTS.validatorLabel}
            check={check}
            validator={validator}
          />
        </div>
      ) : null}
      {active && attach ? (
        <ExtensionEditor
          template={active}
          onChange={(next: ExtensionTemplate) => update(next)}
          measurer={measurer}
          attach={attach}
        />
      ) : (
        <Text c="dimmed" size="sm">
          {ofType === 0
            ? `No ${type} templates yet: New Template makes one.`
            : `Choose a ${type} template above, or New Template makes one.`}
        </Text>
      )}
      <Group gap="sm" wrap="wrap" className="extensions-tab__actions">
        <Tooltip label={blockedReason} disabled={blockedReason === null || isRunning}>
          <span>
            <Button
              disabled={!canGenerate}
              onClick={(event) => {
                focusNextOutput(event.currentTarget);
                if (active)
                  void generateExtensionOutput(
                    workspace,
                    active,
                    campaignTemplate,
                    selection.source,
                  );
              }}
            >
              {EXTENSIONS_TAB_TEXTS.generate}
            </Button>
          </span>
        </Tooltip>
        {isRunning ? (
          <>
            <Progress
              value={Math.round((tab.progress ?? 0) * 100)}
              w={160}
              aria-label="Generating extensions"
            />
            <Button variant="default" onClick={() => cancelExtensionGeneration(workspace)}>
              Cancel
            </Button>
          </>
        ) : null}
        <Text size="sm" c="dimmed">
          {selection.count === 1 ? '1 row selected' : `${selection.count} rows selected`}
        </Text>
        {blockedReason !== null && selection.count > 0 && active !== null ? (
          <Text size="sm" c="dimmed">
            {blockedReason}
          </Text>
        ) : null}
      </Group>
      {output ? (
        <Text size="sm" className="extensions-tab__attached" data-level={output.attach.level}>
          <strong>
            Attached to {ATTACHED_TO[output.attach.level]}
            {output.campaignTemplateName !== null && output.attach.level !== 'account'
              ? ` of campaign template "${output.campaignTemplateName}"`
              : ''}
            .
          </strong>{' '}
          {output.attach.reason}.
        </Text>
      ) : null}
      {output ? <OriginNote origin={output.origin} /> : null}
      {output?.placesOrigin && output.attach.level !== 'account' ? (
        <ChangedSinceNote origin={output.placesOrigin} lead="Placed in the campaigns of" />
      ) : null}
      {otherKept.length > 0 ? (
        <Text size="xs" c="dimmed">
          {`Also kept for the download: ${otherKept.join(', ')} (choose the type to see them).`}
        </Text>
      ) : null}
      <OutputTable
        label={`${output?.type ?? type} ${EXTENSIONS_TAB_TEXTS.outputLabel.toLowerCase()}`}
        table={output?.table ?? null}
        copyTable={output?.copyTable ?? null}
        onClear={() => clearExtensionOutput(workspace, type)}
        editorExport={{ kind: EXTENSION_TABLE_KINDS[output?.type ?? type], target }}
        emptyText="No extensions generated yet."
        unit={['extension', 'extensions']}
      />
      {output && output.issues.rowCount > 0 ? <IssuesList table={output.issues} /> : null}
    </div>
  );
}
