import { useState, type FormEvent } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { EMAIL_PATTERN } from '@adloom/contract';
import { joinWaitingList } from '../../api/users.ts';
import { ApiError, statusOf } from '../../api/errors.ts';
import { handleApiError } from '../../api/client.ts';
import { notifyError, notifySuccess } from '../../state/notifications.ts';
import { useTypedBeforeHydration } from '../../components/hydration.ts';

/** Spec section 7: the waiting-list success notice. */
export const WAITING_LIST_THANKS = 'Thank you for signing up for our waiting list';
/** Spec section 8: the waiting-list failure notice. */
export const WAITING_LIST_FAILED =
  'There was a problem signing up for the demo. Please try again later';

/** True when the text is an email the spec's pattern accepts. */
export function isValidEmail(text: string): boolean {
  return EMAIL_PATTERN.test(text.trim());
}

/** The waiting-list sign-up: an email field and Sign Up, disabled until the email is valid. */
export function WaitingListForm({ inputId = 'waiting-list-email' }: { inputId?: string }) {
  const [email, setEmail] = useState('');
  const [isSending, setIsSending] = useState(false);
  const isValid = isValidEmail(email);
  // The form is on the prerendered / and /login: keep what was typed before the app ran.
  const emailRef = useTypedBeforeHydration(email, setEmail);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isValid) return;
    setIsSending(true);
    try {
      await joinWaitingList(email.trim());
      notifySuccess(WAITING_LIST_THANKS);
      setEmail('');
    } catch (error) {
      // Server outages go to the generic handler; everything else gets the spec's text.
      if (error instanceof ApiError && error.status >= 500) handleApiError(error);
      else notifyError(WAITING_LIST_FAILED, undefined, statusOf(error));
    } finally {
      setIsSending(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} aria-label="Join the waiting list">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          ref={emailRef}
          id={inputId}
          label="Email"
          type="email"
          placeholder="you@agency.com"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" disabled={!isValid} loading={isSending}>
          Sign Up
        </Button>
      </Group>
    </form>
  );
}
