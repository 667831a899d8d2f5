import type { FastifyInstance } from 'fastify';
import { API, type PublicConfig } from '@adloom/contract';
import type { AppDeps } from '../../app.ts';
import { publicBotCheckSettings } from '../../services/bot-check.ts';

/** GET /api/config (no token): what the web app needs before sign-in (the register bot check). */
export default async function configRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const answer: PublicConfig = { botCheck: publicBotCheckSettings(deps.config) };
  app.get(API.config, async (): Promise<PublicConfig> => answer);
}
