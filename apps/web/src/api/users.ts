import type { FEEDBACK_TYPES } from '@adloom/contract';
import {
  API,
  ChangeEmailAnswerSchema,
  type ChangeEmailAnswer,
  LogOutAnswerSchema,
  type LogOutAnswer,
  PublicUserSchema,
  type PublicUser,
  SessionSchema,
  TutorialAnswerSchema,
  TypeMessageSchema,
  resetPath,
  type Session,
  type Tutorial,
  type TypeMessage,
  verifyEmailPath,
} from '@adloom/contract';
import { z } from 'zod';
import { http } from './client.ts';
import type { HttpClient } from './http.ts';

/** Every account call of spec section 7. Callers show their own messages (`errors: 'caller'`). */

export function logIn(body: { email: string; password: string }): Promise<Session> {
  return http.post(API.users.login, body, {
    schema: SessionSchema,
    errors: 'caller',
    isAnonymous: true,
  });
}

export function register(body: {
  email: string;
  password: string;
  passwordConfirm: string;
  recaptchaToken: string;
}): Promise<Session> {
  return http.post(
    API.users.register,
    {
      email: body.email,
      password: body.password,
      'password-confirm': body.passwordConfirm,
      recaptchaToken: body.recaptchaToken,
    },
    { schema: SessionSchema, errors: 'caller', isAnonymous: true },
  );
}

export function requestPasswordReset(email: string): Promise<TypeMessage> {
  return http.post(
    API.users.forgot,
    { email },
    { schema: TypeMessageSchema, errors: 'caller', isAnonymous: true },
  );
}

export function checkResetToken(token: string): Promise<TypeMessage> {
  return http.get(resetPath(token), {
    schema: TypeMessageSchema,
    errors: 'caller',
    isAnonymous: true,
  });
}

const ResetAnswerSchema = SessionSchema.extend({
  type: z.string().optional(),
  message: z.string().optional(),
});

export function resetPassword(
  token: string,
  body: { password: string; passwordConfirm: string },
): Promise<z.infer<typeof ResetAnswerSchema>> {
  return http.post(
    resetPath(token),
    { password: body.password, 'password-confirm': body.passwordConfirm },
    { schema: ResetAnswerSchema, errors: 'caller', isAnonymous: true },
  );
}

/**
 * Verifies the address a mailed link was sent to. Signed in, the call carries the session: the
 * server then takes only a link of this account.
 */
export function verifyEmail(token: string): Promise<TypeMessage> {
  return http.post(verifyEmailPath(token), {}, { schema: TypeMessageSchema, errors: 'caller' });
}

/** Mails the signed-in user a new verification link (rate limited: 429 says when to try again). */
export function sendVerificationAgain(): Promise<TypeMessage> {
  return http.post(API.users.sendVerification, {}, { schema: TypeMessageSchema, errors: 'caller' });
}

/** Changes the signed-in user's address (password confirmed); the new one waits for its link. */
export function changeEmail(body: { email: string; password: string }): Promise<ChangeEmailAnswer> {
  return http.post(API.users.changeEmail, body, {
    schema: ChangeEmailAnswerSchema,
    errors: 'caller',
  });
}

export function deleteAccount(body: { email: string; password: string }): Promise<unknown> {
  return http.post(API.users.delete, body, { errors: 'caller' });
}

/** Log Out gives up on the server after this long: the person is already signed out here. */
const END_SESSION_TIMEOUT_MS = 10_000;

/**
 * Log Out: ends `token` on the server. Signed with that token (the session here is already
 * cleared), kept alive if the page goes away, and cut off before the slow-request warning.
 */
export function endSession(token: string, client: HttpClient = http): Promise<LogOutAnswer> {
  return client.post(
    API.users.logout,
    {},
    {
      schema: LogOutAnswerSchema,
      errors: 'caller',
      isLoadingExempt: true,
      token,
      keepalive: true,
      signal: AbortSignal.timeout(END_SESSION_TIMEOUT_MS),
    },
  );
}

/** Log out everywhere: ends every session of the signed-in account, this one included. */
export function endEverySession(client: HttpClient = http): Promise<LogOutAnswer> {
  return client.post(
    API.users.logoutEverywhere,
    {},
    { schema: LogOutAnswerSchema, errors: 'caller' },
  );
}

/** Turns the tutorials off (or back on); answers the new tutorial state. */
export async function toggleTutorials(shouldDisable: boolean): Promise<Tutorial> {
  const answer = await http.post(
    API.users.toggleTutorials,
    { shouldDisable },
    { schema: TutorialAnswerSchema, errors: 'caller' },
  );
  return answer.tutorial;
}

/** Marks the tutorial step `target` done (or not done); answers the new tutorial state. */
export async function setTutorialDoneStatus(target: string, isDone: boolean): Promise<Tutorial> {
  const answer = await http.post(
    API.users.setTutorialDoneStatus,
    { target, isDone },
    { schema: TutorialAnswerSchema, errors: 'caller' },
  );
  return answer.tutorial;
}

/** Turns the tutorials back on with every step not done; answers the new tutorial state. */
export async function resetTutorials(): Promise<Tutorial> {
  const answer = await http.post(
    API.users.resetTutorials,
    { message: 'reset' },
    { schema: TutorialAnswerSchema, errors: 'caller' },
  );
  return answer.tutorial;
}

export function joinWaitingList(email: string): Promise<unknown> {
  return http.post(API.app.waitingList, { email }, { errors: 'caller', isAnonymous: true });
}

/** A feedback type of spec section 3. */
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

export function sendFeedback(body: {
  type: FeedbackType;
  message: string;
  user: { email: string };
}): Promise<unknown> {
  return http.post(API.feedback, body, { errors: 'caller' });
}

const MeAnswerSchema = z.object({ user: PublicUserSchema });

/** The signed-in user's own record; a rejected token goes through the generic handler (401 -> signed out). */
export async function fetchMe(): Promise<PublicUser> {
  const answer = await http.get(API.users.me, { schema: MeAnswerSchema });
  return answer.user;
}

/** "Download my data": the zip of everything the person keeps (the caller shows failures). */
export function downloadMyData(): Promise<Blob> {
  return http.getBlob(API.users.myData, { errors: 'caller' });
}
