import { useEffect, useState, type FormEvent } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { NewPasswordFields } from '../features/auth/AuthFields.tsx';
import { useNavigate, useParams } from 'react-router';
import { checkResetToken, resetPassword } from '../api/users.ts';
import { handleApiError } from '../api/client.ts';
import { statusOf } from '../api/errors.ts';
import { notifyError, notifySuccess } from '../state/notifications.ts';
import { session } from '../state/session.ts';
import { isServerFailure, resetErrorMessages } from '../features/auth/messages.ts';
import { isResetTokenSpent, markResetTokenSpent } from '../features/auth/spentResetTokens.ts';
import { AuthCard, reportAuthFailure } from './AuthCard.tsx';

/** /reset/:token: 'Almost There', password and confirm-password. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [isSending, setIsSending] = useState(false);
  // Submitting before the check has answered would race it: the check could then see the token
  // already used and send a person who just reset their password to login.
  const [isTokenChecked, setIsTokenChecked] = useState(false);

  // Spec section 2: on opening, the token is checked; on an error the person goes to login, or,
  // already signed in (a used link opened again), back to the campaign builder: the login form
  // has nothing to offer them.
  useEffect(() => {
    let isCurrent = true;
    setIsTokenChecked(false);
    if (isResetTokenSpent(token)) return;
    checkResetToken(token).then(
      () => {
        if (isCurrent) setIsTokenChecked(true);
      },
      (error: unknown) => {
        if (!isCurrent || isResetTokenSpent(token)) return;
        if (isServerFailure(error)) handleApiError(error);
        else {
          for (const message of resetErrorMessages(error))
            notifyError(message, undefined, statusOf(error));
          navigate(session.get() ? '/campaign-builder' : '/login', { replace: true });
        }
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [token, navigate]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    setIsSending(true);
    const body = { password, passwordConfirm };
    setPassword('');
    setPasswordConfirm('');
    try {
      const answer = await resetPassword(token, body);
      markResetTokenSpent(token);
      session.signIn(answer);
      notifySuccess(answer.message || 'Your password has been changed');
      navigate('/campaign-builder', { replace: true });
    } catch (error) {
      reportAuthFailure(error, resetErrorMessages);
    } finally {
      setIsSending(false);
    }
  }

  return (
    <AuthCard heading="Almost There">
      <form onSubmit={handleSubmit} aria-label="Set a new password">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Choose a new password for your account.
          </Text>
          <NewPasswordFields
            password={password}
            passwordConfirm={passwordConfirm}
            onPasswordChange={setPassword}
            onPasswordConfirmChange={setPasswordConfirm}
          />
          <Button type="submit" fullWidth loading={isSending} disabled={!isTokenChecked}>
            Reset Password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
