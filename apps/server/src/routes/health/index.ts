import type { FastifyInstance } from 'fastify';
import { API, type Health } from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { AppError, DATABASE_UNAVAILABLE_MESSAGE } from '../../errors.ts';
import { createReadiness } from '../../services/readiness.ts';

/**
 * GET /api/health, liveness: answers while the process serves, whatever the database does (a
 * database outage is no reason to restart the server: it reconnects by itself).
 * GET /api/ready, readiness: 503 only when the database cannot be reached (and while the server
 * stops), so a proxy or orchestrator sends requests only where they can succeed. It answers
 * within 100 ms, also while every database connection is busy: busy is not down, and a proxy
 * that pulled a busy server would only load the others more.
 */
export default async function healthRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(API.health, async (): Promise<Health> => ({ ok: true, database: deps.db.kind }));
  const isReady = createReadiness(() => deps.db.ping());
  app.get(API.ready, async (): Promise<Health> => {
    if (!(await isReady())) throw new AppError('service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
    return { ok: true, database: deps.db.kind };
  });
}
