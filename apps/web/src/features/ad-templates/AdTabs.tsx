import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import type { FeedRow, PerformanceMaxTemplate, RsaTemplate } from '@adloom/engine';
import type { BuilderWorkspace } from '../builder/builderWorkspace.ts';
import { runEngineJob, useSelectedRows } from '../generation/index.ts';
import { notifyError } from '../notifications/notificationStore.ts';
import { AdPreviewModal, PREVIEW_TEXTS } from '../preview/index.ts';
import { TemplateToolbar, useTemplateSet } from '../templates/index.ts';
import { useFallbackValidator, useTextMeasurer } from '../validation/useWorkerChecks.ts';
import { LegacyAdsPanel } from '../legacy-ads/index.ts';
import { AdOutputSection } from './AdOutputSection.tsx';
import { GenerateAdsButton } from './GenerateAds.tsx';
import { PerformanceTemplateEditor, RsaTemplateEditor } from './RsaTemplateEditor.tsx';

/** Rows the preview steps through (read on the main thread when it opens). */
export const PREVIEW_ROW_LIMIT = 2000;

function usePreviewRows(workspace: BuilderWorkspace) {
  const selection = useSelectedRows(workspace);
  const [rows, setRows] = useState<FeedRow[] | null>(null);
  return {
    rows,
    total: selection.count,
    open() {
      if (selection.count === 0) {
        notifyError(PREVIEW_TEXTS.noRows);
        return;
      }
      setRows(selection.readSome(PREVIEW_ROW_LIMIT));
    },
    close: () => setRows(null),
  };
}

function NoClient() {
  return (
    <Text c="dimmed" size="sm">
      Choose or create a client to see its templates.
    </Text>
  );
}

function NoTemplate({ what }: { what: string }) {
  return (
    <Text c="dimmed" size="sm">
      No {what} template chosen. New Template makes one.
    </Text>
  );
}

/** The Responsive Search Ads tab: template toolbar, fallback editor, Generate Ads, preview, output. */
export function RsaTab({ workspace }: { workspace: BuilderWorkspace }) {
  const { active, update, hasClient } = useTemplateSet(workspace, 'rsaTemplates');
  const measurer = useTextMeasurer(workspace);
  const validator = useFallbackValidator(workspace);
  const preview = usePreviewRows(workspace);
  if (!hasClient) return <NoClient />;
  return (
    <Stack gap="md">
      <TemplateToolbar workspace={workspace} kind="rsaTemplates" label="RSA template" />
      {active ? (
        <RsaTemplateEditor
          template={active}
          onChange={update}
          measurer={measurer}
          validator={validator}
          actions={
            <>
              <GenerateAdsButton
                workspace={workspace}
                kind="rsa"
                run={(campaign, today, options) =>
                  runEngineJob('generateRsa', { template: active, campaign, today }, options)
                }
              />
              <Button variant="default" onClick={preview.open}>
                Ad Preview
              </Button>
            </>
          }
        />
      ) : (
        <NoTemplate what="RSA" />
      )}
      <AdOutputSection workspace={workspace} kind="rsa" />
      <LegacyAdsPanel workspace={workspace} />
      {active && preview.rows ? (
        <AdPreviewModal
          opened
          onClose={preview.close}
          kind="rsa"
          template={active}
          onChange={(next: RsaTemplate) => update(next)}
          rows={preview.rows}
          totalRows={preview.total}
          measurer={measurer}
        />
      ) : null}
    </Stack>
  );
}

/** The Performance Max Ads tab. */
export function PerformanceTab({ workspace }: { workspace: BuilderWorkspace }) {
  const { active, update, hasClient } = useTemplateSet(workspace, 'performanceMaxTemplates');
  const measurer = useTextMeasurer(workspace);
  const validator = useFallbackValidator(workspace);
  const preview = usePreviewRows(workspace);
  if (!hasClient) return <NoClient />;
  return (
    <Stack gap="md">
      <TemplateToolbar
        workspace={workspace}
        kind="performanceMaxTemplates"
        label="Performance Max template"
      />
      {active ? (
        <PerformanceTemplateEditor
          template={active}
          onChange={update}
          measurer={measurer}
          validator={validator}
          actions={
            <>
              <GenerateAdsButton
                workspace={workspace}
                kind="performance"
                run={(campaign, today, options) =>
                  runEngineJob(
                    'generatePerformanceAds',
                    { template: active, campaign, today },
                    options,
                  )
                }
              />
              <Button variant="default" onClick={preview.open}>
                Ad Preview
              </Button>
            </>
          }
        />
      ) : (
        <NoTemplate what="Performance Max" />
      )}
      <AdOutputSection workspace={workspace} kind="performance" />
      {active && preview.rows ? (
        <AdPreviewModal
          opened
          onClose={preview.close}
          kind="performance"
          template={active}
          onChange={(next: PerformanceMaxTemplate) => update(next)}
          rows={preview.rows}
          totalRows={preview.total}
          measurer={measurer}
        />
      ) : null}
    </Stack>
  );
}
