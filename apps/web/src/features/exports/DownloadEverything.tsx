import { useId, useMemo, useState } from 'react';
import { Button, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useStore } from '../../state/store.ts';
import { useAdOutputsStore } from '../ad-templates/adOutputStore.ts';
import { useCampaignTabOutputStore } from '../campaign-template/campaignTabState.ts';
import { extensionOutputsOf } from '../extension-template/extensionOutput.ts';
import { runEngineJob } from '../generation/index.ts';
import { notifyFileError, saveBlob } from './files.ts';
import { allOutputsZipName, collectEditorFiles } from './editorFiles.ts';
import { useKeptOutputs } from './keptOutputs.ts';
import './DownloadEverything.css';

/** Texts of the everything-zip control. */
export const DOWNLOAD_EVERYTHING_TEXTS = {
  label: 'Download everything for Google Ads Editor (zip)',
  nothingYet: 'Have you remembered to generate keywords, ads or extensions?',
  zipping: 'Zipping…',
} as const;

/**
 * One button for the Templates section: a zip of the Google Ads Editor CSV of every output kept
 * for the client, each file named and formatted as that tab's own download, with the
 * skipped-and-cleaned report and, for Performance Max, the note that images are still needed. Zipped in the
 * engine worker (the lane that keeps the generated ads).
 */
export function DownloadEverything() {
  const workspace = useKeptOutputs();
  const { client } = useStore(workspace.state);
  const campaigns = useStore(useCampaignTabOutputStore());
  const ads = useStore(useAdOutputsStore());
  const extensions = useStore(extensionOutputsOf(workspace.outputs));
  const [isZipping, setIsZipping] = useState(false);
  const reasonId = useId();

  const files = useMemo(
    () => collectEditorFiles({ client, campaigns, ads, extensions }),
    [client, campaigns, ads, extensions],
  );
  const hasFiles = files.length > 0;

  async function handleDownload() {
    // Collected again now: the names carry today's date.
    const today = new Date();
    const now = collectEditorFiles({ client, campaigns, ads, extensions }, today);
    if (now.length === 0) return;
    setIsZipping(true);
    try {
      const zipped = await runEngineJob('zipEditorFiles', { files: now });
      saveBlob(zipped.blob, allOutputsZipName(client, today));
    } catch (error) {
      notifyFileError(error);
    } finally {
      setIsZipping(false);
    }
  }

  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end" className="download-everything">
      {isZipping ? (
        <Text size="sm" c="dimmed" role="status">
          {DOWNLOAD_EVERYTHING_TEXTS.zipping}
        </Text>
      ) : hasFiles ? (
        <Tooltip
          label={files.map((file) => file.name).join('\n')}
          withArrow
          multiline
          maw={360}
          style={{ whiteSpace: 'pre-line' }}
          position="bottom-end"
        >
          <Text size="sm" c="dimmed" className="download-everything__count" tabIndex={0}>
            {files.length === 1 ? '1 file' : `${files.length} files`}
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
            disabled={!hasFiles}
            loading={isZipping}
            aria-describedby={hasFiles ? undefined : reasonId}
            onClick={() => void handleDownload()}
          >
            {DOWNLOAD_EVERYTHING_TEXTS.label}
          </Button>
        </span>
      </Tooltip>
      {hasFiles ? null : (
        <VisuallyHidden id={reasonId}>{DOWNLOAD_EVERYTHING_TEXTS.nothingYet}</VisuallyHidden>
      )}
    </Group>
  );
}
