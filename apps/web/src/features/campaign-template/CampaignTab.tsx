import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Group,
  Progress,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import type { BuilderWorkspace } from '../builder/builderWorkspace.ts';
import { campaignOutputStore } from '../builder/campaignOutputStore.ts';
import {
  isJobCancelled,
  JobFailedError,
  runEngineJob,
  useSelectedRows,
  warmEngineLane,
  type JobProgress,
} from '../generation/index.ts';
import { notifyError } from '../../state/notifications.ts';
import {
  editorFileName,
  formatFileDate,
  IssuesList,
  notifyFileError,
  OutputTable,
  safeFilePart,
  saveBlob,
} from '../output/index.ts';
import { TemplateToolbar } from '../builder/TemplateToolbar.tsx';
import { useTemplateSet } from '../builder/useTemplateSet.ts';
import { CampaignSettingsEditor } from './CampaignSettingsEditor.tsx';
import {
  CAMPAIGN_FILE_NAMES,
  campaignTabOutput,
  clearOneOutput,
  clearOutputUnlessFrom,
} from './campaignTabState.ts';
import { KeywordTable } from './KeywordTable.tsx';
import './CampaignTab.css';

/** The generate button (spec section 2). */
export const GENERATE_LABEL = 'Generate Keywords or Output';
/** Its tooltip while no rows are selected (spec section 2). */
export const NO_ROWS_TOOLTIP = 'Have you remembered to select a feed and rows?';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');
/** Quiet time before the selected rows are handed to the worker ahead of Generate. */
const PREPARE_ROWS_DELAY_MS = 1000;
const PLACEHOLDER_HINT = 'Placeholders: {root} {mod} {var1} {var2} {var3} {url} {const} {mt}';

/** The Campaigns tab: the campaign template editor, generation and its outputs. */
export function CampaignTab({ workspace }: { workspace: BuilderWorkspace }) {
  const { hasClient, active, update } = useTemplateSet(workspace, 'campaignTemplates');

  useEffect(() => {
    clearOutputUnlessFrom(active);
  }, [active]);

  if (!hasClient)
    return (
      <Text c="dimmed" size="sm">
        Choose or create a client to see its templates.
      </Text>
    );
  return (
    <Stack gap="md" className="campaign-tab">
      <TemplateToolbar workspace={workspace} kind="campaignTemplates" label="Campaign template" />
      {active ? (
        <CampaignEditor template={active} onChange={update} />
      ) : (
        <Text c="dimmed" size="sm">
          This client has no campaign templates yet: New Template makes one.
        </Text>
      )}
      <CampaignGeneration workspace={workspace} template={active} />
    </Stack>
  );
}

/** The template's fields, keyword table and settings. */
export function CampaignEditor({
  template,
  onChange,
}: {
  template: CampaignTemplate;
  onChange: (next: CampaignTemplate) => void;
}) {
  const isPerformance = template.type === 'performance';
  const set = (patch: Partial<CampaignTemplate>) => onChange({ ...template, ...patch });
  return (
    <div className="campaign-editor">
      <div className="campaign-editor__main">
        <div className="campaign-editor__fields">
          <div className="campaign-editor__type">
            <Text size="sm" fw={500} id="campaign-type-label" mb={4}>
              Campaign type
            </Text>
            <SegmentedControl
              aria-labelledby="campaign-type-label"
              value={template.type}
              data={[
                { value: 'search', label: 'Search' },
                { value: 'performance', label: 'Performance Max' },
              ]}
              onChange={(value) => set({ type: value as CampaignType })}
            />
          </div>
          <TextInput
            label="Constant value"
            description="Used as {const} in every pattern"
            value={template.const}
            maxLength={2000}
            onChange={(event) => set({ const: event.currentTarget.value })}
          />
          <TextInput
            label="Campaign name pattern"
            placeholder="{root} - Search"
            value={template.campaign}
            maxLength={2000}
            onChange={(event) => set({ campaign: event.currentTarget.value })}
          />
          {isPerformance ? (
            <TextInput
              label="Asset group pattern"
              placeholder="{root} {mod}"
              value={template.assetGroup}
              maxLength={2000}
              onChange={(event) => set({ assetGroup: event.currentTarget.value })}
            />
          ) : (
            <TextInput
              label="Ad group name pattern"
              placeholder="{root} {mod} - {mt}"
              value={template.adGroup}
              maxLength={2000}
              onChange={(event) => set({ adGroup: event.currentTarget.value })}
            />
          )}
          <Text size="xs" c="dimmed">
            {PLACEHOLDER_HINT}
          </Text>
        </div>
        {isPerformance ? null : (
          <KeywordTable keywords={template.keywords} onChange={(keywords) => set({ keywords })} />
        )}
      </div>
      <CampaignSettingsEditor
        settings={template.settings}
        onChange={(settings) => set({ settings })}
      />
    </div>
  );
}

