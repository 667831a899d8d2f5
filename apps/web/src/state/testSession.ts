import type { Session } from '@adloom/contract';

/** A sign-in answer for tests: Ann's account with the given token, valid for an hour. */
export function testSession(token: string): Session {
  return {
    token,
    expiresIn: 3600,
    user: {
      _id: 'u1',
      email: 'ann@example.com',
      role: 'user',
      integrations: [],
      tutorial: { disabled: false, tutorialSteps: [] },
    },
  };
}
