import { useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IMAGES_NEEDED_NOTE } from '@adloom/engine';
import { useStore } from '../../state/store.ts';
import { OriginNote } from '../exports/OriginNote.tsx';
import { describeOrigin } from '../exports/outputOrigin.ts';
import { downloadTable, notifyFileError, useDownloadTarget } from '../exports/index.ts';
import { EDITOR_FORMAT_ID, MICROSOFT_FORMAT_ID, type DownloadFormat } from '../exports/formats.ts';
import {
  DOWNLOAD_LABEL,
  IssuesList,
  MICROSOFT_DOWNLOAD_LABEL,
  OutputTable,
} from '../output/index.ts';
import { useAdOutputsStore } from './adOutputStore.ts';
import { adsExportTable } from './exportTables.ts';
import type { AdKind } from './GenerateAds.tsx';

const TITLES: Record<AdKind, { label: string }> = {
  rsa: { label: 'Responsive Search Ads' },
  performance: { label: 'Performance Max Ads' },
};

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');
const formatCount = (n: number): string => NUMBER_FORMAT.format(n);

/**
 * Why an ad tab shows fewer ads than groups: "987 ads for 990 ad groups: 3 ad groups have no
 * ad (Skipped and cleaned items says why)".
 */
export function describeMissingAds(kind: AdKind, adCount: number, groupCount: number): string {
  const group = kind === 'rsa' ? 'ad group' : 'asset group';
  const missing = groupCount - adCount;
  const groups = (n: number) => `${formatCount(n)} ${group}${n === 1 ? '' : 's'}`;
  return `${formatCount(adCount)} ${adCount === 1 ? 'ad' : 'ads'} for ${groups(groupCount)}: ${groups(missing)} ${missing === 1 ? 'has' : 'have'} no ad (Skipped and cleaned items says why).`;
}

/**
 * The generated ads of a tab: the virtualized table in the spec's columns with Copy and Clear,
 * 'Download for Google Ads Editor' (the engine's Editor columns), 'Download for Microsoft
 * Advertising' (a zip of the ads' bulk file and its report), and the skipped rows.
 */
export function AdOutputSection({ kind }: { kind: AdKind }) {
  const ads = useAdOutputsStore();
  const output = useStore(ads)[kind];
  const target = useDownloadTarget();
  /** The format being saved, or null. */
  const [saving, setSaving] = useState<DownloadFormat | null>(null);
  const { label } = TITLES[kind];

  async function handleDownload(format: DownloadFormat) {
    if (!output) return;
    setSaving(format);
    try {
      // The ads' Editor table is held by the worker lane that generated them (the default one).
      const table = adsExportTable(kind, output.outputId);
      await downloadTable(table.source, { kind: table.kind, target }, { format });
    } catch (error) {
      notifyFileError(error);
    } finally {
      setSaving(null);
    }
  }

  return (
    <Stack gap="xs" className="ad-output">
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h5">
          {label} output
        </Title>
        {output ? (
          <Group gap="xs" wrap="wrap">
            {(
              [
                [EDITOR_FORMAT_ID, DOWNLOAD_LABEL],
                [MICROSOFT_FORMAT_ID, MICROSOFT_DOWNLOAD_LABEL],
              ] as const
            ).map(([format, words]) => (
              <Button
                key={format}
                variant="default"
                size="xs"
                loading={saving === format}
                disabled={saving !== null && saving !== format}
                aria-label={`${words}: ${label}`}
                onClick={() => void handleDownload(format)}
              >
                {words}
              </Button>
            ))}
          </Group>
        ) : null}
      </Group>
      {output ? (
        <Stack gap={2}>
          <OriginNote origin={output.origin} />
          <Text size="xs" c="dimmed">
            {describeOrigin(
              output.groupsOrigin,
              kind === 'rsa' ? 'For the ad groups made from' : 'For the asset groups made from',
            )}
          </Text>
        </Stack>
      ) : null}
      {output && output.groupCount > output.adCount ? (
        <Text size="sm" className="ad-output__missing" role="note">
          {describeMissingAds(kind, output.adCount, output.groupCount)}
        </Text>
      ) : null}
      {kind === 'performance' ? (
        <Text size="xs" c="#a33a0c" className="ad-output__images">
          {IMAGES_NEEDED_NOTE}
        </Text>
      ) : null}
      <OutputTable
        label={label}
        table={output?.table ?? null}
        onClear={() => ads.set((s) => ({ ...s, [kind]: null }))}
        emptyText="No ads generated yet."
        unit={['ad', 'ads']}
      />
      <IssuesList table={output?.issues ?? null} />
    </Stack>
  );
}
