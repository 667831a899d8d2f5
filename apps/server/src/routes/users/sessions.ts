import type { FastifyInstance } from 'fastify';
import { API, LogOutBodySchema, type LogOutAnswer } from '@adloom/contract';
import type { AppDeps } from '../../app.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { revokeAllSessions, revokeSession } from '../../db/users.ts';
import { parseBody } from '../../http/validate.ts';

/**
 * Log Out and "log out everywhere": both act only on the token that signs the call (its user and
 * its own id), so no one can end another person's session.
 */
export async function sessionRoutes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'db'>,
): Promise<void> {
  const { db } = deps;

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
      await revokeAllSessions(db, getUser(request).id);
      return { type: 'success', message: 'You have been logged out on every device.' };
    },
  );
}
