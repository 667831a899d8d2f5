import type { FastifyInstance } from 'fastify';
import {
  API,
  BUILD_MESSAGES,
  PatchLoopSettingsBodySchema,
  type LoopSettings,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { findLoopSettings, updateLoopSettings } from '../../db/builds.ts';
import { AppError } from '../../errors.ts';
import { parseBody } from '../../http/validate.ts';
import { readClientId } from './ids.ts';

/**
 * GET and PATCH /api/clients/:id/loop-settings: what a plan does with items the feed dropped
 * (pause, remove, keep) and the label on what Adloom made.
 */
export async function loopSettingsRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;
  app.addHook('onRequest', authenticate);

  app.get(API.clients.loopSettings, async (request): Promise<LoopSettings> => {
    const clientId = readClientId(request.params);
    const settings = await findLoopSettings(db, getUser(request).id, clientId);
    if (!settings) throw new AppError('not_found', BUILD_MESSAGES.clientNotFound);
    return settings;
  });

  app.patch(API.clients.loopSettings, async (request): Promise<LoopSettings> => {
    const clientId = readClientId(request.params);
    const changes = parseBody(PatchLoopSettingsBodySchema, request.body);
    const settings = await updateLoopSettings(db, getUser(request).id, clientId, changes);
    if (!settings) throw new AppError('not_found', BUILD_MESSAGES.clientNotFound);
    return settings;
  });
}
