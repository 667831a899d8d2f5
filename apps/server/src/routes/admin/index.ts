import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import {
  API,
  AdminCsvQuerySchema,
  AdminEntriesQuerySchema,
  type AdminCounts,
  type AdminFeedbackPage,
  type AdminSettings,
  type AdminWaitingListPage,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate } from '../../auth/session.ts';
import { parseParams } from '../../http/validate.ts';
import { readCounts } from '../../db/admin.ts';
import {
  csvFileName,
  feedbackCsv,
  feedbackPage,
  requireOperator,
  settingsStatus,
  waitingListCsv,
  waitingListPage,
} from '../../services/admin.ts';

function sendCsv(reply: FastifyReply, name: string, csv: Readable): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}"`)
    .send(csv);
}

/**
 * The Admin page's calls (issue 38), read-only: signed out 401 as everywhere; signed in but not
 * an operator (a verified address in ADMIN_EMAILS), the 404 of a path nothing answers.
 */
export default async function adminRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  app.addHook('onRequest', authenticate);
  app.addHook('onRequest', requireOperator(deps.config.adminEmails));

  app.get(API.admin.feedback, async (request): Promise<AdminFeedbackPage> => {
    return feedbackPage(db, parseParams(AdminEntriesQuerySchema, request.query));
  });

  app.get(API.admin.feedbackCsv, async (request, reply) => {
    const { q } = parseParams(AdminCsvQuerySchema, request.query);
    return sendCsv(reply, csvFileName('feedback', new Date()), feedbackCsv(db, q));
  });

  app.get(API.admin.waitingList, async (request): Promise<AdminWaitingListPage> => {
    return waitingListPage(db, parseParams(AdminEntriesQuerySchema, request.query));
  });

  app.get(API.admin.waitingListCsv, async (request, reply) => {
    const { q } = parseParams(AdminCsvQuerySchema, request.query);
    return sendCsv(reply, csvFileName('waiting-list', new Date()), waitingListCsv(db, q));
  });

  app.get(API.admin.counts, async (): Promise<AdminCounts> => readCounts(db));

  app.get(API.admin.settings, async (): Promise<AdminSettings> => settingsStatus(deps.config, db));
}
