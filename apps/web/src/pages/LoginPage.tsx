import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { BotCheckSettings } from '@adloom/contract';
import {
  CurrentPasswordField,
  EmailField,
  NewPasswordFields,
} from '../features/auth/AuthFields.tsx';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { logIn, register, requestPasswordReset } from '../api/users.ts';
import { handleApiError } from '../api/client.ts';
import { statusOf } from '../api/errors.ts';
import { fetchPublicConfig } from '../api/config.ts';
import {
  BotCheckUnavailableError,
  getBotCheckToken,
  loadBotCheckScript,
} from '../features/auth/botCheck.ts';
import { notifications, notifyError, notifySuccess } from '../state/notifications.ts';
import { session } from '../state/session.ts';
import { WaitingListForm } from '../features/waiting-list/WaitingListForm.tsx';
import {
  isServerFailure,
  loginErrorMessage,
  resetErrorMessages,
  splitRegisterErrors,
  type RegisterFailure,
  WELCOME_BACK,
  WELCOME_NEW,
} from '../features/auth/messages.ts';
import { useIsHydrated } from '../components/hydration.ts';
import { AuthCard, reportAuthFailure } from './AuthCard.tsx';
import classes from './AuthPage.module.css';

type Mode = 'login' | 'forgot';

/** Where a signed-in person lands unless a guard sent them here from another page. */
function destinationAfterSignIn(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' &&
    from.startsWith('/') &&
    from !== '/login' &&
    from !== '/register'
    ? from
    : '/campaign-builder';
}

