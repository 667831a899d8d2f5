import { Button, Group, Progress, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import type { JobProgress } from '../generation/index.ts';
import { focusNextOutput } from '../output/index.ts';
import { TemplateToolbar } from '../builder/TemplateToolbar.tsx';
import { useTemplateSet } from '../builder/useTemplateSet.ts';
import { CampaignEditor } from './CampaignEditor.tsx';
import { CampaignOutputView } from './CampaignOutputView.tsx';
import { useCampaignTabOutputStore, type CampaignTabOutputs } from './campaignTabState.ts';
import { useDownloadTarget } from '../exports/index.ts';
import { useCampaignGeneration, useCampaignZip } from './useCampaignGeneration.ts';
import './CampaignTab.css';

/** The generate button (spec section 2). */
export const GENERATE_LABEL = 'Generate Keywords or Output';
/** Its tooltip while no rows are selected (spec section 2). */
export const NO_ROWS_TOOLTIP = 'Have you remembered to select a feed and rows?';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** The Campaigns tab: the campaign template editor, generation and its outputs. */
export function CampaignTab() {
  const { hasClient, active, update } = useTemplateSet('campaignTemplates');

  if (!hasClient)
    return (
      <Text c="dimmed" size="sm">
        Choose or create a client to see its templates.
      </Text>
    );
  return (
    <Stack gap="md" className="campaign-tab">
      <TemplateToolbar kind="campaignTemplates" label="Campaign template" />
      {active ? (
        <CampaignEditor template={active} onChange={update} />
      ) : (
        <Text c="dimmed" size="sm">
          This client has no campaign templates yet: New Template makes one.
        </Text>
      )}
      <CampaignGeneration template={active} />
    </Stack>
  );
}

function describeProgress(progress: JobProgress): string {
  const percent = Math.round(progress.fraction * 100);
  return progress.phase === 'rows' ? `Reading rows… ${percent}%` : `Generating… ${percent}%`;
}

const TYPE_LABELS: Record<CampaignType, string> = {
  search: 'Search',
  performance: 'Performance Max',
};

/**
 * The kept output to show: of the type the person picked, else of the active template's type,
 * else the one there is.
 */
function shownOutputType(
  outputs: CampaignTabOutputs,
  picked: CampaignType | null,
  activeType: CampaignType | undefined,
): CampaignType | null {
  const kept = (Object.keys(TYPE_LABELS) as CampaignType[]).filter((t) => outputs[t]);
  for (const type of [picked, activeType]) if (type && outputs[type]) return type;
  return kept[0] ?? null;
}

/** 'Generate Keywords or Output', its progress and the output tabs. */
function CampaignGeneration({ template }: { template: CampaignTemplate | null }) {
  const target = useDownloadTarget();
  const outputs = useStore(useCampaignTabOutputStore());
  const {
    selection,
    progress,
    canGenerate,
    tab,
    setTab,
    shownType,
    setShownType,
    handleGenerate,
    cancel,
  } = useCampaignGeneration(template);
  const type = shownOutputType(outputs, shownType, template?.type);
  const result = type ? outputs[type] : undefined;
  const isPerformance = type === 'performance';
  // A Performance Max output opens on its asset groups; a Search one has none to show.
  const shownTab =
    tab === null ||
    (tab === 'assetGroups' && !isPerformance) ||
    (tab === 'adGroups' && isPerformance)
      ? isPerformance
        ? 'assetGroups'
        : 'keywords'
      : tab;
  const keptTypes = (Object.keys(TYPE_LABELS) as CampaignType[]).filter((t) => outputs[t]);
  const output = result?.output;
  const { zipping, handleZip } = useCampaignZip(target, output, isPerformance);

  return (
    <section className="campaign-output" aria-label="Campaign output">
      <Group gap="sm" align="center" wrap="wrap">
        <Tooltip label={NO_ROWS_TOOLTIP} disabled={selection.count > 0} withArrow>
          <span className="campaign-output__generate">
            <Button
              onClick={(event) => {
                focusNextOutput(event.currentTarget);
                void handleGenerate();
              }}
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
            <Button size="xs" variant="default" onClick={cancel}>
              Cancel
            </Button>
          </Group>
        ) : null}
      </Group>
      {keptTypes.length > 1 && type ? (
        <SegmentedControl
          mt="sm"
          size="xs"
          aria-label="Campaign output shown"
          value={type}
          onChange={(value) => {
            setShownType(value as CampaignType);
            setTab(null);
          }}
          data={keptTypes.map((t) => ({ value: t, label: `${TYPE_LABELS[t]} output` }))}
        />
      ) : null}
      {result && output && type ? (
        <CampaignOutputView
          type={type}
          result={result}
          isPerformance={isPerformance}
          tab={shownTab}
          onTabChange={setTab}
          target={target}
          zipping={zipping}
          onZip={(format) => void handleZip(format)}
        />
      ) : null}
    </section>
  );
}
