import { createHash, randomBytes } from 'node:crypto';
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
  type ResetAnswer,
  type Session,
  type Tutorial,
  type TutorialAnswer,
  type TypeMessage,
} from '@adloom/contract';
import { z } from 'zod';
import type { AppDeps } from '../../app.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import {
  consumeResetToken,
  deleteUser,
  findUsableResetToken,
  findUserByEmail,
  findUserById,
  insertResetToken,
  insertUser,
  normalizeEmail,
  updatePassword,
  updateTutorial,
  type UserRow,
} from '../../db/users.ts';
import { AppError, fieldErrorsFromZod, validationError } from '../../errors.ts';
import { parseBody, parseParams } from '../../http/validate.ts';
import { newTutorial, presentUser } from '../../presenters/user.ts';
import { verifyBotCheck } from '../../services/bot-check.ts';
import { hashPassword, verifyPassword } from '../../services/passwords.ts';
import { SlidingWindowLimiter } from '../../services/rate-limit.ts';

/** Spec section 8: the login failure message. */
export const LOGIN_FAILED_MESSAGE = 'User with that email/password combination not found';
/** Forgot answers this whether or not the email has an account. */
export const FORGOT_SENT_MESSAGE =
  'If an account exists for that email, we have sent it a link to reset the password. The link works for one hour.';
export const RESET_INVALID_MESSAGE =
  'This password reset link is invalid or has expired. Please request a new one.';
export const PASSWORDS_DIFFER_MESSAGE = 'Passwords do not match';
export const EMAIL_TAKEN_MESSAGE =
  'An account with that email already exists. Log in or reset your password instead.';
export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a while and try again.';
/** Most tutorial steps kept per user (step names come from the client). */
const TUTORIAL_STEPS_MAX = 50;

const ResetParamsSchema = z.object({ token: z.string().min(1).max(200) });

