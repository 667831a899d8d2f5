import type { FastifyInstance } from 'fastify';
import { API, type Health } from '@adloom/contract';
import type { AppDeps } from '../../app.ts';

/** GET /api/health: answers only when the database answers too (503 otherwise). */
export default async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(API.health, async (): Promise<Health> => {
    await deps.db.query('select 1');
    return { ok: true, database: deps.db.kind };
  });
}
