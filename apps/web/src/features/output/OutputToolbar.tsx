import { Button, Group, Text } from '@mantine/core';

/** The button that saves the Editor CSV. */
export const DOWNLOAD_LABEL = 'Download for Google Ads Editor';
/** The button that saves the table as a Microsoft Advertising bulk file (zip with its report). */
export const MICROSOFT_DOWNLOAD_LABEL = 'Download for Microsoft Advertising';

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** The output table's line count and its Copy, Clear, Editor and Microsoft download buttons. */
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
  onMicrosoftDownload,
}: {
  label: string;
  rowCount: number;
  unit: [singular: string, plural: string];
  canCopy: boolean;
  busy: 'copy' | 'download' | 'microsoft' | null;
  onCopy: () => void;
  /** Omitted: no Clear button. */
  onClear: (() => void) | undefined;
  isClearDisabled: boolean;
  canDownload: boolean;
  isDownloadDisabled: boolean;
  onDownload: () => void;
  onMicrosoftDownload: () => void;
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
      {canDownload ? (
        <Button
          size="xs"
          variant="light"
          onClick={onMicrosoftDownload}
          disabled={isDownloadDisabled}
          loading={busy === 'microsoft'}
          aria-label={`${MICROSOFT_DOWNLOAD_LABEL}: ${label}`}
        >
          {MICROSOFT_DOWNLOAD_LABEL}
        </Button>
      ) : null}
    </Group>
  );
}
