import type { SessionService } from './auth/session.ts';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { AttemptLimits } from './services/attempt-limits.ts';
import type { GoogleAccessTokens } from './services/google-oauth.ts';
import type { Mailer } from './services/mailer.ts';

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
}
