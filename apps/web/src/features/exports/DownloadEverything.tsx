import { useId, useMemo, useState } from 'react';
import { Button, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { combineStores, useStore } from '../../state/store.ts';
import { downloadExport, exportFileNames } from './downloads.ts';
import { useDownloadTarget } from './downloadTarget.ts';
import { allOutputsZipName, everythingExport } from './everything.ts';
import type { ExportableKind } from './exportables.ts';
import type { ExportFilesInput } from './exportJobs.ts';
import { EDITOR_FORMAT_ID, MICROSOFT_FORMAT_ID, type DownloadFormat } from './formats.ts';
import { notifyFileError } from './files.ts';
import { useKeptOutputs } from './keptOutputs.ts';
import './DownloadEverything.css';

/** Texts of the everything-zip control. */
export const DOWNLOAD_EVERYTHING_TEXTS = {
  label: 'Download everything for Google Ads Editor (zip)',
  microsoftLabel: 'Download everything for Microsoft Advertising (zip)',
  nothingYet: 'Have you remembered to generate keywords, ads or extensions?',
  zipping: 'Zipping…',
} as const;

/** What the account loop adds to "Download everything" (features/account-loop). */
export interface DownloadLoop {
  /** Called once the zip is saved, with what it was made from (the build is remembered). */
  remember(input: ExportFilesInput, today: Date): void;
}

/**
 * Two buttons for the Templates section. Google Ads Editor: a zip of the Google Ads Editor CSV of every table the
 * registered template kinds (`kinds`, pages/exportedTables.ts) keep for the client, each file
 * named and formatted as that tab's own download, with the skipped-and-cleaned report and, for
 * Performance Max, the note that images are still needed. Zipped in the engine worker (the lane
 * that keeps the generated ads). The files carry the client's label as every download's do
 * (`downloadExport`); with `loop`, the build is remembered once saved. Microsoft Advertising: a
 * zip of the same tables as one Microsoft bulk file, its report of what could not go or went
 * changed, and the skipped-and-cleaned report.
 */
export function DownloadEverything({
  kinds,
  loop,
}: {
  kinds: readonly ExportableKind[];
  loop?: DownloadLoop;
}) {
  const workspace = useKeptOutputs();
  const { outputs } = workspace;
  const target = useDownloadTarget();
  const { client } = target;
  // Drawn again whenever a kind's kept outputs change; listing the names reads no table.
  useStore(
    useMemo(() => combineStores(kinds.map((kind) => kind.store(outputs))), [kinds, outputs]),
  );
  const [zipping, setZipping] = useState<DownloadFormat | null>(null);
  const reasonId = useId();

  const names = exportFileNames(everythingExport(kinds, outputs, client));
  const hasFiles = names.length > 0;

  async function handleDownload(format: DownloadFormat) {
    // Collected again now: the names carry today's date.
    const today = new Date();
    if (exportFileNames(everythingExport(kinds, outputs, client, today)).length === 0) return;
    setZipping(format);
    try {
      if (format === MICROSOFT_FORMAT_ID) {
        // Microsoft's file is not an Editor build: the loop does not remember it (the Microsoft
        // format writes no labels).
        const input = everythingExport(kinds, outputs, client, today, undefined, format);
        await downloadExport(input, target, { zipName: allOutputsZipName(client, today, format) });
      } else {
        const input = await downloadExport(
          everythingExport(kinds, outputs, client, today),
          target,
          {
            zipName: allOutputsZipName(client, today),
          },
        );
        loop?.remember(input, today);
      }
    } catch (error) {
      notifyFileError(error);
    } finally {
      setZipping(null);
    }
  }
  const isZipping = zipping !== null;

  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end" className="download-everything">
      {isZipping ? (
        <Text size="sm" c="dimmed" role="status">
          {DOWNLOAD_EVERYTHING_TEXTS.zipping}
        </Text>
      ) : hasFiles ? (
        <Tooltip
          label={names.join('\n')}
          withArrow
          multiline
          maw={360}
          style={{ whiteSpace: 'pre-line' }}
          position="bottom-end"
        >
          <Text size="sm" c="dimmed" className="download-everything__count" tabIndex={0}>
            {names.length === 1 ? '1 file' : `${names.length} files`}
          </Text>
        </Tooltip>
      ) : null}
      <Tooltip
        label={DOWNLOAD_EVERYTHING_TEXTS.nothingYet}
        disabled={hasFiles}
        withArrow
        multiline
        maw={280}
        position="bottom-end"
        events={{ hover: true, focus: false, touch: true }}
      >
        <span className="download-everything__wrap">
          <Button
            size="xs"
            variant="light"
            disabled={!hasFiles || isZipping}
            loading={zipping === EDITOR_FORMAT_ID}
            aria-describedby={hasFiles ? undefined : reasonId}
            onClick={() => void handleDownload(EDITOR_FORMAT_ID)}
          >
            {DOWNLOAD_EVERYTHING_TEXTS.label}
          </Button>
        </span>
      </Tooltip>
      <Tooltip
        label={DOWNLOAD_EVERYTHING_TEXTS.nothingYet}
        disabled={hasFiles}
        withArrow
        multiline
        maw={280}
        position="bottom-end"
        events={{ hover: true, focus: false, touch: true }}
      >
        <span className="download-everything__wrap">
          <Button
            size="xs"
            variant="light"
            disabled={!hasFiles || isZipping}
            loading={zipping === MICROSOFT_FORMAT_ID}
            aria-describedby={hasFiles ? undefined : reasonId}
            onClick={() => void handleDownload(MICROSOFT_FORMAT_ID)}
          >
            {DOWNLOAD_EVERYTHING_TEXTS.microsoftLabel}
          </Button>
        </span>
      </Tooltip>
      {hasFiles ? null : (
        <VisuallyHidden id={reasonId}>{DOWNLOAD_EVERYTHING_TEXTS.nothingYet}</VisuallyHidden>
      )}
    </Group>
  );
}
