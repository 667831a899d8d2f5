import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import healthRoutes from './health/index.ts';
import configRoutes from './config/index.ts';
import usersRoutes from './users/index.ts';
import appRoutes from './app/index.ts';
import feedbackRoutes from './feedback/index.ts';
import googleRoutes from './google/index.ts';
import aiRoutes from './ai/index.ts';
import geoRoutes from './geo/index.ts';
import myDataRoutes from './my-data/index.ts';
import clientsRoutes from './clients/index.ts';

/** Registers every resource's routes. One line per resource. */
export async function registerRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(async (scope) => healthRoutes(scope, deps));
  await app.register(async (scope) => configRoutes(scope, deps));
  await app.register(async (scope) => usersRoutes(scope, deps));
  await app.register(async (scope) => appRoutes(scope, deps));
  await app.register(async (scope) => feedbackRoutes(scope, deps));
  await app.register(async (scope) => googleRoutes(scope, deps));
  await app.register(async (scope) => aiRoutes(scope, deps));
  await app.register(async (scope) => geoRoutes(scope, deps));
  await app.register(async (scope) => myDataRoutes(scope, deps));
  await app.register(async (scope) => clientsRoutes(scope, deps));
}