function describeProgress(progress: JobProgress): string {
  const percent = Math.round(progress.fraction * 100);
  return progress.phase === 'rows' ? `Reading rows… ${percent}%` : `Generating… ${percent}%`;
}

/** 'Generate Keywords or Output', its progress and the output tabs. */
function CampaignGeneration({
  workspace,
  template,
}: {
  workspace: BuilderWorkspace;
  template: CampaignTemplate | null;
}) {
  const selection = useSelectedRows(workspace);
  const { client } = useStore(workspace.state);
  const result = useStore(campaignTabOutput);
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const [tab, setTab] = useState<string | null>('keywords');
  const controller = useRef<AbortController | null>(null);
  const isPerformance = template?.type === 'performance';
  const canGenerate = selection.count > 0 && template !== null;

  useEffect(() => {
    warmEngineLane('generate');
    return () => controller.current?.abort();
  }, []);

  // While the person edits the template, hand the selected rows to the worker (once they have
  // stopped changing for a second), so Generate starts at once.
  const hasTemplate = template !== null;
  useEffect(() => {
    if (!hasTemplate || selection.count === 0) return undefined;
    const source = selection.source;
    const timer = setTimeout(() => {
      runEngineJob('prepareRows', null, { rows: source }).catch(() => undefined);
    }, PREPARE_ROWS_DELAY_MS);
    return () => clearTimeout(timer);
    // selection.source changes identity every render; the version says when rows change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasTemplate, selection.version, selection.count]);

  async function handleGenerate() {
    if (!template || controller.current) return;
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ phase: 'rows', fraction: 0 });
    const started = performance.now();
    const rowCount = selection.count;
    const rowsVersion = selection.version;
    try {
      const output = await runEngineJob(
        'generateCampaign',
        { template },
        { rows: selection.source, signal: abort.signal, onProgress: setProgress },
      );
      campaignTabOutput.set({
        template,
        output,
        rowCount,
        elapsedMs: performance.now() - started,
      });
      campaignOutputStore.set({
        template,
        adGroupCount: output.adGroupCount,
        assetGroupCount: output.assetGroupCount,
        rowsVersion,
      });
      setTab(template.type === 'performance' ? 'assetGroups' : 'keywords');
    } catch (error) {
      if (!isJobCancelled(error))
        notifyError(
          error instanceof JobFailedError && error.isForPerson
            ? error.message
            : `Generation failed: ${error instanceof Error ? error.message : String(error)}`,
        );
    } finally {
      controller.current = null;
      setProgress(null);
    }
  }

  const output = result?.output;
  const fileName = (what: string) => editorFileName(client, what);
  const [isZipping, setIsZipping] = useState(false);

  async function handleZip() {
    if (!output) return;
    setIsZipping(true);
    try {
      const files = [
        { name: 'keywords.csv', table: output.keywords },
        { name: 'negatives.csv', table: output.negatives },
        ...(isPerformance ? [{ name: 'asset groups.csv', table: output.assetGroups }] : []),
        { name: 'campaigns.csv', table: output.campaigns },
      ].filter((file) => file.table.rowCount > 0);
      const zipped = await runEngineJob('zipPacked', { files }, { lane: 'output' });
      saveBlob(
        zipped.blob,
        `${safeFilePart(client ?? 'adloom')} - campaign output - ${formatFileDate(new Date())}.zip`,
      );
    } catch (error) {
      notifyFileError(error);
    } finally {
      setIsZipping(false);
    }
  }

  return (
    <section className="campaign-output" aria-label="Campaign output">
      <Group gap="sm" align="center" wrap="wrap">
        <Tooltip label={NO_ROWS_TOOLTIP} disabled={selection.count > 0} withArrow>
          <span className="campaign-output__generate">
            <Button
              onClick={() => void handleGenerate()}
              disabled={!canGenerate || progress !== null}
              aria-describedby={selection.count > 0 ? undefined : 'no-rows-hint'}
            >
              {GENERATE_LABEL}
            </Button>
          </span>
        </Tooltip>
        <span id="no-rows-hint" className="visually-hidden">
          {selection.count > 0 ? '' : NO_ROWS_TOOLTIP}
        </span>
        <Text size="sm" c="dimmed">
          {NUMBER_FORMAT.format(selection.count)} {selection.count === 1 ? 'row' : 'rows'} selected
        </Text>
        {progress ? (
          <Group gap="xs" className="campaign-output__progress" wrap="nowrap">
            <Progress
              value={Math.round(progress.fraction * 100)}
              aria-label="Generation progress"
              w={160}
              animated
            />
            <Text size="sm" role="status">
              {describeProgress(progress)}
            </Text>
            <Button size="xs" variant="default" onClick={() => controller.current?.abort()}>
              Cancel
            </Button>
          </Group>
        ) : null}
      </Group>
      {result && output ? (
        <>
          <Group gap="sm" mt="xs" justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed" role="status">
              {`From ${NUMBER_FORMAT.format(result.rowCount)} rows: ${NUMBER_FORMAT.format(output.keywords.rowCount)} keywords, ${NUMBER_FORMAT.format(output.negatives.rowCount)} negatives, ${NUMBER_FORMAT.format(output.adGroupCount)} ad groups, ${NUMBER_FORMAT.format(output.assetGroupCount)} asset groups, ${NUMBER_FORMAT.format(output.campaigns.rowCount)} campaigns (${(result.elapsedMs / 1000).toFixed(1)} s).`}
            </Text>
            <Button size="xs" variant="light" onClick={() => void handleZip()} loading={isZipping}>
              Download all for Google Ads Editor (zip)
            </Button>
          </Group>
          <div className="campaign-output__grid">
            <Tabs
              value={tab}
              onChange={setTab}
              keepMounted={false}
              className="campaign-output__tabs"
            >
              <Tabs.List>
                <Tabs.Tab value="keywords">Keywords</Tabs.Tab>
                <Tabs.Tab value="negatives">Negatives</Tabs.Tab>
                {isPerformance ? <Tabs.Tab value="assetGroups">Asset Groups</Tabs.Tab> : null}
                <Tabs.Tab value="campaigns">Campaigns</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="keywords" pt="sm">
                <OutputTable
                  label="Keywords"
                  table={output.keywords}
                  onClear={() => clearOneOutput('keywords')}
                  editorExport={{ fileName: fileName(CAMPAIGN_FILE_NAMES.keywords) }}
                  emptyText={
                    isPerformance ? 'A Performance Max campaign has no keywords.' : 'No keywords.'
                  }
                />
              </Tabs.Panel>
              <Tabs.Panel value="negatives" pt="sm">
                <OutputTable
                  label="Negatives"
                  table={output.negatives}
                  onClear={() => clearOneOutput('negatives')}
                  editorExport={{ fileName: fileName(CAMPAIGN_FILE_NAMES.negatives) }}
                  emptyText="No negatives."
                />
              </Tabs.Panel>
              {isPerformance ? (
                <Tabs.Panel value="assetGroups" pt="sm">
                  <OutputTable
                    label="Asset Groups"
                    table={output.assetGroups}
                    onClear={() => clearOneOutput('assetGroups')}
                    editorExport={{ fileName: fileName(CAMPAIGN_FILE_NAMES.assetGroups) }}
                    emptyText="No asset groups."
                  />
                </Tabs.Panel>
              ) : null}
              <Tabs.Panel value="campaigns" pt="sm">
                <OutputTable
                  label="Campaigns"
                  table={output.campaigns}
                  onClear={() => clearOneOutput('campaigns')}
                  editorExport={{ fileName: fileName(CAMPAIGN_FILE_NAMES.campaigns) }}
                  emptyText="No campaigns."
                  unit={['campaign', 'campaigns']}
                />
              </Tabs.Panel>
            </Tabs>
            <div className="campaign-output__issues">
              <IssuesList table={output.issues} />
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}
