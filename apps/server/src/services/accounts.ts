/**
 * The account flows of spec section 7: register, log in, forgot and reset the password, delete
 * the account, and the tutorial state. Each flow is one function; its SQL lives in db/users.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { LoginBody, RegisterBody, Tutorial } from '@adloom/contract';
import { UNAUTHORIZED_MESSAGE, type SessionService } from '../auth/session.ts';
import type { AppDeps } from '../deps.ts';
import type { Db } from '../db/index.ts';
import {
  consumeResetToken,
  deleteOtherResetTokens,
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
} from '../db/users.ts';
import { AppError } from '../errors.ts';
import { newTutorial } from '../presenters/user.ts';
import { verifyBotCheck } from './bot-check.ts';
import { revokeGoogleLinkOfDeletedAccount } from './google-oauth.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** What the account flows use; `log` is the request's logger. */
export interface AccountDeps extends AppDeps {
  log: FastifyBaseLogger;
}

/** A user with a freshly issued session token. */
export interface SignedIn {
  user: UserRow;
  token: string;
  expiresIn: number;
}

/** Spec section 8: the login failure message. */
const LOGIN_FAILED_MESSAGE = 'User with that email/password combination not found';
const RESET_INVALID_MESSAGE =
  'This password reset link is invalid or has expired. Please request a new one.';
const EMAIL_TAKEN_MESSAGE =
  'An account with that email already exists. Log in or reset your password instead.';
/** Most tutorial steps kept per user (step names come from the client). */
const TUTORIAL_STEPS_MAX = 50;

// ---------------------------------------------------------------------------------------------
// Sign-up, sign-in and the password

async function signIn(sessions: SessionService, user: UserRow): Promise<SignedIn> {
  const { token, expiresIn } = await sessions.issue({
    id: user.id,
    email: user.email,
    sessionVersion: user.session_version,
  });
  return { user, token, expiresIn };
}

/** Creates an account (after the bot check) and signs it in; a taken email is 409. */
export async function registerAccount(
  deps: AccountDeps,
  body: RegisterBody,
  ip: string,
): Promise<SignedIn> {
  const { config, db } = deps;
  await verifyBotCheck(
    {
      verifyUrl: config.recaptchaVerifyUrl,
      secret: config.recaptchaSecret,
      minScore: config.recaptchaMinScore,
    },
    body.recaptchaToken,
    ip,
  );
  const user = await insertUser(db, {
    email: body.email,
    passwordHash: await hashPassword(body.password),
  });
  if (!user)
    throw new AppError('conflict', EMAIL_TAKEN_MESSAGE, undefined, {
      errors: [{ msg: EMAIL_TAKEN_MESSAGE, path: 'email' }],
    });
  deps.log.info({ userId: user.id }, 'account created');
  return signIn(deps.sessions, user);
}

/**
 * Signs in with email and password from `ip`, within the login limits (attempt-limits.ts). An
 * unknown email still checks a password hash, so the answer takes as long as for a real
 * account, and both failures answer the same 404 and count the same.
 */
export async function logIn(
  deps: Pick<AccountDeps, 'db' | 'sessions' | 'limits'>,
  body: LoginBody,
  ip: string,
): Promise<SignedIn> {
  const attempt = await deps.limits.login.beginAttempt(ip, body.email);
  const user = await findUserByEmail(deps.db, body.email);
  const isMatch = await verifyPassword(user?.password_hash, body.password);
  if (!user || !isMatch) {
    await attempt.failed();
    throw new AppError('not_found', LOGIN_FAILED_MESSAGE);
  }
  await attempt.succeeded();
  return signIn(deps.sessions, user);
}

function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Stores a reset token for the account of `email`, if there is one, and mails its link. Runs
 * after the answer has been sent (see `startPasswordReset`), so it may take its time.
 */
