import { useRef, useState, type ComponentProps, type ReactNode } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import type { PerformanceMaxTemplate, RsaTemplate } from '@adloom/engine';
import { runEngineJob, runPooledEngineJob, useSelectedRows } from '../generation/index.ts';
import { notifyError } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';
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
import { mergeAdParts } from './mergeAdParts.ts';
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
          notifyError(`Could not open the preview: ${describeLocalFailure(error)}`);
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
  constant,
  subject,
}: {
  preview: Preview;
  measurer: TextMeasurer;
  constant: string;
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
      constant={constant}
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

/**
 * The selected rows' text measurer and fallback validator, and the preview, of one ad tab;
 * `{const}` takes the active campaign template's constant, as generation does.
 */
function useAdChecks() {
  const constant = useTemplateSet('campaignTemplates').active?.const ?? '';
  return {
    measurer: useTextMeasurer(constant),
    validator: useFallbackValidator(constant),
    preview: usePreview(),
    constant,
  };
}

/** Generate Ads and Ad Preview of the template in `subject`. */
function AdActions({
  preview,
  subject,
  run,
}: {
  preview: Preview;
  subject: PreviewTemplate;
  run: ComponentProps<typeof GenerateAdsButton>['run'];
}) {
  return (
    <>
      <GenerateAdsButton kind={subject.kind} run={run} />
      <AdPreviewButton preview={preview} subject={subject} />
    </>
  );
}

/** What both ad tabs lay out: the toolbar, the editor (or why none shows), outputs, preview. */
function AdTabFrame({
  hasClient,
  toolbar,
  editor,
  noTemplate,
  outputs,
  preview,
  measurer,
  constant,
  previewSubject,
}: {
  hasClient: boolean;
  toolbar: ReactNode;
  /** The template editor; null when no template is chosen. */
  editor: ReactNode | null;
  /** The template kind named when none is chosen. */
  noTemplate: string;
  outputs: ReactNode;
  preview: Preview;
  measurer: TextMeasurer;
  constant: string;
  /** What the preview shows and edits; null when no template is chosen. */
  previewSubject: AdPreviewSubject | null;
}) {
  if (!hasClient) return <NoClient />;
  return (
    <Stack gap="md">
      {toolbar}
      {editor ?? <NoTemplate what={noTemplate} />}
      {outputs}
      <AdPreview
        preview={preview}
        measurer={measurer}
        constant={constant}
        subject={previewSubject}
      />
    </Stack>
  );
}

/** The Responsive Search Ads tab: template toolbar, fallback editor, Generate Ads, preview, output. */
export function RsaTab() {
  const { active, update, hasClient } = useTemplateSet('rsaTemplates');
  const { preview, constant, ...checks } = useAdChecks();
  return (
    <AdTabFrame
      hasClient={hasClient}
      toolbar={<TemplateToolbar kind="rsaTemplates" label="RSA template" />}
      editor={
        active && (
          <RsaTemplateEditor
            template={active}
            onChange={update}
            {...checks}
            actions={
              <AdActions
                subject={{ kind: 'rsa', template: active, constant }}
                preview={preview}
                run={(campaign, today, options) =>
                  runPooledEngineJob(
                    'generateRsa',
                    { template: active, campaign, today },
                    campaign,
                    mergeAdParts,
                    options,
                  )
                }
              />
            }
          />
        )
      }
      noTemplate="RSA"
      outputs={
        <>
          <AdOutputSection kind="rsa" />
          <LegacyAdsPanel />
        </>
      }
      preview={preview}
      measurer={checks.measurer}
      constant={constant}
      previewSubject={
        active
          ? { kind: 'rsa', template: active, onChange: (next: RsaTemplate) => update(next) }
          : null
      }
    />
  );
}

/** The Performance Max Ads tab. */
export function PerformanceTab() {
  const { active, update, hasClient } = useTemplateSet('performanceMaxTemplates');
  const { preview, constant, ...checks } = useAdChecks();
  return (
    <AdTabFrame
      hasClient={hasClient}
      toolbar={<TemplateToolbar kind="performanceMaxTemplates" label="Performance Max template" />}
      editor={
        active && (
          <PerformanceTemplateEditor
            template={active}
            onChange={update}
            {...checks}
            actions={
              <AdActions
                subject={{ kind: 'performance', template: active, constant }}
                preview={preview}
                run={(campaign, today, options) =>
                  runEngineJob(
                    'generatePerformanceAds',
                    { template: active, campaign, today },
                    options,
                  )
                }
              />
            }
          />
        )
      }
      noTemplate="Performance Max"
      outputs={<AdOutputSection kind="performance" />}
      preview={preview}
      measurer={checks.measurer}
      constant={constant}
      previewSubject={
        active
          ? {
              kind: 'performance',
              template: active,
              onChange: (next: PerformanceMaxTemplate) => update(next),
            }
          : null
      }
    />
  );
}
