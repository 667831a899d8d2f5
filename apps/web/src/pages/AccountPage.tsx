import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  GOOGLE_LINK_MESSAGES,
  GOOGLE_SHEETS_INTEGRATION,
  PASSWORD_MIN_CHARS,
  type GoogleStatus,
} from '@adloom/contract';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, statusOf } from '../api/errors.ts';
import {
  exchangeGoogleCode,
  getConsentUrl,
  getGoogleStatus,
  unlinkGoogleSheets,
} from '../api/google.ts';
import { deleteAccount, downloadMyData, resetTutorials, toggleTutorials } from '../api/users.ts';
import { handleApiError } from '../api/client.ts';
import { isServerFailure } from '../features/auth/messages.ts';
import { logOutEverywhere } from '../features/auth/logOut.ts';
import { notifyError, notifyInfo, notifySuccess } from '../state/notifications.ts';
import { clearAppStorage, session } from '../state/session.ts';
import { removeUserDraftsFromIndexedDb } from '../features/drafts/drafts.ts';
import { removeUserTemplateDraftsFromIndexedDb } from '../features/templates/templateDrafts.ts';
import { useSession } from '../state/useSession.ts';
import { TUTORIAL_MESSAGES } from '../features/tutorial/messages.ts';
import { indexedDbMicrosoftLocations, saveBlob } from '../features/exports/index.ts';
import { AccountEmailSection } from './AccountEmailSection.tsx';
import classes from './AccountPage.module.css';

/** Spec section 8 texts of the account page. */
export const ACCOUNT_MESSAGES = {
  deleteFailed: 'We were unable to delete your account',
  deleted: 'Your account has been deleted',
  disableFailed: TUTORIAL_MESSAGES.disableFailed,
  resetFailed: TUTORIAL_MESSAGES.resetFailed,
  resetDone: TUTORIAL_MESSAGES.resetDone,
  // In a customer's words: the settings that turn it on are the operator's (README, Settings).
  googleNotConfigured:
    'Google Sheets is not set up on this server. Ask the person who runs your Adloom to connect Google.',
  googleStatusFailed: 'The Google Sheets link could not be checked.',
  googleNeedsConsent:
    "Google no longer accepts Adloom's access to your Google account. Link it again to download and upload sheets.",
  googleUnlinkWarning:
    'Unlinking stops Download Data and Upload Data on every linked feed and list until you link again. Your feeds keep their last rows.',
  googleNotRevoked:
    "Google could not be reached to withdraw Adloom's access. Adloom no longer holds it; you can also remove Adloom under your Google account's security settings.",
  loggedOutEverywhere: 'You have been logged out on every device.',
  logOutEverywhereFailed: 'We were unable to log you out everywhere. Please try again.',
  downloadDataFailed: 'We were unable to make your data file. Please try again.',
} as const;

/** `adloom-data-<yyyymmdd>.zip` in the person's own date. */
function myDataFileName(today = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `adloom-data-${today.getFullYear()}${pad(today.getMonth() + 1)}${pad(today.getDate())}.zip`;
}

/**
 * "Download my data": every client with its feeds and templates, and the lists, as one zip
 * (JSON, and the feeds as CSV). `variant`: how prominent the button is where it stands.
 */
function DownloadMyDataButton({ variant = 'default' }: { variant?: 'default' | 'light' }) {
  const [isDownloading, setIsDownloading] = useState(false);
  async function handleDownload() {
    setIsDownloading(true);
    try {
      saveBlob(await downloadMyData(), myDataFileName());
    } catch (error) {
      if (isServerFailure(error)) handleApiError(error);
      else notifyError(ACCOUNT_MESSAGES.downloadDataFailed);
    } finally {
      setIsDownloading(false);
    }
  }
  return (
    <Button variant={variant} onClick={() => void handleDownload()} loading={isDownloading}>
      Download My Data
    </Button>
  );
}

/**
 * Forgets what this browser keeps of a deleted account: its unsaved feed and template drafts
 * and its Microsoft locations file.
 * A browser that refuses IndexedDB has nothing kept, so a failure here is not reported.
 */
async function removeKeptDrafts(userId: string): Promise<void> {
  await Promise.allSettled([
    removeUserDraftsFromIndexedDb(userId),
    removeUserTemplateDraftsFromIndexedDb(userId),
    indexedDbMicrosoftLocations.remove(userId),
  ]);
}