/** /login: 'Welcome back', the login form or the reset-request form, and the waiting-list box. */
export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [mode, setMode] = useState<Mode>('login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [isSending, setIsSending] = useState(false);
  // The page is prerendered: its submit waits, busy, until the app can send what was typed.
  const isHydrated = useIsHydrated();

  // Spec section 2: going to /login from the account page leads to /register.
  if ((location.state as { fromAccountPage?: unknown } | null)?.fromAccountPage === true)
    return <Navigate to="/register" replace />;

  async function handleLogIn(event: FormEvent) {
    event.preventDefault();
    setIsSending(true);
    try {
      const answer = await logIn({ email: email.trim(), password });
      session.signIn(answer);
      notifySuccess(WELCOME_BACK);
      navigate(destinationAfterSignIn(location.state), { replace: true });
    } catch (error) {
      if (isServerFailure(error)) handleApiError(error);
      else notifyError(loginErrorMessage(error), undefined, statusOf(error));
      setPassword('');
    } finally {
      setIsSending(false);
    }
  }

  async function handleResetRequest(event: FormEvent) {
    event.preventDefault();
    setIsSending(true);
    try {
      const answer = await requestPasswordReset(email.trim());
      notifications.notify(answer.type === 'error' ? 'error' : 'success', answer.message);
      setEmail('');
      setMode('login');
    } catch (error) {
      reportAuthFailure(error, resetErrorMessages);
    } finally {
      setIsSending(false);
    }
  }

  return (
    <AuthCard
      heading="Welcome back"
      after={
        <Paper className={classes.box} withBorder>
          <Title order={2} size="h4">
            Don&apos;t have an account?
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Join the waiting list and we will be in touch about a free demo.
          </Text>
          <WaitingListForm inputId="login-waiting-list-email" />
          <Text size="sm" mt="sm">
            Ready to start now?{' '}
            <Anchor component={Link} to="/register">
              Create an account
            </Anchor>
          </Text>
        </Paper>
      }
    >
      {mode === 'login' ? (
        <form onSubmit={handleLogIn} aria-label="Log in">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Log in to build your campaigns.
            </Text>
            <EmailField value={email} onChange={setEmail} />
            <CurrentPasswordField value={password} onChange={setPassword} />
            <Button type="submit" fullWidth loading={isSending || !isHydrated}>
              Log In
            </Button>
            <div className={classes.row}>
              <Anchor component="button" type="button" size="sm" onClick={() => setMode('forgot')}>
                Forgot Password
              </Anchor>
              <Anchor component={Link} to="/register" size="sm">
                Create an account
              </Anchor>
            </div>
          </Stack>
        </form>
      ) : (
        <form onSubmit={handleResetRequest} aria-label="Reset password">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Enter your email and we will send you a link to set a new password.
            </Text>
            <EmailField value={email} onChange={setEmail} />
            <Button type="submit" fullWidth loading={isSending || !isHydrated}>
              Reset Password
            </Button>
            <div className={classes.row}>
              <Anchor component="button" type="button" size="sm" onClick={() => setMode('login')}>
                Log In
              </Anchor>
            </div>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}

/**
 * The server's bot-check settings. A failed fetch counts as "off": the sign-up then goes
 * without a token and the server's answer (or the generic handler) speaks.
 */
function fetchBotCheckSettings(): Promise<BotCheckSettings> {
  return fetchPublicConfig().then(
    (config) => config.botCheck,
    (): BotCheckSettings => ({ enabled: false }),
  );
}

/** /register: email, password, password-confirm and the bot-check token. */
export function RegisterPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const [isSending, setIsSending] = useState(false);
  const isHydrated = useIsHydrated();
  const [botCheckProblem, setBotCheckProblem] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<RegisterFailure['fields']>({});
  const formRef = useRef<HTMLFormElement>(null);
  const botCheck = useRef<Promise<BotCheckSettings> | null>(null);
  /** Counts refused submits: each moves the focus to the first field to fix once it is drawn. */
  const [refusals, setRefusals] = useState(0);

  // After the errors are committed, not in the next frame: an update made after an await may be
  // drawn after that frame, when no field is marked invalid yet.
  useEffect(() => {
    if (refusals === 0) return;
    formRef.current?.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
  }, [refusals]);

  // Ask early whether a bot check is on and load its script, so that a blocked script is
  // reported before the form is filled in.
  useEffect(() => {
    let isCurrent = true;
    const settings = fetchBotCheckSettings();
    botCheck.current = settings;
    void settings.then(async (current) => {
      if (!current.enabled) return;
      try {
        await loadBotCheckScript(current.scriptUrl);
      } catch (error) {
        if (isCurrent && error instanceof BotCheckUnavailableError)
          setBotCheckProblem(error.message);
      }
    });
    return () => {
      isCurrent = false;
    };
  }, []);

  async function handleRegister(event: FormEvent) {
    event.preventDefault();
    setIsSending(true);
    try {
      let recaptchaToken: string;
      try {
        recaptchaToken = await getBotCheckToken(
          await (botCheck.current ?? fetchBotCheckSettings()),
        );
        setBotCheckProblem(null);
      } catch (error) {
        if (!(error instanceof BotCheckUnavailableError)) throw error;
        setBotCheckProblem(error.message);
        return;
      }
      const answer = await register({
        email: email.trim(),
        password,
        passwordConfirm,
        recaptchaToken,
      });
      session.signIn(answer);
      notifySuccess(WELCOME_NEW);
      navigate('/campaign-builder', { replace: true });
    } catch (error) {
      if (isServerFailure(error)) {
        handleApiError(error);
        return;
      }
      const failure = splitRegisterErrors(error);
      setFieldErrors(failure.fields);
      for (const message of failure.others) notifyError(message);
      // The person's eyes and screen reader go to the first field to fix.
      setRefusals((n) => n + 1);
    } finally {
      setIsSending(false);
    }
  }

  return (
    <AuthCard heading="Create your account">
      <form ref={formRef} onSubmit={handleRegister} aria-label="Create an account">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Build search campaigns in bulk from your feeds and templates.
          </Text>
          <EmailField
            value={email}
            onChange={(value) => {
              setEmail(value);
              setFieldErrors(({ email: _fixed, ...rest }) => rest);
            }}
            error={fieldErrors.email}
          />
          <NewPasswordFields
            password={password}
            passwordConfirm={passwordConfirm}
            onPasswordChange={(value) => {
              setPassword(value);
              setFieldErrors(({ password: _fixed, ...rest }) => rest);
            }}
            onPasswordConfirmChange={(value) => {
              setPasswordConfirm(value);
              setFieldErrors(({ 'password-confirm': _fixed, ...rest }) => rest);
            }}
            errors={{
              password: fieldErrors.password,
              passwordConfirm: fieldErrors['password-confirm'],
            }}
          />
          {botCheckProblem ? (
            <Alert color="red" variant="light" title="Bot check unavailable">
              {botCheckProblem}
            </Alert>
          ) : null}
          <Button type="submit" fullWidth loading={isSending || !isHydrated}>
            Create Account
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/login">
              Log In
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
