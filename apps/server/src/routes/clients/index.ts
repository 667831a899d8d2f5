import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { buildRoutes } from './builds.ts';
import { loopSettingsRoutes } from './loop-settings.ts';

/**
 * A client's calls by its id (issue 35; the spec's own client calls, by name, are under
 * /api/app): the build history and the loop settings. All signed in; another user's client
 * answers 404, as a missing one does.
 */
export default async function clientsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(async (scope) => buildRoutes(scope, deps));
  await app.register(async (scope) => loopSettingsRoutes(scope, deps));
}
