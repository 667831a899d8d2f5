import type { SessionService } from './auth/session.ts';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { AttemptLimits } from './services/attempt-limits.ts';
import type { GoogleAccessTokens } from './services/google-oauth.ts';
import type { Mailer } from './services/mailer.ts';
import type { SaveWorkers } from './services/save-workers.ts';

/**
 * What every route plugin receives. Its own module, which imports no route: the routes take their
 * types from here, and app.ts, which registers the routes, builds it.
 */
export interface AppDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  sessions: SessionService;
  limits: AttemptLimits;
  /** The users' Google access tokens, in memory only. */
  googleTokens: GoogleAccessTokens;
  /** The threads that prepare feed and list saves (SAVE_WORKERS). */
  saveWorkers: SaveWorkers;
}
