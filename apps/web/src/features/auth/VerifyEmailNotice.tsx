import { useEffect, useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { TOOL_NAMES, VERIFY_MESSAGES } from '@adloom/contract';
import { handleApiError } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { fetchMe, sendVerificationAgain } from '../../api/users.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { session } from '../../state/session.ts';
import { useSession } from '../../state/useSession.ts';

/** The button's words (the issue's). */
export const SEND_AGAIN_LABEL = 'Send the link again';

/** Takes the signed-in user's record from the server (after a verification elsewhere). */
export async function refreshSignedInUser(): Promise<void> {
  const token = session.get()?.token;
  if (!token) return;
  const user = await fetchMe();
  if (session.get()?.token === token) session.updateUser(() => user);
}

/**
 * Asks the server to mail the verification link again and tells the person what happened: the
 * link is on its way, the address is verified already (then the user record is refreshed), or
 * the limit's wait.
 */
export async function askForLinkAgain(): Promise<void> {
  try {
    const answer = await sendVerificationAgain();
    notifySuccess(answer.message);
    if (answer.message === VERIFY_MESSAGES.alreadyVerified) await refreshSignedInUser();
  } catch (error) {
    if (error instanceof ApiError && error.hasResponse && error.status < 500)
      notifyError(error.message, undefined, error.status);
    else handleApiError(error);
  }
}

/** The "Send the link again" button, busy while the request runs. */
export function SendLinkAgainButton({
  variant = 'light',
  size = 'xs',
}: {
  variant?: 'light' | 'default';
  size?: 'xs' | 'sm';
}) {
  const [isSending, setIsSending] = useState(false);
  async function handleClick() {
    setIsSending(true);
    try {
      await askForLinkAgain();
    } finally {
      setIsSending(false);
    }
  }
  return (
    <Button variant={variant} size={size} loading={isSending} onClick={() => void handleClick()}>
      {SEND_AGAIN_LABEL}
    </Button>
  );
}

/**
 * Shown where a tool the address grants would be while the address waits for its verification:
 * what to do, where the link went, and the button that mails it again. Coming back to the
 * window (the link opened in another tab) takes the user record from the server again.
 */
export function VerifyEmailNotice({ tool }: { tool: string }) {
  const email = useSession()?.user.email;
  useEffect(() => {
    const refresh = () => void refreshSignedInUser().catch(() => undefined);
    window.addEventListener('focus', refresh);
    return () => window.removeEventListener('focus', refresh);
  }, []);
  const message = VERIFY_MESSAGES.toolWaits(TOOL_NAMES[tool] ?? tool);
  return (
    <Alert color="yellow" role="status">
      <Stack gap="xs" align="flex-start">
        <Text size="sm" fw={600}>
          {message}
        </Text>
        <Text size="sm">
          We sent a link to <strong>{email}</strong>. Open it to verify your address; the link works
          for a limited time.
        </Text>
        <SendLinkAgainButton />
      </Stack>
    </Alert>
  );
}
