import type { FastifyInstance } from 'fastify';
import { API } from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { userDataZip } from '../../services/data-export.ts';

/** `adloom-data-<yyyymmdd>.zip` for `date` (UTC). */
export function dataZipName(date: Date): string {
  return `adloom-data-${date.toISOString().slice(0, 10).replaceAll('-', '')}.zip`;
}

/**
 * GET /api/users/me/data (auth): "Download my data", the signed-in person's clients, feeds, lists
 * and templates as one zip, streamed as it is made.
 */
export default async function myDataRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.get(API.users.myData, { onRequest: authenticate }, async (request, reply) => {
    const zip = userDataZip(deps.db, getUser(request).id);
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${dataZipName(new Date())}"`)
      .header('cache-control', 'no-store')
      .send(zip);
  });
}
