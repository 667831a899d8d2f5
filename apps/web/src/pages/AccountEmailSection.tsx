import { useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { TOOL_NAMES, type PublicUser } from '@adloom/contract';
import { handleApiError } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { changeEmail } from '../api/users.ts';
import { SendLinkAgainButton } from '../features/auth/VerifyEmailNotice.tsx';
import { notifyError, notifySuccess } from '../state/notifications.ts';
import { session } from '../state/session.ts';
import classes from './AccountPage.module.css';

/** What the section says of the address, by whether it is verified and what waits for it. */
function describeAddress(user: PublicUser): string {
  if (user.emailVerified) return 'Verified.';
  const waiting = (user.pendingTools ?? []).map((tool) => TOOL_NAMES[tool] ?? tool);
  const base = 'Not verified yet: open the link we mailed to this address.';
  return waiting.length > 0 ? `${base} ${capitalize(waiting.join(' and '))} wait for it.` : base;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Account, Email Address (issue 37): the address, whether it is verified (with Send the link
 * again while it is not), and Change Email, which asks for the password; a new address waits
 * for its own link.
 */
export function AccountEmailSection({ user }: { user: PublicUser }) {
  const [isOpen, setIsOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [isSaving, setIsSaving] = useState(false);

  function close() {
    setIsOpen(false);
    setEmail('');
    setPassword('');
    setErrors({});
  }

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setIsSaving(true);
    try {
      const answer = await changeEmail({ email, password });
      session.updateUser(() => answer.user);
      notifySuccess(answer.message);
      close();
    } catch (error) {
      if (!(error instanceof ApiError) || !error.hasResponse || error.status > 499) {
        handleApiError(error);
      } else if (error.status === 403 && error.code === 'forbidden') {
        setErrors({ password: error.message });
      } else if (error.fieldPaths.includes('email')) {
        setErrors({ email: error.fieldErrors[error.fieldPaths.indexOf('email')] ?? error.message });
      } else if (error.code === 'bad_request') {
        setErrors({ email: error.message });
      } else if (error.status === 401) {
        handleApiError(error);
      } else {
        notifyError(error.message, undefined, error.status);
      }
    } finally {
      setIsSaving(false);
      setPassword('');
    }
  }

  return (
    <Paper
      withBorder
      className={classes.section}
      component="section"
      aria-labelledby="email-heading"
    >
      <Title order={2} size="h4" id="email-heading">
        Email Address
      </Title>
      <div className={classes.item}>
        <div>
          <Group gap="xs">
            <Text fw={600}>{user.email}</Text>
            <Badge variant="light" color={user.emailVerified ? 'green' : 'orange'}>
              {user.emailVerified ? 'Verified' : 'Not verified'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {describeAddress(user)}
          </Text>
        </div>
        <Group gap="xs" className={classes.actions}>
          {user.emailVerified ? null : <SendLinkAgainButton variant="default" size="sm" />}
          <Button variant="default" onClick={() => setIsOpen(true)}>
            Change Email
          </Button>
        </Group>
      </div>
      <Modal
        opened={isOpen}
        onClose={close}
        title="Change your email address"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <form onSubmit={handleSubmit} aria-label="Change email address">
          <Stack gap="md">
            <Text size="sm">
              We will mail a link to the new address. Until you open it, tools your address opens
              wait for the verification.
            </Text>
            <TextInput
              label="New email"
              type="email"
              autoComplete="email"
              value={email}
              error={errors.email}
              onChange={(e) => {
                setEmail(e.currentTarget.value);
                setErrors((current) => ({ ...current, email: undefined }));
              }}
              required
              data-autofocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              error={errors.password}
              onChange={(e) => {
                setPassword(e.currentTarget.value);
                setErrors((current) => ({ ...current, password: undefined }));
              }}
              required
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={isSaving}>
                Change Email
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
