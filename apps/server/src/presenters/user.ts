import {
  GOOGLE_SHEETS_INTEGRATION,
  XML_FEEDS_TOOL,
  type PublicUser,
  type Session,
  type Tutorial,
} from '@adloom/contract';
import type { Config } from '../config.ts';
import type { UserRow } from '../db/users.ts';
import { findAiTools } from '../services/ai-suggestions.ts';
import { hasXmlTools } from '../services/xml-feeds.ts';

/** The default tutorial state of a new account. */
export function newTutorial(): Tutorial {
  return { disabled: false, tutorialSteps: [{ name: 'Intro', done: false }] };
}

/**
 * The user as the client sees it (never the hash or the session version). Integrations this
 * server cannot serve are left out: a link kept while the Google settings are removed shows no
 * sheet buttons until they are back. The tools the user's email opens are in `tools` once the
 * address is verified, in `pendingTools` until then (absent: none).
 */
export function presentUser(
  row: UserRow,
  config: Pick<Config, 'google' | 'ai' | 'xmlFeeds'>,
): PublicUser {
  const stored = Array.isArray(row.integrations) ? row.integrations : [];
  const tools = [
    ...(hasXmlTools(row.email, config.xmlFeeds) ? [XML_FEEDS_TOOL] : []),
    ...findAiTools(row.email, config.ai.helperEmailDomain),
  ];
  const isVerified = row.email_verified === true;
  return {
    _id: row.id,
    email: row.email,
    role: row.role,
    integrations: config.google
      ? stored
      : stored.filter((name) => name !== GOOGLE_SHEETS_INTEGRATION),
    tutorial: row.tutorial ?? newTutorial(),
    emailVerified: isVerified,
    ...(tools.length > 0 ? (isVerified ? { tools } : { pendingTools: tools }) : {}),
  };
}

/** A session answer: the token, its lifetime in seconds, and the user. */
export function presentSession(
  signedIn: { user: UserRow; token: string; expiresIn: number },
  config: Pick<Config, 'google' | 'ai' | 'xmlFeeds'>,
): Session {
  return {
    token: signedIn.token,
    expiresIn: signedIn.expiresIn,
    user: presentUser(signedIn.user, config),
  };
}