/** /account: Email Address, Integrations and User Preferences. */
export function AccountPage() {
  const current = useSession();
  if (!current) return null;
  const { user } = current;

  return (
    <div className={classes.page}>
      <Title order={1} className={classes.title}>
        Account
      </Title>
      <Text c="dimmed" mb="lg">
        {user.email}
      </Text>
      <Stack gap="lg">
        <AccountEmailSection user={user} />
        <Paper
          withBorder
          className={classes.section}
          component="section"
          aria-labelledby="integrations-heading"
        >
          <Title order={2} size="h4" id="integrations-heading">
            Integrations
          </Title>
          <GoogleSheetsItem />
        </Paper>
        <UserPreferences
          tutorialsDisabled={user.tutorial.disabled}
          email={user.email}
          userId={user._id}
        />
      </Stack>
    </div>
  );
}

/** Keeps the session's integrations in step with the link the server reports. */
function syncIntegration(status: GoogleStatus): void {
  const isLinked = status.status === 'linked';
  session.updateUser((u) =>
    u.integrations.includes(GOOGLE_SHEETS_INTEGRATION) === isLinked
      ? u
      : {
          ...u,
          integrations: isLinked
            ? [...u.integrations, GOOGLE_SHEETS_INTEGRATION]
            : u.integrations.filter((i) => i !== GOOGLE_SHEETS_INTEGRATION),
        },
  );
}

const LINK_BADGES = {
  linked: { label: 'Linked', color: 'green' },
  not_linked: { label: 'Not linked', color: 'gray' },
  needs_consent: { label: 'Needs linking again', color: 'orange' },
} as const;

/**
 * Integrations, Google Sheets (spec sections 2 and 6): the link's status from the server; Link
 * goes to Google's consent page, which sends the browser back to /account?code&state, where
 * the code is exchanged and the query removed; Unlink asks first. A server without the Google
 * settings says so and offers no button.
 */
function GoogleSheetsItem() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [status, setStatus] = useState<GoogleStatus | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [isUnlinkOpen, setIsUnlinkOpen] = useState(false);
  const handledReturn = useRef<string | null>(null);
  const code = params.get('code');
  const state = params.get('state');
  const googleError = params.get('error');

  const applyStatus = useCallback((next: GoogleStatus) => {
    setStatus(next);
    setLoadFailed(false);
    syncIntegration(next);
  }, []);

  const loadStatus = useCallback(async () => {
    setLoadFailed(false);
    try {
      applyStatus(await getGoogleStatus());
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) handleApiError(error);
      setLoadFailed(true);
    }
  }, [applyStatus]);

  useEffect(() => {
    const returned = code ?? googleError;
    if (returned === null) {
      void loadStatus();
      return;
    }
    // Google sent the browser back: exchange the code once (a strict-mode rerun sees the ref).
    if (handledReturn.current === returned) return;
    handledReturn.current = returned;
    void (async () => {
      setIsBusy(true);
      try {
        if (code === null || state === null) throw new Error(googleError ?? 'No code');
        const answer = await exchangeGoogleCode({ code, state });
        applyStatus(answer.status);
        session.updateUser((u) => ({ ...u, integrations: answer.user.integrations }));
        notifySuccess(GOOGLE_LINK_MESSAGES.linked);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'unauthorized') handleApiError(error);
        else notifyError(GOOGLE_LINK_MESSAGES.linkFailed, undefined, statusOf(error));
        await loadStatus();
      } finally {
        setIsBusy(false);
        // The code is used once; a reload must not send it again.
        void navigate('/account', { replace: true });
      }
    })();
  }, [code, state, googleError, loadStatus, applyStatus, navigate]);

  async function handleLink() {
    setIsBusy(true);
    try {
      const { url } = await getConsentUrl();
      window.location.assign(url);
    } catch (error) {
      setIsBusy(false);
      if (error instanceof ApiError && error.code === 'not_configured')
        applyStatus({ configured: false, status: 'not_linked' });
      else if (error instanceof ApiError && error.code === 'unauthorized') handleApiError(error);
      else notifyError(GOOGLE_LINK_MESSAGES.linkFailed, undefined, statusOf(error));
    }
  }

  async function handleUnlink() {
    setIsBusy(true);
    try {
      const answer = await unlinkGoogleSheets();
      applyStatus(answer.status);
      session.updateUser((u) => ({ ...u, integrations: answer.user.integrations }));
      setIsUnlinkOpen(false);
      notifySuccess(GOOGLE_LINK_MESSAGES.unlinked);
      if (answer.revoked === false) notifyInfo(ACCOUNT_MESSAGES.googleNotRevoked);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unauthorized') handleApiError(error);
      else notifyError(GOOGLE_LINK_MESSAGES.unlinkFailed, undefined, statusOf(error));
    } finally {
      setIsBusy(false);
    }
  }

  const badge = status && status.configured ? LINK_BADGES[status.status] : null;
  let text: string;
  let action: ReactNode = null;
  if (status === null) {
    text = loadFailed ? ACCOUNT_MESSAGES.googleStatusFailed : 'Checking the link…';
    if (loadFailed)
      action = (
        <Button variant="default" onClick={() => void loadStatus()}>
          Try Again
        </Button>
      );
  } else if (!status.configured) {
    text = ACCOUNT_MESSAGES.googleNotConfigured;
  } else if (status.status === 'linked') {
    text = status.linkedAt
      ? `Linked on ${formatDate(status.linkedAt)}. Linked feeds and lists download from and upload to their sheets.`
      : 'Linked feeds and lists download from and upload to their sheets.';
    action = (
      <Button variant="default" onClick={() => setIsUnlinkOpen(true)} disabled={isBusy}>
        Unlink Google Sheets
      </Button>
    );
  } else if (status.status === 'needs_consent') {
    text = ACCOUNT_MESSAGES.googleNeedsConsent;
    action = (
      <Button onClick={() => void handleLink()} loading={isBusy}>
        Link again
      </Button>
    );
  } else {
    text = 'Link a Google account to upload feeds and lists to Sheets and download them back.';
    action = (
      <Button onClick={() => void handleLink()} loading={isBusy}>
        Link Google Sheets
      </Button>
    );
  }

  return (
    <div className={classes.item}>
      <div>
        <Group gap="xs">
          <Text fw={600}>Google Sheets</Text>
          {badge ? (
            <Badge variant="light" color={badge.color}>
              {badge.label}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c={status?.configured === false ? undefined : 'dimmed'} role="status">
          {text}
        </Text>
      </div>
      {action}
      <Modal
        opened={isUnlinkOpen}
        onClose={() => setIsUnlinkOpen(false)}
        title="Unlink Google Sheets?"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md">
          <Text size="sm">{ACCOUNT_MESSAGES.googleUnlinkWarning}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setIsUnlinkOpen(false)} data-autofocus>
              Cancel
            </Button>
            <Button color="red" onClick={() => void handleUnlink()} loading={isBusy}>
              Unlink
            </Button>
          </Group>
        </Stack>
      </Modal>
    </div>
  );
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_FORMAT.format(date);
}

