import { useRef, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import type { PerformanceMaxTemplate, RsaTemplate } from '@adloom/engine';
import { runEngineJob, useSelectedRows } from '../generation/index.ts';
import { notifyError } from '../../state/notifications.ts';
import { AdPreviewModal, type AdPreviewSubject } from './AdPreviewModal.tsx';
import type { TextMeasurer } from '../validation/index.ts';
import {
  PREVIEW_TEXTS,
  selectedPreviewRows,
  type PreviewRows,
  type PreviewTemplate,
} from '../preview/index.ts';
import { TemplateToolbar } from '../builder/TemplateToolbar.tsx';
import { useTemplateSet } from '../builder/useTemplateSet.ts';
import {
  VALIDATE_LANE,
  useFallbackValidator,
  useTextMeasurer,
} from '../validation/useWorkerChecks.ts';
import { LegacyAdsPanel } from '../legacy-ads/index.ts';
import { AdOutputSection } from './AdOutputSection.tsx';
import { GenerateAdsButton } from './GenerateAds.tsx';
import { PerformanceTemplateEditor, RsaTemplateEditor } from './RsaTemplateEditor.tsx';

/**
 * Opening the preview: the engine worker finds the first selected row a fallback serves (over
 * every selected row, where the rows already are), and the slideshow reads each row as it shows.
 */
function usePreview() {
  const selection = useSelectedRows();
  const [shown, setShown] = useState<{ rows: PreviewRows; startRow: number } | null>(null);
  const [isOpening, setOpening] = useState(false);
  const attempt = useRef(0);
  return {
    shown,
    isOpening,
    async open(subject: PreviewTemplate) {
      if (selection.count === 0) {
        notifyError(PREVIEW_TEXTS.noRows);
        return;
      }
      const source = selection.source;
      const current = (attempt.current += 1);
      setOpening(true);
      try {
        const startRow = await runEngineJob('findPreviewRow', subject, {
          rows: source,
          lane: VALIDATE_LANE,
        });
        if (current !== attempt.current) return;
        setShown({ rows: selectedPreviewRows(source.store), startRow });
      } catch (error) {
        if (current === attempt.current)
          notifyError(error instanceof Error ? error.message : String(error));
      } finally {
        if (current === attempt.current) setOpening(false);
      }
    },
    close: () => {
      attempt.current += 1;
      setOpening(false);
      setShown(null);
    },
  };
}

type Preview = ReturnType<typeof usePreview>;

function AdPreviewButton({ preview, subject }: { preview: Preview; subject: PreviewTemplate }) {
  return (
    <Button
      variant="default"
      loading={preview.isOpening}
      onClick={() => void preview.open(subject)}
    >
      Ad Preview
    </Button>
  );
}

/** The preview dialog once opened (`subject` null: no template chosen). */
function AdPreview({
  preview,
  measurer,
  subject,
}: {
  preview: Preview;
  measurer: TextMeasurer;
  subject: AdPreviewSubject | null;
}) {
  if (!subject || !preview.shown) return null;
  return (
    <AdPreviewModal
      opened
      onClose={preview.close}
      rows={preview.shown.rows}
      startRow={preview.shown.startRow}
      measurer={measurer}
      {...subject}
    />
  );
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
export function RsaTab() {
  const { active, update, hasClient } = useTemplateSet('rsaTemplates');
  const measurer = useTextMeasurer();
  const validator = useFallbackValidator();
  const preview = usePreview();
  if (!hasClient) return <NoClient />;
  return (
    <Stack gap="md">
      <TemplateToolbar kind="rsaTemplates" label="RSA template" />
      {active ? (
        <RsaTemplateEditor
          template={active}
          onChange={update}
          measurer={measurer}
          validator={validator}
          actions={
            <>
              <GenerateAdsButton
                kind="rsa"
                run={(campaign, today, options) =>
                  runEngineJob('generateRsa', { template: active, campaign, today }, options)
                }
              />
              <AdPreviewButton preview={preview} subject={{ kind: 'rsa', template: active }} />
            </>
          }
        />
      ) : (
        <NoTemplate what="RSA" />
      )}
      <AdOutputSection kind="rsa" />
      <LegacyAdsPanel />
      <AdPreview
        preview={preview}
        measurer={measurer}
        subject={
          active
            ? { kind: 'rsa', template: active, onChange: (next: RsaTemplate) => update(next) }
            : null
        }
      />
    </Stack>
  );
}

/** The Performance Max Ads tab. */
export function PerformanceTab() {
  const { active, update, hasClient } = useTemplateSet('performanceMaxTemplates');
  const measurer = useTextMeasurer();
  const validator = useFallbackValidator();
  const preview = usePreview();
  if (!hasClient) return <NoClient />;
  return (
    <Stack gap="md">
      <TemplateToolbar kind="performanceMaxTemplates" label="Performance Max template" />
      {active ? (
        <PerformanceTemplateEditor
          template={active}
          onChange={update}
          measurer={measurer}
          validator={validator}
          actions={
            <>
              <GenerateAdsButton
                kind="performance"
                run={(campaign, today, options) =>
                  runEngineJob(
                    'generatePerformanceAds',
                    { template: active, campaign, today },
                    options,
                  )
                }
              />
              <AdPreviewButton
                preview={preview}
                subject={{ kind: 'performance', template: active }}
              />
            </>
          }
        />
      ) : (
        <NoTemplate what="Performance Max" />
      )}
      <AdOutputSection kind="performance" />
      <AdPreview
        preview={preview}
        measurer={measurer}
        subject={
          active
            ? {
                kind: 'performance',
                template: active,
                onChange: (next: PerformanceMaxTemplate) => update(next),
              }
            : null
        }
      />
    </Stack>
  );
}
