import { useEffect, useState } from 'react';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { VERIFY_MESSAGES } from '@adloom/contract';
import { handleApiError } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { refreshSignedInUser, SendLinkAgainButton } from '../features/auth/VerifyEmailNotice.tsx';
import { verifyOnce } from '../features/auth/verifyOnce.ts';
import { session } from '../state/session.ts';
import { useSession } from '../state/useSession.ts';
import { AuthCard } from './AuthCard.tsx';

type Outcome =
  | { kind: 'verifying' }
  | { kind: 'verified'; message: string }
  | { kind: 'refused'; message: string };

/**
 * /verify-email/:token, the link the verification mail carries: verifies the address at once
 * and says what happened. Signed in, the person goes on to the builder (the tools are there
 * now), or asks for a new link when this one is used up; signed out, to Log In.
 */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const isSignedIn = useSession() !== null;
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'verifying' });

  useEffect(() => {
    let isCurrent = true;
    setOutcome({ kind: 'verifying' });
    verifyOnce(token).then(
      () => {
        if (isCurrent) setOutcome({ kind: 'verified', message: VERIFY_MESSAGES.verified });
      },
      async (error: unknown) => {
        if (!isCurrent) return;
        if (!(error instanceof ApiError) || !error.hasResponse || error.status > 499) {
          handleApiError(error);
          setOutcome({ kind: 'refused', message: VERIFY_MESSAGES.invalidLink });
          return;
        }
        // A used link of a signed-in person whose address is verified (opened twice, say) is
        // no failure: say the address is verified.
        await refreshSignedInUser().catch(() => undefined);
        if (!isCurrent) return;
        setOutcome(
          session.get()?.user.emailVerified
            ? { kind: 'verified', message: VERIFY_MESSAGES.alreadyVerified }
            : { kind: 'refused', message: error.message || VERIFY_MESSAGES.invalidLink },
        );
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);

  return (
    <AuthCard heading="Verify Email Address">
      {outcome.kind === 'verifying' ? (
        <Stack gap="md" align="center">
          <Loader size="sm" aria-hidden="true" />
          <Text role="status">Verifying your email address…</Text>
        </Stack>
      ) : outcome.kind === 'verified' ? (
        <Stack gap="md">
          <Alert color="green" role="status">
            <Text size="sm" fw={600}>
              {outcome.message}
            </Text>
            <Text size="sm">The tools your address opens are ready to use.</Text>
          </Alert>
          <Button component={Link} to={isSignedIn ? '/campaign-builder' : '/login'} fullWidth>
            {isSignedIn ? 'Go to the Campaign Builder' : 'Log In'}
          </Button>
        </Stack>
      ) : (
        <Stack gap="md">
          <Alert color="red" role="alert">
            {outcome.message}
          </Alert>
          {isSignedIn ? (
            <SendLinkAgainButton variant="default" />
          ) : (
            <Button component={Link} to="/login" fullWidth>
              Log In
            </Button>
          )}
        </Stack>
      )}
    </AuthCard>
  );
}
