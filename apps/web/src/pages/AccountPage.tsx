import { useState, type FormEvent } from 'react';
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
import { PASSWORD_MIN_CHARS } from '@adloom/contract';
import { useNavigate } from 'react-router';
import { deleteAccount, resetTutorials, toggleTutorials } from '../api/users.ts';
import { handleApiError } from '../api/client.ts';
import { isServerFailure } from '../features/auth/messages.ts';
import { logOutEverywhere } from '../features/auth/logOut.ts';
import { notifyError, notifySuccess } from '../state/notifications.ts';
import { clearAppStorage, session } from '../state/session.ts';
import { removeUserDraftsFromIndexedDb } from '../features/drafts/drafts.ts';
import { removeUserTemplateDraftsFromIndexedDb } from '../features/templates/templateDrafts.ts';
import { useSession } from '../state/useSession.ts';
import classes from './AccountPage.module.css';

/** Spec section 8 texts of the account page. */
export const ACCOUNT_MESSAGES = {
  deleteFailed: 'We were unable to delete your account',
  deleted: 'Your account has been deleted',
  disableFailed: "Tutorials can't be disabled at this point",
  resetFailed: "Tutorials couldn't be reset",
  resetDone: 'Tutorials have been reset',
  googleNotConfigured: 'Google Sheets is not configured on this server.',
  loggedOutEverywhere: 'You have been logged out on every device.',
  logOutEverywhereFailed: 'We were unable to log you out everywhere. Please try again.',
} as const;

/**
 * Forgets what this browser keeps of a deleted account: its unsaved feed and template drafts.
 * A browser that refuses IndexedDB has nothing kept, so a failure here is not reported.
 */
async function removeKeptDrafts(userId: string): Promise<void> {
  await Promise.allSettled([
    removeUserDraftsFromIndexedDb(userId),
    removeUserTemplateDraftsFromIndexedDb(userId),
  ]);
}

/** The integration the Sheets features need (spec section 6). */
const GOOGLE_SHEETS = 'google-sheets';

/** /account: Integrations and User Preferences. */
export function AccountPage() {
  const current = useSession();
  if (!current) return null;
  const { user } = current;
  const isSheetsLinked = user.integrations.includes(GOOGLE_SHEETS);

  return (
    <div className={classes.page}>
      <Title order={1} className={classes.title}>
        Account
      </Title>
      <Text c="dimmed" mb="lg">
        {user.email}
      </Text>
      <Stack gap="lg">
        <Paper
          withBorder
          className={classes.section}
          component="section"
          aria-labelledby="integrations-heading"
        >
          <Title order={2} size="h4" id="integrations-heading">
            Integrations
          </Title>
          <div className={classes.item}>
            <div>
              <Group gap="xs">
                <Text fw={600}>Google Sheets</Text>
                <Badge variant="light" color={isSheetsLinked ? 'green' : 'gray'}>
                  {isSheetsLinked ? 'Linked' : 'Not linked'}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                Link a Google account to upload feeds and lists to Sheets and download them back.
              </Text>
              <Text size="sm" mt={6}>
                {ACCOUNT_MESSAGES.googleNotConfigured}
              </Text>
            </div>
            <Button variant="default" disabled>
              {isSheetsLinked ? 'Unlink Google Sheets' : 'Link Google Sheets'}
            </Button>
          </div>
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

  async function handleToggle(shouldDisable: boolean) {
    setIsToggling(true);
    // Show the choice at once; put it back if the server refuses it.
    const setDisabled = (disabled: boolean) =>
      session.updateUser((u) => ({ ...u, tutorial: { ...u.tutorial, disabled } }));
    setDisabled(shouldDisable);
    try {
      await toggleTutorials(shouldDisable);
    } catch (error) {
      setDisabled(!shouldDisable);
      if (isServerFailure(error)) handleApiError(error);
      else notifyError(ACCOUNT_MESSAGES.disableFailed);
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
      else notifyError(ACCOUNT_MESSAGES.resetFailed);
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
      else notifyError(ACCOUNT_MESSAGES.deleteFailed);
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
              removed. Enter your password to confirm.
            </Text>
            <PasswordInput
              label="Password"
              description={`At least ${PASSWORD_MIN_CHARS} characters`}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
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
      else notifyError(ACCOUNT_MESSAGES.logOutEverywhereFailed);
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
