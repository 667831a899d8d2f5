import type { FEEDBACK_TYPES } from '@adloom/contract';
import {
  API,
  PublicUserSchema,
  type PublicUser,
  SessionSchema,
  TutorialSchema,
  TypeMessageSchema,
  resetPath,
  type Session,
  type Tutorial,
  type TypeMessage,
} from '@adloom/contract';
import { z } from 'zod';
import { http } from './client.ts';

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

export function deleteAccount(body: { email: string; password: string }): Promise<unknown> {
  return http.post(API.users.delete, body, { errors: 'caller' });
}

export function toggleTutorials(shouldDisable: boolean): Promise<unknown> {
  return http.post(API.users.toggleTutorials, { shouldDisable }, { errors: 'caller' });
}

const ResetTutorialsAnswerSchema = z.object({ tutorial: TutorialSchema }).passthrough();

export async function resetTutorials(): Promise<Tutorial> {
  const answer = await http.post(
    API.users.resetTutorials,
    { message: 'reset' },
    { schema: ResetTutorialsAnswerSchema, errors: 'caller' },
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
