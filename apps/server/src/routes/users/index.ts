import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  ChangeEmailBodySchema,
  DeleteAccountBodySchema,
  ForgotBodySchema,
  LoginBodySchema,
  RegisterBodySchema,
  ResetBodySchema,
  ResetTutorialsBodySchema,
  SendVerificationBodySchema,
  SetTutorialDoneBodySchema,
  ToggleTutorialsBodySchema,
  VERIFY_MESSAGES,
  type ChangeEmailAnswer,
  type FieldError,
  type MeAnswer,
  type RegisterBody,
  type ResetAnswer,
  type Session,
  type TutorialAnswer,
  type TypeMessage,
} from '@adloom/contract';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { authenticate, authenticateIfSignedIn, getUser } from '../../auth/session.ts';
import { AppError, fieldErrorsFromZod, validationError } from '../../errors.ts';
import { parseBody, parseParams } from '../../http/validate.ts';
import { presentSession, presentUser } from '../../presenters/user.ts';
import {
  checkResetToken,
  deleteAccount,
  loadAccount,
  logIn,
  registerAccount,
  resetPassword,
  resetTutorials,
  setTutorialStepDone,
  setTutorialsDisabled,
  startPasswordReset,
  type AccountDeps,
} from '../../services/accounts.ts';
import {
  changeEmail,
  sendVerificationAgain,
  startVerificationMail,
  verifyEmailWithToken,
} from '../../services/email-verification.ts';
import { sessionRoutes } from './sessions.ts';

/** Forgot answers this whether or not the email has an account. */
const FORGOT_SENT_MESSAGE =
  'If an account exists for that email, we have sent it a link to reset the password. The link works for one hour.';
const PASSWORDS_DIFFER_MESSAGE = 'Passwords do not match';

const ResetParamsSchema = z.object({ token: z.string().min(1).max(200) });
/** A verification token: 32 random bytes in base64url (43 characters); anything else is refused. */
const VerifyParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/** The error of a `password-confirm` that differs from the `password` (both given as text). */
function confirmMismatch(password: unknown, confirm: unknown): FieldError[] {
  return typeof password === 'string' && typeof confirm === 'string' && confirm !== password
    ? [{ msg: PASSWORDS_DIFFER_MESSAGE, path: 'password-confirm' }]
    : [];
}

/** The register body; its field errors and a differing confirmation are reported together. */
function parseRegisterBody(body: unknown): RegisterBody {
  const raw = body as Record<string, unknown> | undefined;
  const result = RegisterBodySchema.safeParse(raw ?? {});
  const errors = [
    ...(result.success ? [] : fieldErrorsFromZod(result.error)),
    ...confirmMismatch(raw?.password, raw?.['password-confirm']),
  ];
  if (!result.success || errors.length > 0) throw validationError(errors);
  return result.data;
}

