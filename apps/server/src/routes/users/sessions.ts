import type { FastifyInstance } from 'fastify';
import { API, LogOutBodySchema, type LogOutAnswer } from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { revokeAllSessions, revokeSession } from '../../db/users.ts';
import { parseBody } from '../../http/validate.ts';

/**
 * Log Out and "log out everywhere": both act only on the token that signs the call (its user and
 * its own id), so no one can end another person's session.
 */
export async function sessionRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'db' | 'limits'>,
): Promise<void> {
  const { db, limits } = deps;

  app.post(
    API.users.logout,
    { onRequest: authenticate },
    async (request): Promise<LogOutAnswer> => {
      parseBody(LogOutBodySchema, request.body);
      const user = getUser(request);
      await revokeSession(db, {
        userId: user.id,
        jti: user.session.id,
        expiresAt: user.session.expiresAt,
      });
      return { type: 'success', message: 'You have been logged out.' };
    },
  );

  app.post(
    API.users.logoutEverywhere,
    { onRequest: authenticate },
    async (request): Promise<LogOutAnswer> => {
      parseBody(LogOutBodySchema, request.body);
      const user = getUser(request);
      await revokeAllSessions(db, user.id);
      // Whoever ended every session suspects someone else: their sign-ins stop counting as known.
      await limits.login.forgetKnownAddresses(user.email);
      return { type: 'success', message: 'You have been logged out on every device.' };
    },
  );
}
