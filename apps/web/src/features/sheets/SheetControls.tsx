import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  CloseButton,
  Group,
  Loader,
  Modal,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { GOOGLE_SHEETS_INTEGRATION, SHEET_MESSAGES } from '@adloom/contract';
import { Link } from 'react-router';
import { useStore } from '../../state/store.ts';
import { useSession } from '../../state/useSession.ts';
import type { FeedMeta } from '../builder/feedSetEditor.ts';
import type { FeedSheets, SheetActivity } from './feedSheets.ts';
import { LinkSheetModal } from './LinkSheetModal.tsx';
import {
  describeSheetProgress,
  describeSheetSync,
  describeUnreachable,
  sheetProgressPercent,
  SHEET_TEXTS,
  truncateSheetName,
} from './sheetText.ts';
import './SheetControls.css';

/** The relative times of the last-sync line are refreshed this often. */
const NOW_REFRESH_MS = 30_000;

/** Spec section 6: the sheet buttons need the user's google-sheets integration. */
function useHasSheetsIntegration(): boolean {
  return useSession()?.user.integrations.includes(GOOGLE_SHEETS_INTEGRATION) ?? false;
}

function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), NOW_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** True while one of the set's sheet calls runs: the feed toolbar is disabled meanwhile. */
export function useSheetsBusy(sheets: FeedSheets): boolean {
  return useStore(sheets.state).activity !== null;
}

/** 'Link New Sheet' (only with the integration) and its modal, for the active feed or list. */
export function LinkSheetButton({
  sheets,
  itemName,
  disabled,
}: {
  sheets: FeedSheets;
  itemName: string;
  disabled?: boolean;
}) {
  const hasIntegration = useHasSheetsIntegration();
  const { activity } = useStore(sheets.state);
  const [isOpen, setIsOpen] = useState(false);
  if (!hasIntegration) return null;
  return (
    <>
      <Button variant="default" onClick={() => setIsOpen(true)} disabled={disabled}>
        {SHEET_TEXTS.linkTitle}
      </Button>
      <LinkSheetModal
        opened={isOpen}
        itemName={itemName}
        progress={activity ? <SheetActivityLine activity={activity} /> : null}
        onClose={() => setIsOpen(false)}
        onLink={async (sheetUrl, keep) => {
          const isDone = await sheets.link(itemName, sheetUrl, keep);
          return isDone || sheets.state.get().pendingReplace !== null;
        }}
      />
    </>
  );
}

/**
 * Everything about the active feed's sheet above its grid: the 'Linked Sheet' row (name, x,
 * Download Data, Upload Data, last sync, and the note while the sheet cannot be reached), the
 * running call's progress, and the question before an upload replaces the sheet's rows.
 */
export function SheetPanel({
  sheets,
  feed,
  disabled,
}: {
  sheets: FeedSheets;
  feed: FeedMeta;
  disabled?: boolean;
}) {
  const { activity, unreachable, heldBack } = useStore(sheets.state);
  const now = useNow();
  const problem = unreachable[feed.name];
  const isLinked = feed.sheetUrl !== '';
  const name = feed.sheetName || feed.sheetUrl;

  return (
    <>
      {isLinked ? (
        <div className="sheet-panel" role="group" aria-label="Linked Sheet">
          <div className="sheet-panel__row">
            <Group gap={6} wrap="nowrap" className="sheet-panel__name">
              <Text size="sm" fw={600} className="sheet-panel__label">
                Linked Sheet
              </Text>
              <Anchor
                size="sm"
                href={feed.sheetUrl}
                target="_blank"
                rel="noreferrer"
                title={name}
                className="sheet-panel__link"
              >
                {truncateSheetName(name)}
              </Anchor>
              <CloseButton
                size="sm"
                aria-label="Clear sheet link"
                title="Clear sheet link (the rows stay)"
                disabled={disabled}
                onClick={() => sheets.clearLink(feed.name)}
              />
            </Group>
            <Group gap="xs" wrap="nowrap" className="sheet-panel__actions">
              <Button
                size="xs"
                variant="default"
                disabled={disabled}
                onClick={() => void sheets.download(feed.name)}
              >
                Download Data
              </Button>
              <Button
                size="xs"
                variant="default"
                disabled={disabled}
                onClick={() => void sheets.upload(feed.name)}
              >
                Upload Data
              </Button>
            </Group>
          </div>
          <Text size="xs" c="dimmed">
            {describeSheetSync(feed.sheetSync, now)}. {SHEET_TEXTS.editsStayHere}
          </Text>
          {heldBack === feed.name && !problem ? (
            <Alert color="blue" variant="light" p="xs" mt={6} role="note">
              <Text size="sm">{SHEET_TEXTS.heldBack}</Text>
            </Alert>
          ) : null}
          {problem ? (
            <Alert color="orange" variant="light" p="xs" mt={6} role="note">
              <Text size="sm">{describeUnreachable(feed.sheetSync)}</Text>
              <Text size="sm" mt={2}>
                {problem.message}
                {problem.toAccount ? (
                  <>
                    {' '}
                    <Anchor component={Link} to="/account" size="sm">
                      Go to Account
                    </Anchor>
                  </>
                ) : null}
              </Text>
              {problem.hint ? (
                <Text size="xs" c="dimmed" mt={2}>
                  {problem.hint}
                </Text>
              ) : null}
            </Alert>
          ) : null}
        </div>
      ) : null}
      {activity ? <SheetActivityLine activity={activity} /> : null}
      <ReplaceSheetModal sheets={sheets} />
    </>
  );
}

/** A running sheet call: what it does and, after 2 s, how far it got. */
export function SheetActivityLine({ activity }: { activity: SheetActivity }) {
  const text = describeSheetProgress(activity.direction, activity.progress);
  const percent = sheetProgressPercent(activity.progress);
  return (
    <div className="sheet-activity" role="status">
      <Group gap="xs" wrap="nowrap">
        <Loader size={14} />
        <Text size="sm">{text}</Text>
        <Text size="sm" c="dimmed" truncate>
          {activity.name}
        </Text>
      </Group>
      {percent !== null ? <Progress value={percent} size="sm" mt={6} aria-label={text} /> : null}
    </div>
  );
}

/** The question before an upload replaces rows only the sheet holds. */
function ReplaceSheetModal({ sheets }: { sheets: FeedSheets }) {
  const { pendingReplace } = useStore(sheets.state);
  return (
    <Modal
      opened={pendingReplace !== null}
      onClose={() => sheets.cancelReplace()}
      title={SHEET_TEXTS.replaceTitle}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text size="sm">{SHEET_MESSAGES.otherRows(pendingReplace?.otherRows ?? 0)}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => sheets.cancelReplace()} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={() => void sheets.confirmReplace()}>
            Replace
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The feed grid's place: out of reach and dimmed while a sheet call replaces its rows. */
export function SheetBusyArea({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <div inert={busy} aria-busy={busy} className={busy ? 'sheet-busy' : undefined}>
      {children}
    </div>
  );
}
