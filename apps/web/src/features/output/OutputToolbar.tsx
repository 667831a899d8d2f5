import { Button, Group, Text } from '@mantine/core';

/** The button that saves the Editor CSV. */
export const DOWNLOAD_LABEL = 'Download for Google Ads Editor';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** The output table's line count and its Copy, Clear and Editor download buttons. */
export function OutputToolbar({
  label,
  rowCount,
  unit,
  canCopy,
  busy,
  onCopy,
  onClear,
  isClearDisabled,
  canDownload,
  isDownloadDisabled,
  onDownload,
}: {
  label: string;
  rowCount: number;
  unit: [singular: string, plural: string];
  canCopy: boolean;
  busy: 'copy' | 'download' | null;
  onCopy: () => void;
  /** Omitted: no Clear button. */
  onClear: (() => void) | undefined;
  isClearDisabled: boolean;
  canDownload: boolean;
  isDownloadDisabled: boolean;
  onDownload: () => void;
}) {
  return (
    <Group gap="xs" wrap="wrap" className="output-table__toolbar">
      <Text size="sm" c="dimmed" className="output-table__count" aria-live="polite">
        {NUMBER_FORMAT.format(rowCount)} {rowCount === 1 ? unit[0] : unit[1]}
      </Text>
      <Button
        size="xs"
        variant="default"
        onClick={onCopy}
        disabled={!canCopy}
        loading={busy === 'copy'}
        aria-label={`Copy ${label}`}
      >
        Copy
      </Button>
      {onClear ? (
        <Button
          size="xs"
          variant="default"
          onClick={onClear}
          disabled={isClearDisabled}
          aria-label={`Clear ${label}`}
        >
          Clear
        </Button>
      ) : null}
      {canDownload ? (
        <Button
          size="xs"
          variant="light"
          onClick={onDownload}
          disabled={isDownloadDisabled}
          loading={busy === 'download'}
          aria-label={`${DOWNLOAD_LABEL}: ${label}`}
        >
          {DOWNLOAD_LABEL}
        </Button>
      ) : null}
    </Group>
  );
}
