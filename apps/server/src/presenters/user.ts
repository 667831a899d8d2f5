import type { PublicUser, Session, Tutorial } from '@adloom/contract';
import type { UserRow } from '../db/users.ts';

/** The default tutorial state of a new account. */
export function newTutorial(): Tutorial {
  return { disabled: false, tutorialSteps: [{ name: 'Intro', done: false }] };
}

/** The user as the client sees it (never the hash or the session version). */
export function presentUser(row: UserRow): PublicUser {
  return {
    _id: row.id,
    email: row.email,
    role: row.role,
    integrations: Array.isArray(row.integrations) ? row.integrations : [],
    tutorial: row.tutorial ?? newTutorial(),
  };
}

/** A session answer: the token, its lifetime in seconds, and the user. */
export function presentSession(signedIn: {
  user: UserRow;
  token: string;
  expiresIn: number;
}): Session {
  return { token: signedIn.token, expiresIn: signedIn.expiresIn, user: presentUser(signedIn.user) };
}
