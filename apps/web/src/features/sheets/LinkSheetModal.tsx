import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { SHEET_MESSAGES, SHEET_URL_MAX_CHARS, parseSheetUrl } from '@adloom/contract';
import { canLinkSheet, SHEET_TEXTS, type SheetKeep } from './sheetText.ts';

/**
 * Link New Sheet (spec section 5): the sheet's URL, which data to keep, the overwrite warning
 * and the headers hint. 'Link Sheet' is enabled only with a sheet URL and a choice.
 */
export function LinkSheetModal({
  opened,
  itemName,
  progress,
  onClose,
  onLink,
}: {
  opened: boolean;
  /** The feed or list being linked. */
  itemName: string;
  /** The running call's progress line, shown while linking. */
  progress?: ReactNode;
  onClose: () => void;
  /**
   * Links; resolves true to close the modal (done, or a question took over), false to keep it
   * open so the URL can be corrected after the message.
   */
  onLink: (sheetUrl: string, keep: SheetKeep) => Promise<boolean>;
}) {
  const [url, setUrl] = useState('');
  const [keep, setKeep] = useState<SheetKeep | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setUrl('');
      setKeep(null);
    }
  }, [opened]);
  const isValid = canLinkSheet(url, keep);
  const isUrlWrong = url.trim() !== '' && parseSheetUrl(url) === undefined;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isValid || keep === null || isBusy) return;
    setIsBusy(true);
    const shouldClose = await onLink(url.trim(), keep).finally(() => setIsBusy(false));
    if (shouldClose) onClose();
  }

  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!isBusy) onClose();
      }}
      title={SHEET_TEXTS.linkTitle}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(event) => void handleSubmit(event)} aria-label={SHEET_TEXTS.linkTitle}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Links “{itemName}” to a Google Sheet you can open with your linked Google account.
          </Text>
          <TextInput
            label="Sheet URL"
            placeholder="https://docs.google.com/spreadsheets/d/…"
            required
            data-autofocus
            maxLength={SHEET_URL_MAX_CHARS}
            value={url}
            error={isUrlWrong ? SHEET_TEXTS.badUrl : undefined}
            onChange={(event) => setUrl(event.currentTarget.value)}
          />
          <Radio.Group
            label={SHEET_TEXTS.keepQuestion}
            value={keep ?? ''}
            onChange={(value) => setKeep(value === 'upload' || value === 'download' ? value : null)}
          >
            <Stack gap={8} mt={6}>
              <Radio value="upload" label={SHEET_TEXTS.keepUpload} />
              <Radio value="download" label={SHEET_TEXTS.keepDownload} />
            </Stack>
          </Radio.Group>
          <Alert color="orange" variant="light" p="sm" role="note">
            <Text size="sm">{SHEET_TEXTS.overwriteWarning}</Text>
            <Text size="sm" mt={4} c="dimmed">
              {SHEET_MESSAGES.headersHint}
            </Text>
          </Alert>
          {isBusy ? progress : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={isBusy}>
              Cancel
            </Button>
            <Button type="submit" disabled={!isValid} loading={isBusy}>
              Link Sheet
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