function UserPreferences({
  tutorialsDisabled,
  email,
  userId,
}: {
  tutorialsDisabled: boolean;
  email: string;
  userId: string;
}) {
  const navigate = useNavigate();
  const [isToggling, setIsToggling] = useState(false);
  const [isResetting, setIsResetting] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [isDeleting, setIsDeleting] = useState(false);
  const [passwordError, setPasswordError] = useState<string | null>(null);

  async function handleToggle(shouldDisable: boolean) {
    setIsToggling(true);
    // Show the choice at once; put it back if the server refuses it.
    const setDisabled = (disabled: boolean) =>
      session.updateUser((u) => ({ ...u, tutorial: { ...u.tutorial, disabled } }));
    setDisabled(shouldDisable);
    try {
      const tutorial = await toggleTutorials(shouldDisable);
      session.updateUser((u) => ({ ...u, tutorial }));
    } catch (error) {
      setDisabled(!shouldDisable);
      if (isServerFailure(error)) handleApiError(error);
      else notifyError(ACCOUNT_MESSAGES.disableFailed, undefined, statusOf(error));
    } finally {
      setIsToggling(false);
    }
  }

  async function handleResetTutorials() {
    setIsResetting(true);
    try {
      const tutorial = await resetTutorials();
      session.updateUser((u) => ({ ...u, tutorial }));
      notifySuccess(ACCOUNT_MESSAGES.resetDone);
    } catch (error) {
      if (isServerFailure(error)) handleApiError(error);
      else notifyError(ACCOUNT_MESSAGES.resetFailed, undefined, statusOf(error));
    } finally {
      setIsResetting(false);
    }
  }

  async function handleDelete(event: FormEvent) {
    event.preventDefault();
    if (password.length < PASSWORD_MIN_CHARS) return;
    setIsDeleting(true);
    try {
      await deleteAccount({ email, password });
      await removeKeptDrafts(userId);
      setIsDeleteOpen(false);
      // Spec section 2: /login reached from the account page leads to /register. Leave the
      // guarded page first (flushSync: committed before the session ends) so its guard does not
      // send the person to a plain /login on its own.
      await navigate('/login', {
        replace: true,
        state: { fromAccountPage: true },
        flushSync: true,
      });
      session.signOut('deleted');
      clearAppStorage(localStorage);
      notifySuccess(ACCOUNT_MESSAGES.deleted);
    } catch (error) {
      if (isServerFailure(error)) handleApiError(error);
      else if (isPasswordRefusal(error)) setPasswordError(error.message);
      else notifyError(ACCOUNT_MESSAGES.deleteFailed, undefined, statusOf(error));
    } finally {
      setPassword('');
      setIsDeleting(false);
    }
  }

  return (
    <Paper
      withBorder
      className={classes.section}
      component="section"
      aria-labelledby="preferences-heading"
    >
      <Title order={2} size="h4" id="preferences-heading">
        User Preferences
      </Title>
      <div className={classes.item}>
        <div>
          <Checkbox
            label="Disable tutorials"
            description="Stop showing the first-time tutorial steps."
            checked={tutorialsDisabled}
            disabled={isToggling}
            onChange={(e) => void handleToggle(e.currentTarget.checked)}
          />
        </div>
      </div>
      <div className={classes.item}>
        <div>
          <Text fw={600}>Reset tutorials</Text>
          <Text size="sm" c="dimmed">
            Show every tutorial step again, as on your first visit.
          </Text>
        </div>
        <Button variant="default" onClick={() => void handleResetTutorials()} loading={isResetting}>
          Reset Tutorials
        </Button>
      </div>
      <LogOutEverywhereItem />
      <div className={classes.item}>
        <div>
          <Text fw={600}>Download my data</Text>
          <Text size="sm" c="dimmed">
            Every client with its feeds and templates, and your lists, in one zip (JSON, and the
            feeds as CSV).
          </Text>
        </div>
        <DownloadMyDataButton />
      </div>
      <div className={classes.item}>
        <div>
          <Text fw={600} c="red.8">
            Delete account
          </Text>
          <Text size="sm" c="dimmed">
            Permanently removes your account, clients, feeds, lists and templates.
          </Text>
        </div>
        <Button color="red" variant="light" onClick={() => setIsDeleteOpen(true)}>
          Delete Account
        </Button>
      </div>
      <Modal
        opened={isDeleteOpen}
        onClose={() => {
          setIsDeleteOpen(false);
          setPassword('');
          setPasswordError(null);
        }}
        title="Delete your account?"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <form onSubmit={handleDelete}>
          {/* Lets password managers tell which account the password belongs to. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={email}
            readOnly
            hidden
          />
          <Stack gap="md">
            <Text size="sm">
              This cannot be undone. Every client, feed, list and template you keep in Adloom is
              removed. Take a copy first if you may need it.
            </Text>
            <Group>
              <DownloadMyDataButton variant="light" />
            </Group>
            <Text size="sm">Enter your password to confirm.</Text>
            <PasswordInput
              label="Password"
              description={`At least ${PASSWORD_MIN_CHARS} characters`}
              autoComplete="current-password"
              value={password}
              error={passwordError}
              aria-invalid={passwordError ? true : undefined}
              onChange={(e) => {
                setPassword(e.currentTarget.value);
                setPasswordError(null);
              }}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setIsDeleteOpen(false)}>
                Cancel
              </Button>
              <Button
                type="submit"
                color="red"
                disabled={password.length < PASSWORD_MIN_CHARS}
                loading={isDeleting}
              >
                Delete Account
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}

/**
 * Delete account refused for the password: wrong (403) or too many tries (429); the server's
 * words say which, beside the field.
 */
function isPasswordRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 403 || error.status === 429);
}

/** "Log out everywhere": ends every session of the account, after a confirmation. */
function LogOutEverywhereItem() {
  const navigate = useNavigate();
  const [isConfirmOpen, setIsConfirmOpen] = useState(false);
  const [isEnding, setIsEnding] = useState(false);

  async function handleLogOutEverywhere() {
    setIsEnding(true);
    try {
      // Leave the guarded page before the session ends here, as delete account does.
      await logOutEverywhere(undefined, () =>
        navigate('/login', { replace: true, flushSync: true }),
      );
      notifySuccess(ACCOUNT_MESSAGES.loggedOutEverywhere);
    } catch (error) {
      if (isServerFailure(error)) handleApiError(error);
      else notifyError(ACCOUNT_MESSAGES.logOutEverywhereFailed, undefined, statusOf(error));
      setIsEnding(false);
    }
  }

  return (
    <div className={classes.item}>
      <div>
        <Text fw={600}>Log out everywhere</Text>
        <Text size="sm" c="dimmed">
          Ends every session of this account, on every device, including this one.
        </Text>
      </div>
      <Button variant="default" onClick={() => setIsConfirmOpen(true)}>
        Log Out Everywhere
      </Button>
      <Modal
        opened={isConfirmOpen}
        onClose={() => setIsConfirmOpen(false)}
        title="Log out everywhere?"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md">
          <Text size="sm">
            Every browser and device signed in to this account, this one included, will have to log
            in again.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setIsConfirmOpen(false)}>
              Cancel
            </Button>
            <Button onClick={() => void handleLogOutEverywhere()} loading={isEnding}>
              Log Out Everywhere
            </Button>
          </Group>
        </Stack>
      </Modal>
    </div>
  );
}