function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The account calls of spec section 7, plus GET /api/users/me. */
export default async function usersRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { config, db, mailer, sessions } = deps;
  const limits = config.rateLimit;
  const loginPerIp = new SlidingWindowLimiter(limits.loginPerIp, limits.windowMs);
  const loginPerEmail = new SlidingWindowLimiter(limits.loginPerEmail, limits.windowMs);
  const forgotPerIp = new SlidingWindowLimiter(limits.forgotPerIp, limits.windowMs);
  const forgotPerEmail = new SlidingWindowLimiter(limits.forgotPerEmail, limits.windowMs);

  function enforceLimits(
    request: FastifyRequest,
    perIp: SlidingWindowLimiter,
    perEmail: SlidingWindowLimiter,
  ): void {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    const verdicts = [perIp.hit(request.ip)];
    if (typeof email === 'string' && email.trim())
      verdicts.push(perEmail.hit(normalizeEmail(email)));
    const blocked = verdicts.filter((verdict) => !verdict.isAllowed);
    if (blocked.length > 0) {
      const retryAfterSeconds = Math.max(...blocked.map((verdict) => verdict.retryAfterSeconds));
      throw new AppError(
        'rate_limited',
        RATE_LIMITED_MESSAGE,
        { retryAfterSeconds },
        { retryAfterSeconds },
      );
    }
  }

  async function startSession(user: UserRow): Promise<Session> {
    const { token, expiresIn } = await sessions.issue({
      id: user.id,
      email: user.email,
      sessionVersion: user.session_version,
    });
    return { token, expiresIn, user: presentUser(user) };
  }

  async function loadUser(request: FastifyRequest): Promise<UserRow> {
    const user = await findUserById(db, getUser(request).id);
    if (!user) throw new AppError('unauthorized', 'Unauthorized. Please log in to continue');
    return user;
  }

  app.post(API.users.register, async (request, reply): Promise<Session> => {
    const raw = request.body as Record<string, unknown> | undefined;
    const result = RegisterBodySchema.safeParse(raw ?? {});
    const errors: FieldError[] = result.success ? [] : fieldErrorsFromZod(result.error);
    const confirm = raw?.['password-confirm'];
    if (
      typeof raw?.password === 'string' &&
      typeof confirm === 'string' &&
      confirm !== raw.password
    ) {
      errors.push({ msg: PASSWORDS_DIFFER_MESSAGE, path: 'password-confirm' });
    }
    if (!result.success || errors.length > 0) throw validationError(errors);
    const body = result.data;

    await verifyBotCheck(
      {
        verifyUrl: config.recaptchaVerifyUrl,
        secret: config.recaptchaSecret,
        minScore: config.recaptchaMinScore,
      },
      body.recaptchaToken,
      request.ip,
    );
    const user = await insertUser(db, {
      email: body.email,
      passwordHash: await hashPassword(body.password),
    });
    if (!user)
      throw new AppError('conflict', EMAIL_TAKEN_MESSAGE, undefined, {
        errors: [{ msg: EMAIL_TAKEN_MESSAGE, path: 'email' }],
      });
    request.log.info({ userId: user.id }, 'account created');
    reply.code(201);
    return startSession(user);
  });

  app.post(API.users.login, async (request): Promise<Session> => {
    enforceLimits(request, loginPerIp, loginPerEmail);
    const body = parseBody(LoginBodySchema, request.body);
    const user = await findUserByEmail(db, body.email);
    const isMatch = await verifyPassword(user?.password_hash, body.password);
    if (!user || !isMatch) throw new AppError('not_found', LOGIN_FAILED_MESSAGE);
    return startSession(user);
  });

  app.post(API.users.forgot, async (request): Promise<TypeMessage> => {
    enforceLimits(request, forgotPerIp, forgotPerEmail);
    const body = parseBody(ForgotBodySchema, request.body);
    const user = await findUserByEmail(db, body.email);
    if (user) {
      const token = randomBytes(32).toString('base64url');
      await insertResetToken(db, {
        userId: user.id,
        tokenHash: hashResetToken(token),
        ttlSeconds: config.resetTokenTtlSeconds,
      });
      const link = `${config.appUrl}/reset/${token}`;
      // Sent in the background: waiting for SMTP would reveal, by timing, that the account exists.
      void mailer
        .send({
          to: user.email,
          subject: 'Reset your Adloom password',
          text: `Someone (hopefully you) asked to reset the password of your Adloom account.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n`,
        })
        .then(
          () => request.log.info({ userId: user.id }, 'password reset mail sent'),
          (error: unknown) =>
            request.log.error(
              { err: error, userId: user.id },
              'password reset mail could not be sent',
            ),
        );
    }
    return { type: 'success', message: FORGOT_SENT_MESSAGE };
  });

  app.get(`${API.users.reset}:token`, async (request): Promise<TypeMessage> => {
    const { token } = parseParams(ResetParamsSchema, request.params);
    const userId = await findUsableResetToken(db, hashResetToken(token));
    if (!userId) throw new AppError('bad_request', RESET_INVALID_MESSAGE);
    return { type: 'success', message: 'Please choose a new password.' };
  });

  app.post(`${API.users.reset}:token`, async (request): Promise<ResetAnswer> => {
    const { token } = parseParams(ResetParamsSchema, request.params);
    const body = parseBody(ResetBodySchema, request.body);
    if (body.password !== body['password-confirm'])
      throw validationError([{ msg: PASSWORDS_DIFFER_MESSAGE, path: 'password-confirm' }]);
    const tokenHash = hashResetToken(token);
    // Check first so that a bad token does not cost an argon2 hash.
    if (!(await findUsableResetToken(db, tokenHash)))
      throw new AppError('bad_request', RESET_INVALID_MESSAGE);
    const passwordHash = await hashPassword(body.password);
    const user = await db.transaction(async (tx) => {
      const userId = await consumeResetToken(tx, tokenHash);
      if (!userId) throw new AppError('bad_request', RESET_INVALID_MESSAGE);
      await tx.query('delete from password_reset_tokens where user_id = $1 and token_hash <> $2', [
        userId,
        tokenHash,
      ]);
      return updatePassword(tx, userId, passwordHash);
    });
    if (!user) throw new AppError('bad_request', RESET_INVALID_MESSAGE);
    request.log.info({ userId: user.id }, 'password reset');
    return {
      ...(await startSession(user)),
      type: 'success',
      message: 'Your password has been changed and you are now logged in.',
    };
  });

  app.get(API.users.me, { preHandler: authenticate }, async (request): Promise<MeAnswer> => {
    return { user: presentUser(await loadUser(request)) };
  });

  app.post(
    API.users.delete,
    { preHandler: authenticate },
    async (request): Promise<TypeMessage> => {
      const body = parseBody(DeleteAccountBodySchema, request.body);
      const user = await loadUser(request);
      if (body.email && normalizeEmail(body.email) !== user.email)
        throw new AppError('forbidden', 'That email does not belong to the signed-in account.');
      if (!(await verifyPassword(user.password_hash, body.password)))
        throw new AppError('forbidden', 'The password is not correct.');
      await deleteUser(db, user.id);
      request.log.info({ userId: user.id }, 'account deleted');
      return { type: 'success', message: 'Your account has been deleted.' };
    },
  );

  app.post(
    API.users.toggleTutorials,
    { preHandler: authenticate },
    async (request): Promise<TutorialAnswer> => {
      const body = parseBody(ToggleTutorialsBodySchema, request.body);
      const user = await loadUser(request);
      return {
        tutorial: await updateTutorial(db, user.id, {
          ...user.tutorial,
          disabled: body.shouldDisable,
        }),
      };
    },
  );

  app.post(
    API.users.setTutorialDoneStatus,
    { preHandler: authenticate },
    async (request): Promise<TutorialAnswer> => {
      const body = parseBody(SetTutorialDoneBodySchema, request.body);
      const user = await loadUser(request);
      const steps = user.tutorial.tutorialSteps.map((step) =>
        step.name === body.target ? { ...step, done: body.isDone } : step,
      );
      if (!steps.some((step) => step.name === body.target)) {
        if (steps.length >= TUTORIAL_STEPS_MAX)
          throw new AppError(
            'bad_request',
            `A user can have at most ${TUTORIAL_STEPS_MAX} tutorial steps.`,
          );
        steps.push({ name: body.target, done: body.isDone });
      }
      return {
        tutorial: await updateTutorial(db, user.id, { ...user.tutorial, tutorialSteps: steps }),
      };
    },
  );

  app.post(
    API.users.resetTutorials,
    { preHandler: authenticate },
    async (request): Promise<TutorialAnswer> => {
      parseBody(ResetTutorialsBodySchema, request.body);
      const user = await loadUser(request);
      const steps = user.tutorial.tutorialSteps.map((step) => ({ ...step, done: false }));
      const tutorial: Tutorial = {
        disabled: false,
        tutorialSteps: steps.length > 0 ? steps : newTutorial().tutorialSteps,
      };
      return { tutorial: await updateTutorial(db, user.id, tutorial) };
    },
  );
}
