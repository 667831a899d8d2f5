import type { FastifyInstance } from 'fastify';
import { API, type PublicConfig } from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { publicBotCheckSettings } from '../../services/bot-check.ts';

/**
 * GET /api/config (no token): what the web app needs before sign-in: the register bot check and
 * the configured frames (help videos, the landing page's video, the demo booking widget) and the
 * tag manager (loaded only after the person's consent).
 */
export default async function configRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const answer: PublicConfig = {
    botCheck: publicBotCheckSettings(deps.config),
    media: deps.config.media,
    tagManager: deps.config.tagManager,
  };
  app.get(API.config, async (): Promise<PublicConfig> => answer);
}
