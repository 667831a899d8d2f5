import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  DeleteAccountBodySchema,
  ForgotBodySchema,
  LoginBodySchema,
  RegisterBodySchema,
  ResetBodySchema,
  ResetTutorialsBodySchema,
  SetTutorialDoneBodySchema,
  ToggleTutorialsBodySchema,
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
import { authenticate, getUser } from '../../auth/session.ts';
import { fieldErrorsFromZod, validationError } from '../../errors.ts';
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
import { sessionRoutes } from './sessions.ts';

/** Forgot answers this whether or not the email has an account. */
const FORGOT_SENT_MESSAGE =
  'If an account exists for that email, we have sent it a link to reset the password. The link works for one hour.';
const PASSWORDS_DIFFER_MESSAGE = 'Passwords do not match';

const ResetParamsSchema = z.object({ token: z.string().min(1).max(200) });

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
  // Password resets still at work after their answer; closing the app waits for them.
  const pendingResets = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.all(pendingResets);
  });

  app.post(API.users.register, async (request, reply): Promise<Session> => {
    await limits.register.countAttempt(request.ip);
    const body = parseRegisterBody(request.body);
    const signedIn = await registerAccount(accountDeps(request), body, request.ip);
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
    const reset = startPasswordReset(accountDeps(request), body.email);
    pendingResets.add(reset);
    void reset.finally(() => pendingResets.delete(reset));
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
