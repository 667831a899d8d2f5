import { useRef, useState } from 'react';
import { Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { formatDateDigits, type CampaignTemplate } from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import { useBuilderWorkspace } from '../builder/useBuilderWorkspace.ts';
import { useCampaignOutputStore } from '../exports/campaignOutputStore.ts';
import { OriginNote } from '../exports/OriginNote.tsx';
import { originNow } from '../exports/outputOrigin.ts';
import { isJobCancelled, useSelectedRows, type RunEngineJobOptions } from '../generation/index.ts';
import { focusNextOutput } from '../output/index.ts';
import { notifyError } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import { useTemplateSet } from '../builder/useTemplateSet.ts';
import type { AdOutput } from './adJobs.ts';
import { useAdOutputsStore, type AdOutputs } from './adOutputStore.ts';
import { AD_MESSAGES } from './messages.ts';

/** Which ad tab: responsive search ads or Performance Max. */
export type AdKind = keyof AdOutputs;

/** Per ad kind: the campaign type whose groups it is for, and its template set and label. */
const AD_KINDS = {
  rsa: { campaignType: 'search', templateKind: 'rsaTemplates', templateLabel: 'RSA template' },
  performance: {
    campaignType: 'performance',
    templateKind: 'performanceMaxTemplates',
    templateLabel: 'Performance Max template',
  },
} as const;

/** Why Generate Ads is disabled, or null when it may run (spec section 5). */
export function findGenerateBlocker(input: {
  kind: AdKind;
  rowCount: number;
  campaignType: CampaignTemplate['type'] | null;
  groupCount: number | null;
}): string | null {
  if (input.rowCount === 0) return AD_MESSAGES.needRows;
  if (input.kind === 'rsa' && input.campaignType === 'performance')
    return AD_MESSAGES.rsaForPerformance;
  if (input.kind === 'performance' && input.campaignType === 'search')
    return AD_MESSAGES.performanceForSearch;
  if (input.groupCount === null || input.groupCount === 0)
    return input.kind === 'rsa' ? AD_MESSAGES.needKeywords : AD_MESSAGES.needAssets;
  return null;
}

/** Generate Ads: disabled with the reason as tooltip (and as text beside it); progress and Cancel. */
export function GenerateAdsButton({
  kind,
  run,
}: {
  kind: AdKind;
  /** Starts the tab's generation job with the campaign template and today's digits. */
  run: (
    campaign: CampaignTemplate,
    today: string,
    options: RunEngineJobOptions,
  ) => Promise<AdOutput>;
}) {
  const workspace = useBuilderWorkspace();
  const selection = useSelectedRows();
  const { campaignType: groupsType, templateKind, templateLabel } = AD_KINDS[kind];
  // The kept campaign output of this kind's campaign type, whichever template is active now.
  const campaignOutput = useStore(useCampaignOutputStore())[groupsType];
  const ads = useAdOutputsStore();
  const campaignSet = useTemplateSet('campaignTemplates');
  const adTemplate = useTemplateSet(templateKind).active;
  const [progress, setProgress] = useState<number | null>(null);
  const controller = useRef<AbortController | null>(null);
  const campaignType = campaignOutput?.template.type ?? campaignSet.active?.type ?? null;
  const groupCount = campaignOutput
    ? kind === 'rsa'
      ? campaignOutput.adGroupCount
      : campaignOutput.assetGroupCount
    : null;
  const blocker = findGenerateBlocker({
    kind,
    rowCount: selection.count,
    campaignType,
    groupCount,
  });
  const reasonId = `generate-${kind}-reason`;

  async function handleGenerate() {
    if (!campaignOutput || !adTemplate) {
      notifyError(kind === 'rsa' ? AD_MESSAGES.needKeywords : AD_MESSAGES.needAssets);
      return;
    }
    const isOwner = workspace.outputs.ownership();
    const origin = originNow(workspace, {
      templateKind,
      templateLabel,
      template: adTemplate,
      rowCount: selection.count,
    });
    const groupsOrigin = campaignOutput.origin;
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    setProgress(0);
    try {
      const output = await run(campaignOutput.template, formatDateDigits(new Date()), {
        rows: selection.source,
        signal: ctrl.signal,
        onProgress: (p) =>
          setProgress(p.phase === 'rows' ? p.fraction * 0.3 : 0.3 + p.fraction * 0.7),
      });
      // runEngineJob hands the result over in a task after the one that received it, so
      // rendering the table is a task of its own; a Cancel in between keeps the old output.
      if (ctrl.signal.aborted || !isOwner()) return;
      ads.set((s) => ({ ...s, [kind]: { ...output, origin, groupsOrigin } }));
    } catch (error) {
      if (!isJobCancelled(error)) notifyError(`Ads not generated: ${describeLocalFailure(error)}`);
    } finally {
      if (controller.current === ctrl) {
        controller.current = null;
        setProgress(null);
      }
    }
  }

  const button = (
    <Button
      onClick={(event) => {
        focusNextOutput(event.currentTarget);
        void handleGenerate();
      }}
      disabled={blocker !== null || progress !== null}
      aria-describedby={blocker ? reasonId : undefined}
    >
      Generate Ads
    </Button>
  );
  return (
    <Stack gap={4} className="generate-ads">
      <Group gap="xs" wrap="wrap" align="center">
        {blocker ? (
          <Tooltip label={blocker} withArrow>
            <span className="generate-ads__wrap">{button}</span>
          </Tooltip>
        ) : (
          button
        )}
        {blocker ? (
          <Text size="xs" c="dimmed" id={reasonId} className="generate-ads__reason">
            {blocker}
          </Text>
        ) : null}
        {progress !== null ? (
          <>
            <Progress
              value={progress * 100}
              w={120}
              aria-label="Generating ads"
              className="generate-ads__progress"
            />
            <Button variant="subtle" size="xs" onClick={() => controller.current?.abort()}>
              Cancel
            </Button>
          </>
        ) : null}
      </Group>
      {campaignOutput && blocker === null ? (
        <OriginNote
          origin={campaignOutput.origin}
          lead={`Uses the ${kind === 'rsa' ? 'ad groups' : 'asset groups'} made from`}
        />
      ) : null}
    </Stack>
  );
}
