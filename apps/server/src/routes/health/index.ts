import type { FastifyInstance } from 'fastify';
import { API, type Health } from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';

/**
 * GET /api/health, liveness: answers while the process serves, whatever the database does (a
 * database outage is no reason to restart the server: it reconnects by itself).
 * GET /api/ready, readiness: answers only when the database answers too (503 otherwise, and
 * while the server stops), so a proxy or orchestrator sends requests only where they can succeed.
 */
export default async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(API.health, async (): Promise<Health> => ({ ok: true, database: deps.db.kind }));
  app.get(API.ready, async (): Promise<Health> => {
    await deps.db.query('select 1');
    return { ok: true, database: deps.db.kind };
  });
}