export async function requestPasswordReset(deps: AccountDeps, email: string): Promise<void> {
  const { config, db, log } = deps;
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const token = randomBytes(32).toString('base64url');
  await insertResetToken(db, {
    userId: user.id,
    tokenHash: hashResetToken(token),
    ttlSeconds: config.resetTokenTtlSeconds,
  });
  const link = `${config.appUrl}/reset/${token}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Reset your Adloom password',
    text: `Someone (hopefully you) asked to reset the password of your Adloom account.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n`,
  });
  log.info({ userId: user.id }, 'password reset mail sent');
}

/**
 * Starts `requestPasswordReset` once the current answer has been written, and returns at once:
 * the answer must take the same time whether the account exists, so it cannot wait for the
 * lookup, the token or the mail. The promise settles when the work is done and never rejects
 * (a failure is logged).
 */
export function startPasswordReset(deps: AccountDeps, email: string): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => requestPasswordReset(deps, email))
    .catch((error: unknown) => deps.log.error({ err: error }, 'password reset failed'));
}

/** Throws 400 unless the reset token is unused and unexpired. */
export async function checkResetToken(db: Db, token: string): Promise<void> {
  if (!(await findUsableResetToken(db, hashResetToken(token))))
    throw new AppError('bad_request', RESET_INVALID_MESSAGE);
}

/**
 * Sets a new password with a reset token (used once; the user's other tokens and sessions are
 * revoked) and signs the user in.
 */
export async function resetPassword(
  deps: AccountDeps,
  token: string,
  password: string,
): Promise<SignedIn> {
  const { db } = deps;
  const tokenHash = hashResetToken(token);
  // Check first so that a bad token does not cost an argon2 hash.
  if (!(await findUsableResetToken(db, tokenHash)))
    throw new AppError('bad_request', RESET_INVALID_MESSAGE);
  const passwordHash = await hashPassword(password);
  const user = await db.transaction(async (tx) => {
    const userId = await consumeResetToken(tx, tokenHash);
    if (!userId) throw new AppError('bad_request', RESET_INVALID_MESSAGE);
    await deleteOtherResetTokens(tx, userId, tokenHash);
    return updatePassword(tx, userId, passwordHash);
  });
  if (!user) throw new AppError('bad_request', RESET_INVALID_MESSAGE);
  await deps.limits.login.forgetKnownAddresses(user.email);
  deps.log.info({ userId: user.id }, 'password reset');
  return signIn(deps.sessions, user);
}

// ---------------------------------------------------------------------------------------------
// The signed-in account

/** The signed-in user's row; 401 when the account is gone. */
export async function loadAccount(db: Db, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
  return user;
}

/**
 * Deletes the account (and, by cascade, its data and Google link) once its email and password
 * are confirmed; its Google token is revoked first, best effort.
 */
export async function deleteAccount(
  deps: AccountDeps,
  userId: string,
  confirmation: { email?: string | undefined; password: string },
): Promise<void> {
  const user = await loadAccount(deps.db, userId);
  if (confirmation.email && normalizeEmail(confirmation.email) !== user.email)
    throw new AppError('forbidden', 'That email does not belong to the signed-in account.');
  await deps.limits.deleteAccount.countPasswordCheck(user.id);
  if (!(await verifyPassword(user.password_hash, confirmation.password)))
    throw new AppError('forbidden', 'The password is not correct.');
  await revokeGoogleLinkOfDeletedAccount(deps, user.id, deps.log);
  await deleteUser(deps.db, user.id);
  deps.log.info({ userId: user.id }, 'account deleted');
}

/** Turns the tutorials off or on, keeping the steps. */
export async function setTutorialsDisabled(
  db: Db,
  userId: string,
  disabled: boolean,
): Promise<Tutorial> {
  const user = await loadAccount(db, userId);
  return updateTutorial(db, user.id, { ...user.tutorial, disabled });
}

/** Marks a tutorial step done or not done, adding it when new (up to TUTORIAL_STEPS_MAX). */
export async function setTutorialStepDone(
  db: Db,
  userId: string,
  step: { target: string; isDone: boolean },
): Promise<Tutorial> {
  const user = await loadAccount(db, userId);
  const steps = user.tutorial.tutorialSteps.map((existing) =>
    existing.name === step.target ? { ...existing, done: step.isDone } : existing,
  );
  if (!steps.some((existing) => existing.name === step.target)) {
    if (steps.length >= TUTORIAL_STEPS_MAX)
      throw new AppError(
        'bad_request',
        `A user can have at most ${TUTORIAL_STEPS_MAX} tutorial steps.`,
      );
    steps.push({ name: step.target, done: step.isDone });
  }
  return updateTutorial(db, user.id, { ...user.tutorial, tutorialSteps: steps });
}

/** Turns the tutorials back on with every step not done (a user without steps gets the default). */
export async function resetTutorials(db: Db, userId: string): Promise<Tutorial> {
  const user = await loadAccount(db, userId);
  const steps = user.tutorial.tutorialSteps.map((step) => ({ ...step, done: false }));
  return updateTutorial(db, user.id, {
    disabled: false,
    tutorialSteps: steps.length > 0 ? steps : newTutorial().tutorialSteps,
  });
}
