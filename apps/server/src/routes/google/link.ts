import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  AccessTokenBodySchema,
  UnlinkBodySchema,
  type ConsentAnswer,
  type GoogleStatus,
  type LinkAnswer,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { parseBody } from '../../http/validate.ts';
import { presentUser } from '../../presenters/user.ts';
import { loadAccount } from '../../services/accounts.ts';
import {
  completeGoogleLink,
  readGoogleStatus,
  startGoogleConsent,
  unlinkGoogle,
} from '../../services/google-oauth.ts';

/**
 * The Google account link (spec section 6, issue 15): status, the consent page, the code
 * exchange and unlinking. All signed in.
 */
export async function linkRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  /** The signed-in user and their link, after a change. */
  const linkAnswer = async (request: FastifyRequest): Promise<LinkAnswer> => {
    const userId = getUser(request).id;
    const [user, status] = await Promise.all([
      loadAccount(deps.db, userId),
      readGoogleStatus(deps, userId),
    ]);
    return { user: presentUser(user, deps.config), status };
  };

  app.get(API.google.status, { onRequest: authenticate }, async (request): Promise<GoogleStatus> =>
    readGoogleStatus(deps, getUser(request).id),
  );

  app.get(
    API.google.consent,
    { onRequest: authenticate },
    async (request): Promise<ConsentAnswer> => ({
      url: await startGoogleConsent(deps, getUser(request).id),
    }),
  );

  app.post(
    API.google.accessToken,
    { onRequest: authenticate },
    async (request): Promise<LinkAnswer> => {
      const body = parseBody(AccessTokenBodySchema, request.body);
      await completeGoogleLink(deps, getUser(request).id, body, request.log);
      return linkAnswer(request);
    },
  );

  app.post(
    API.google.unlinkGoogleSheets,
    { onRequest: authenticate },
    async (request): Promise<LinkAnswer> => {
      parseBody(UnlinkBodySchema, request.body);
      const { revoked } = await unlinkGoogle(deps, getUser(request).id, request.log);
      return { ...(await linkAnswer(request)), ...(revoked === undefined ? {} : { revoked }) };
    },
  );
}