/** The account calls of spec section 7, plus GET /api/users/me. */
export default async function usersRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, limits } = deps;
  const accountDeps = (request: FastifyRequest): AccountDeps => ({ ...deps, log: request.log });
  // Password reset and verification mails still at work after their answer; closing the app
  // waits for them.
  const pendingMails = new Set<Promise<void>>();
  const keepUntilSent = (mail: Promise<void>) => {
    pendingMails.add(mail);
    void mail.finally(() => pendingMails.delete(mail));
  };
  app.addHook('onClose', async () => {
    await Promise.all(pendingMails);
  });

  app.post(API.users.register, async (request, reply): Promise<Session> => {
    await limits.register.countAttempt(request.ip);
    const body = parseRegisterBody(request.body);
    const requestDeps = accountDeps(request);
    const signedIn = await registerAccount(requestDeps, body, request.ip);
    keepUntilSent(startVerificationMail(requestDeps, signedIn.user));
    reply.code(201);
    return presentSession(signedIn, deps.config);
  });

  app.post(API.users.login, async (request): Promise<Session> => {
    await limits.login.countAttempt(request.ip);
    const body = parseBody(LoginBodySchema, request.body);
    return presentSession(await logIn(deps, body, request.ip), deps.config);
  });

  app.post(API.users.forgot, async (request): Promise<TypeMessage> => {
    await limits.forgot.countAttempt(request.ip);
    const body = parseBody(ForgotBodySchema, request.body);
    await limits.forgot.countEmail(body.email);
    keepUntilSent(startPasswordReset(accountDeps(request), body.email));
    return { type: 'success', message: FORGOT_SENT_MESSAGE };
  });

  app.get(`${API.users.reset}:token`, async (request): Promise<TypeMessage> => {
    const { token } = parseParams(ResetParamsSchema, request.params);
    await checkResetToken(db, token);
    return { type: 'success', message: 'Please choose a new password.' };
  });

  app.post(`${API.users.reset}:token`, async (request): Promise<ResetAnswer> => {
    const { token } = parseParams(ResetParamsSchema, request.params);
    const body = parseBody(ResetBodySchema, request.body);
    const mismatch = confirmMismatch(body.password, body['password-confirm']);
    if (mismatch.length > 0) throw validationError(mismatch);
    const signedIn = await resetPassword(accountDeps(request), token, body.password);
    return {
      ...presentSession(signedIn, deps.config),
      type: 'success',
      message: 'Your password has been changed and you are now logged in.',
    };
  });

  app.get(API.users.me, { onRequest: authenticate }, async (request): Promise<MeAnswer> => {
    return { user: presentUser(await loadAccount(db, getUser(request).id), deps.config) };
  });

  // Address verification (issue 37): the link's token alone verifies its address; a signed-in
  // caller may use only a link of their own account.
  app.post(
    `${API.users.verifyEmail}:token`,
    { onRequest: authenticateIfSignedIn },
    async (request): Promise<TypeMessage> => {
      const parsed = VerifyParamsSchema.safeParse(request.params);
      if (!parsed.success) throw new AppError('bad_request', VERIFY_MESSAGES.invalidLink);
      await verifyEmailWithToken(db, parsed.data.token, request.user?.id);
      return { type: 'success', message: VERIFY_MESSAGES.verified };
    },
  );

  app.post(
    API.users.sendVerification,
    { onRequest: authenticate },
    async (request): Promise<TypeMessage> => {
      parseBody(SendVerificationBodySchema, request.body);
      const user = await loadAccount(db, getUser(request).id);
      return { type: 'success', message: await sendVerificationAgain(accountDeps(request), user) };
    },
  );

  app.post(
    API.users.changeEmail,
    { onRequest: authenticate },
    async (request): Promise<ChangeEmailAnswer> => {
      const body = parseBody(ChangeEmailBodySchema, request.body);
      const requestDeps = accountDeps(request);
      const changed = await changeEmail(
        requestDeps,
        await loadAccount(db, getUser(request).id),
        body,
      );
      keepUntilSent(startVerificationMail(requestDeps, changed));
      return {
        type: 'success',
        message: VERIFY_MESSAGES.emailChanged(changed.email),
        user: presentUser(changed, deps.config),
      };
    },
  );

  app.post(API.users.delete, { onRequest: authenticate }, async (request): Promise<TypeMessage> => {
    const body = parseBody(DeleteAccountBodySchema, request.body);
    await deleteAccount(accountDeps(request), getUser(request).id, body);
    return { type: 'success', message: 'Your account has been deleted.' };
  });

  app.post(
    API.users.toggleTutorials,
    { onRequest: authenticate },
    async (request): Promise<TutorialAnswer> => {
      const body = parseBody(ToggleTutorialsBodySchema, request.body);
      return { tutorial: await setTutorialsDisabled(db, getUser(request).id, body.shouldDisable) };
    },
  );

  app.post(
    API.users.setTutorialDoneStatus,
    { onRequest: authenticate },
    async (request): Promise<TutorialAnswer> => {
      const body = parseBody(SetTutorialDoneBodySchema, request.body);
      return { tutorial: await setTutorialStepDone(db, getUser(request).id, body) };
    },
  );

  app.post(
    API.users.resetTutorials,
    { onRequest: authenticate },
    async (request): Promise<TutorialAnswer> => {
      parseBody(ResetTutorialsBodySchema, request.body);
      return { tutorial: await resetTutorials(db, getUser(request).id) };
    },
  );

  // Log Out and log out everywhere (issue 13).
  await sessionRoutes(app, deps);
}
