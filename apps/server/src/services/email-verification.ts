/**
 * Address verification (issue 37): the tools an address grants (the AI helper, the XML tools)
 * wait until the address is verified through a mailed link. The link works once, until
 * EMAIL_VERIFICATION_TTL_HOURS, for the account and address it was mailed to; only its sha256 is
 * stored (as with reset links). Sign-up and a change of address mail one; the person may ask for
 * it again, within VERIFY_MAIL_LIMIT_PER_USER.
 */
import { createHash, randomBytes } from 'node:crypto';
import { TOOL_NAMES, VERIFY_MESSAGES, type ChangeEmailBody } from '@adloom/contract';
import type { AuthUser } from '../auth/session.ts';
import type { Db } from '../db/index.ts';
import {
  consumeVerificationToken,
  normalizeEmail,
  updateEmail,
  insertVerificationToken,
  type UserRow,
} from '../db/users.ts';
import { AppError } from '../errors.ts';
import type { AccountDeps } from './accounts.ts';
import { verifyPassword } from './passwords.ts';

const EMAIL_TAKEN_MESSAGE = 'An account with that email already exists.';
const SAME_EMAIL_MESSAGE = 'That is already the email address of your account.';
const MAIL_FAILED_MESSAGE = 'The mail could not be sent. Please try again in a few minutes.';

function hashVerificationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** "24 hours", "1 hour". */
function describeHours(seconds: number): string {
  const hours = Math.round(seconds / 3600);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/** 403 email_unverified unless the signed-in user's address is verified (`tool` names the tool). */
export function requireVerifiedAddress(user: AuthUser, tool: string): void {
  if (!user.isEmailVerified)
    throw new AppError('email_unverified', VERIFY_MESSAGES.toolWaits(TOOL_NAMES[tool] ?? tool), {
      tool,
    });
}

/** Stores a new verification token for the user's current address (older ones go) and mails its link. */
export async function mailVerificationLink(
  deps: AccountDeps,
  user: Pick<UserRow, 'id' | 'email'>,
): Promise<void> {
  const { config } = deps;
  const token = randomBytes(32).toString('base64url');
  await insertVerificationToken(deps.db, {
    userId: user.id,
    email: user.email,
    tokenHash: hashVerificationToken(token),
    ttlSeconds: config.emailVerificationTtlSeconds,
  });
  const link = `${config.appUrl}/verify-email/${token}`;
  await deps.mailer.send({
    to: user.email,
    subject: 'Verify your Adloom email address',
    text: `Please verify the email address of your Adloom account.\n\nOpen this link within ${describeHours(config.emailVerificationTtlSeconds)} to verify it:\n${link}\n\nIf you did not sign up for Adloom or change your account's email address to this one, ignore this mail.\n`,
  });
  deps.log.info({ userId: user.id }, 'verification mail sent');
}

/**
 * Mails the verification link once the current answer has been written (sign-up and a change of
 * address answer at once: a slow or failing mail server must not hold them up). The promise
 * settles when the mail is sent and never rejects (a failure is logged; the person can ask again).
 */
export function startVerificationMail(
  deps: AccountDeps,
  user: Pick<UserRow, 'id' | 'email'>,
): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => mailVerificationLink(deps, user))
    .catch((error: unknown) =>
      deps.log.error({ err: error, userId: user.id }, 'verification mail failed'),
    );
}

/**
 * Verifies the address a link was mailed to. A signed-in caller (`callerId`) may use only a link
 * of their own account; 400 for a link that is unknown, used, expired, of another account, or of
 * an address the account no longer has.
 */
export async function verifyEmailWithToken(
  db: Db,
  token: string,
  callerId: string | undefined,
): Promise<void> {
  const userId = await consumeVerificationToken(db, hashVerificationToken(token), callerId);
  if (!userId) throw new AppError('bad_request', VERIFY_MESSAGES.invalidLink);
}

/** Mails the signed-in user a new link (within the limit); says so when the address is verified. */
export async function sendVerificationAgain(deps: AccountDeps, user: UserRow): Promise<string> {
  if (user.email_verified) return VERIFY_MESSAGES.alreadyVerified;
  await deps.limits.verifyMail.countAttempt(user.id);
  try {
    await mailVerificationLink(deps, user);
  } catch (error) {
    deps.log.error({ err: error, userId: user.id }, 'verification mail failed');
    throw new AppError('service_unavailable', MAIL_FAILED_MESSAGE);
  }
  return VERIFY_MESSAGES.linkSent(user.email);
}

/**
 * Changes the signed-in user's address once the password is confirmed (counted under the
 * verification mail limit before the check): the new address is unverified, the links mailed to
 * the old one stop working. The caller mails the new address its link.
 */
export async function changeEmail(
  deps: AccountDeps,
  user: UserRow,
  body: ChangeEmailBody,
): Promise<UserRow> {
  const email = normalizeEmail(body.email);
  if (email === user.email) throw new AppError('bad_request', SAME_EMAIL_MESSAGE);
  await deps.limits.verifyMail.countAttempt(user.id);
  if (!(await verifyPassword(user.password_hash, body.password)))
    throw new AppError('forbidden', 'The password is not correct.');
  const changed = await updateEmail(deps.db, user.id, email);
  if (!changed)
    throw new AppError('conflict', EMAIL_TAKEN_MESSAGE, undefined, {
      errors: [{ msg: EMAIL_TAKEN_MESSAGE, path: 'email' }],
    });
  // Sign-ins known to the old address's account no longer vouch for the new one.
  await deps.limits.login.forgetKnownAddresses(user.email);
  deps.log.info({ userId: user.id }, 'email address changed');
  return changed;
}
