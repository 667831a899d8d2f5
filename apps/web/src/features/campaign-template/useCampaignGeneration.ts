import { useEffect, useRef, useState } from 'react';
import type { CampaignTemplate, CampaignType } from '@adloom/engine';
import { useBuilderWorkspace } from '../builder/useBuilderWorkspace.ts';
import { useCampaignOutputStore } from '../exports/campaignOutputStore.ts';
import { originNow } from '../exports/outputOrigin.ts';
import {
  isJobCancelled,
  JobFailedError,
  prepareRowsInPool,
  runPooledEngineJob,
  useSelectedRows,
  warmEnginePool,
  type JobProgress,
} from '../generation/index.ts';
import { notifyError } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
import { downloadTablesZip, notifyFileError, type DownloadTarget } from '../exports/index.ts';
import { EDITOR_FORMAT_ID, type DownloadFormat } from '../exports/formats.ts';
import { campaignExportTables } from './exportTables.ts';
import type { CampaignOutput } from './campaignJobs.ts';
import { mergeCampaignParts } from './mergeCampaignParts.ts';
import { useCampaignTabOutputStore } from './campaignTabState.ts';
import { findMissingPattern } from './namePatterns.ts';

/** Quiet time before the selected rows are handed to the worker ahead of Generate. */
const PREPARE_ROWS_DELAY_MS = 1000;

/**
 * Generating the campaign output of `template` over the selected rows: progress, cancel, the
 * output tab shown, and the rows handed to the worker ahead of Generate.
 */
export function useCampaignGeneration(template: CampaignTemplate | null) {
  const workspace = useBuilderWorkspace();
  const selection = useSelectedRows();
  const campaignTabOutput = useCampaignTabOutputStore();
  const campaignOutput = useCampaignOutputStore();
  const [progress, setProgress] = useState<JobProgress | null>(null);
  /** The output table the person chose (null: the first of the shown type, see CampaignTab). */
  const [tab, setTab] = useState<string | null>(null);
  /** The campaign type whose kept output the person chose to see (null: the active template's). */
  const [shownType, setShownType] = useState<CampaignType | null>(null);
  // Another type of template chosen: its type's output shows.
  const activeType = template?.type ?? null;
  const [lastActiveType, setLastActiveType] = useState(activeType);
  if (activeType !== lastActiveType) {
    setLastActiveType(activeType);
    setShownType(null);
    setTab(null);
  }
  const controller = useRef<AbortController | null>(null);
  const canGenerate = selection.count > 0 && template !== null;

  useEffect(() => {
    warmEnginePool('generate');
    return () => controller.current?.abort();
  }, []);

  // While the person edits the template, hand the selected rows to the worker (once they have
  // stopped changing for a second), so Generate starts at once.
  const hasTemplate = template !== null;
  useEffect(() => {
    if (!hasTemplate || selection.count === 0) return undefined;
    const source = selection.source;
    const timer = setTimeout(() => {
      prepareRowsInPool(source);
    }, PREPARE_ROWS_DELAY_MS);
    return () => clearTimeout(timer);
    // selection.source changes identity every render; the version says when rows change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasTemplate, selection.version, selection.count]);

  async function handleGenerate() {
    if (!template || controller.current) return;
    const missing = findMissingPattern(template);
    if (missing) {
      notifyError(missing);
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ phase: 'rows', fraction: 0 });
    const started = performance.now();
    const isOwner = workspace.outputs.ownership();
    const origin = originNow(workspace, {
      templateKind: 'campaignTemplates',
      templateLabel: 'campaign template',
      template,
      rowCount: selection.count,
    });
    try {
      const output = await runPooledEngineJob(
        'generateCampaign',
        { template },
        template,
        mergeCampaignParts,
        { rows: selection.source, signal: abort.signal, onProgress: setProgress },
      );
      // The outputs were reset meanwhile (another client, a sign-out): the result is not theirs.
      if (!isOwner()) return;
      // Only this campaign type's output is replaced: the other type's stays (a build stays).
      campaignTabOutput.set((all) => ({
        ...all,
        [template.type]: {
          template,
          output,
          rowCount: origin.rowCount,
          elapsedMs: performance.now() - started,
          origin,
        },
      }));
      campaignOutput.set((all) => ({
        ...all,
        [template.type]: {
          template,
          adGroupCount: output.adGroupCount,
          assetGroupCount: output.assetGroupCount,
          origin,
        },
      }));
      setShownType(null);
      setTab(null);
    } catch (error) {
      if (!isJobCancelled(error))
        notifyError(
          error instanceof JobFailedError && error.isForPerson
            ? error.message
            : `Generation failed: ${describeLocalFailure(error)}`,
        );
    } finally {
      controller.current = null;
      setProgress(null);
    }
  }

  return {
    selection,
    progress,
    canGenerate,
    tab,
    setTab,
    shownType,
    setShownType,
    handleGenerate,
    cancel: () => controller.current?.abort(),
  };
}

/** The zip of every campaign output table with lines, made in the worker. */
export function useCampaignZip(
  target: DownloadTarget,
  output: CampaignOutput | undefined,
  isPerformance: boolean,
) {
  /** The format being zipped, or null. */
  const [zipping, setZipping] = useState<DownloadFormat | null>(null);

  async function handleZip(format: DownloadFormat = EDITOR_FORMAT_ID) {
    if (!output) return;
    setZipping(format);
    try {
      await downloadTablesZip(
        campaignExportTables(output, isPerformance),
        target,
        'campaign output',
        format,
      );
    } catch (error) {
      notifyFileError(error);
    } finally {
      setZipping(null);
    }
  }

  return { zipping, handleZip };
}
