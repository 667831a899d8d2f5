/**
 * The Google account link (issue 15): the OAuth 2.0 client (consent URL with a state and PKCE
 * S256, code exchange, refresh, revoke: RFC 6749 and 7636 over `fetch`, at the addresses of
 * config.google), the link flows, and `getGoogleAccessToken` for the Sheets calls.
 *
 * Refresh tokens are stored sealed (secrets.ts) and access tokens only kept in memory; neither
 * is ever logged or answered. Google's errors are logged by their code and status only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { GOOGLE_LINK_MESSAGES, SHEET_MESSAGES, type GoogleStatus } from '@adloom/contract';
import type { AppDeps } from '../deps.ts';
import type { GoogleConfig } from '../config.ts';
import {
  consumeOAuthState,
  deleteGoogleLink,
  findGoogleLink,
  insertOAuthState,
  markNeedsConsent,
  saveGoogleLink,
  type GoogleLinkRow,
} from '../db/google-links.ts';
import { AppError } from '../errors.ts';
import { SecretUnreadableError, openSecret, sealSecret } from './secrets.ts';

/** The one scope Adloom asks for: read and write the person's spreadsheets. */
export const GOOGLE_SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** A consent page must be answered within this time. */
export const OAUTH_STATE_TTL_SECONDS = 10 * 60;
/** Unanswered consent states kept per user (older ones are dropped). */
const OAUTH_STATES_KEPT_PER_USER = 5;
/** Each call to Google's OAuth endpoints gives up after this long. */
const GOOGLE_OAUTH_TIMEOUT_MS = 15_000;
/** A cached access token is renewed this long before Google says it expires. */
const ACCESS_TOKEN_MARGIN_MS = 60_000;

const STATE_REFUSED_MESSAGE =
  'This Google link has expired or was started elsewhere. Link Google Sheets again.';
/** The code Google sent back does not go with the state's verifier, or was used already. */
export const CODE_REFUSED_MESSAGE =
  'This Google link was already used or belongs to another attempt. Link Google Sheets again.';
const SCOPE_REFUSED_MESSAGE =
  'Google did not grant access to your spreadsheets. Link Google Sheets again and allow Adloom to see, edit, create and delete your Google Sheets spreadsheets.';

/** What the link flows use (AppDeps has it all). */
export type GoogleDeps = Pick<AppDeps, 'config' | 'db' | 'googleTokens'>;

// ---------------------------------------------------------------------------------------------
// The OAuth client

/**
 * A failed call to Google's OAuth endpoints. `invalid_grant`: the code or refresh token is no
 * longer honoured; `refused`: another 4xx or an answer that is not what RFC 6749 says;
 * `unreachable`: no answer, a timeout, or a 5xx.
 */
export class GoogleOAuthError extends Error {
  override name = 'GoogleOAuthError';

  constructor(
    readonly kind: 'invalid_grant' | 'refused' | 'unreachable',
    readonly status: number | undefined,
    /** Google's `error` code (e.g. 'invalid_grant'), never a token. */
    readonly googleError: string | undefined,
  ) {
    super(
      `Google OAuth call failed (${kind}${status ? `, HTTP ${status}` : ''}${googleError ? `, ${googleError}` : ''})`,
    );
  }

  /** What may be logged of it. */
  get logFields(): { kind: string; status?: number; googleError?: string } {
    return {
      kind: this.kind,
      ...(this.status ? { status: this.status } : {}),
      ...(this.googleError ? { googleError: this.googleError } : {}),
    };
  }
}

/** Retries of a token refresh Google answered 429 or 5xx (or that never reached Google). */
const REFRESH_RETRIES = 3;

const GoogleErrorBodySchema = z.object({ error: z.string().max(100) });

const TokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

/** POSTs a form to Google; answers the parsed JSON body of a 2xx, throws GoogleOAuthError else. */
async function postForm(url: string, fields: Record<string, string>): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(fields).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(GOOGLE_OAUTH_TIMEOUT_MS),
    });
    text = await response.text();
  } catch {
    throw new GoogleOAuthError('unreachable', undefined, undefined);
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = undefined;
  }
  if (response.ok) return body;
  if (response.status >= 500) throw new GoogleOAuthError('unreachable', response.status, undefined);
  const googleError = GoogleErrorBodySchema.safeParse(body);
  const code = googleError.success ? googleError.data.error : undefined;
  throw new GoogleOAuthError(
    code === 'invalid_grant' ? 'invalid_grant' : 'refused',
    response.status,
    code,
  );
}

function parseTokenAnswer(body: unknown): z.infer<typeof TokenAnswerSchema> {
  const answer = TokenAnswerSchema.safeParse(body);
  if (!answer.success) throw new GoogleOAuthError('refused', 200, undefined);
  return answer.data;
}

/** The redirect URI Google sends the browser back to: the account page. */
export function googleRedirectUri(appUrl: string): string {
  return `${appUrl}/account`;
}

/** The PKCE S256 challenge of a code verifier (RFC 7636 section 4.2). */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}

/** Google's consent page for the Sheets scope, offline access, with the state and PKCE challenge. */
export function buildConsentUrl(
  google: GoogleConfig,
  input: { redirectUri: string; state: string; codeChallenge: string },
): string {
  const url = new URL(google.authUrl);
  const params: Record<string, string> = {
    client_id: google.clientId,
    redirect_uri: input.redirectUri,
    response_type: 'code',
    scope: GOOGLE_SHEETS_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'false',
    state: input.state,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/** Exchanges an authorization code (with its PKCE verifier) for tokens. */
export async function exchangeCode(
  google: GoogleConfig,
  input: { code: string; codeVerifier: string; redirectUri: string },
): Promise<{ refreshToken: string | undefined; scope: string | undefined }> {
  const answer = parseTokenAnswer(
    await postForm(google.tokenUrl, {
      grant_type: 'authorization_code',
      code: input.code,
      client_id: google.clientId,
      client_secret: google.clientSecret,
      redirect_uri: input.redirectUri,
      code_verifier: input.codeVerifier,
    }),
  );
  return { refreshToken: answer.refresh_token, scope: answer.scope };
}

/**
 * A new access token for a refresh token. Google keeps a refresh token until it is revoked (it
 * does not rotate them), so a `refresh_token` in the answer is not looked at.
 */
export async function refreshAccessToken(
  google: GoogleConfig,
  refreshToken: string,
): Promise<{ accessToken: string; expiresInSeconds: number }> {
  for (let retry = 0; ; retry++) {
    try {
      const answer = parseTokenAnswer(
        await postForm(google.tokenUrl, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: google.clientId,
          client_secret: google.clientSecret,
        }),
      );
      return { accessToken: answer.access_token, expiresInSeconds: answer.expires_in };
    } catch (error) {
      // Google busy (429) or failing (5xx, no answer): tried again with backoff, as Sheets calls.
      const isPassing =
        error instanceof GoogleOAuthError && (error.kind === 'unreachable' || error.status === 429);
      if (!isPassing || retry >= REFRESH_RETRIES) throw error;
      await sleep(google.retryBaseMs * 2 ** retry + Math.random() * google.retryBaseMs);
    }
  }
}

/**
 * Revokes a token at Google (and with it the grant). A token Google no longer knows (400
 * `invalid_token`) counts as revoked.
 */
export async function revokeToken(google: GoogleConfig, token: string): Promise<void> {
  try {
    await postForm(google.revokeUrl, { token });
  } catch (error) {
    if (error instanceof GoogleOAuthError && error.googleError === 'invalid_token') return;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Access tokens in memory

/**
 * Access tokens per user, kept in memory until a minute before they expire; never stored. Each
 * is kept with the stored link it came from: once the link changes (unlinked and linked again,
 * also through another server on the same database) the kept token is not used.
 */
export interface GoogleAccessTokens {
  /**
   * The user's kept access token when it came from `link` (the stored link's sealed refresh
   * token), or a new one from `load` (one load per user at a time).
   */
  get(
    userId: string,
    link: string,
    load: () => Promise<{ accessToken: string; expiresInSeconds: number }>,
  ): Promise<string>;
  /** Forgets the user's access token (unlink, link again, account deleted, token refused). */
  forget(userId: string): void;
}

/** An empty access-token memory; `now` is the clock (ms). */
export function createGoogleAccessTokens(now: () => number = Date.now): GoogleAccessTokens {
  // expiresAt is Infinity while the token is being loaded.
  const entries = new Map<string, { token: Promise<string>; expiresAt: number; link: string }>();
  const isUsable = (entry: { expiresAt: number }) =>
    entry.expiresAt - ACCESS_TOKEN_MARGIN_MS > now();
  return {
    get(userId, link, load) {
      const kept = entries.get(userId);
      if (kept && kept.link === link && isUsable(kept)) return kept.token;
      for (const [id, entry] of entries) if (!isUsable(entry)) entries.delete(id);
      const entry = { token: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY, link };
      entry.token = load().then(
        (loaded) => {
          entry.expiresAt = now() + loaded.expiresInSeconds * 1000;
          return loaded.accessToken;
        },
        (error: unknown) => {
          if (entries.get(userId) === entry) entries.delete(userId);
          throw error;
        },
      );
      entries.set(userId, entry);
      return entry.token;
    },
    forget(userId) {
      entries.delete(userId);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The link flows

function requireGoogle(config: GoogleDeps['config']): GoogleConfig {
  if (!config.google) throw new AppError('not_configured', SHEET_MESSAGES.notConfigured);
  return config.google;
}

/** The server's Google setup and the user's link. */
export async function readGoogleStatus(deps: GoogleDeps, userId: string): Promise<GoogleStatus> {
  const link = await findGoogleLink(deps.db, userId);
  return {
    configured: deps.config.google !== undefined,
    status: link?.status ?? 'not_linked',
    ...(link ? { linkedAt: link.linked_at.toISOString() } : {}),
  };
}

/** Stores a new consent state for the user and answers the consent page's URL (501 when not configured). */
export async function startGoogleConsent(deps: GoogleDeps, userId: string): Promise<string> {
  const google = requireGoogle(deps.config);
  const state = randomBytes(32).toString('base64url');
  const codeVerifier = randomBytes(48).toString('base64url');
  await insertOAuthState(deps.db, {
    state,
    userId,
    codeVerifier,
    ttlSeconds: OAUTH_STATE_TTL_SECONDS,
    keptPerUser: OAUTH_STATES_KEPT_PER_USER,
  });
  return buildConsentUrl(google, {
    redirectUri: googleRedirectUri(deps.config.appUrl),
    state,
    codeChallenge: pkceChallenge(codeVerifier),
  });
}

/**
 * Links the user's Google account with the code Google sent back: the state must be one of the
 * user's, unexpired (it is used up either way). A code Google refuses as `invalid_grant` (used,
 * or not the one of this state's PKCE verifier) is the request's fault: 400. Google failing, or
 * granting no refresh token or not the Sheets scope, is 502.
 */
export async function completeGoogleLink(
  deps: GoogleDeps,
  userId: string,
  input: { code: string; state: string },
  log: FastifyBaseLogger,
): Promise<void> {
  const google = requireGoogle(deps.config);
  const consumed = await consumeOAuthState(deps.db, { state: input.state, userId });
  if (!consumed?.is_fresh) throw new AppError('bad_request', STATE_REFUSED_MESSAGE);
  let tokens: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    tokens = await exchangeCode(google, {
      code: input.code,
      codeVerifier: consumed.code_verifier,
      redirectUri: googleRedirectUri(deps.config.appUrl),
    });
  } catch (error) {
    if (!(error instanceof GoogleOAuthError)) throw error;
    log.warn({ userId, google: error.logFields }, 'google code exchange failed');
    if (error.kind === 'invalid_grant') throw new AppError('bad_request', CODE_REFUSED_MESSAGE);
    throw new AppError('upstream_failed', GOOGLE_LINK_MESSAGES.linkFailed);
  }
  if (!tokens.refreshToken) {
    log.warn({ userId }, 'google granted no refresh token');
    throw new AppError('upstream_failed', GOOGLE_LINK_MESSAGES.linkFailed);
  }
  // RFC 6749 5.1: no scope in the answer means the scope asked for.
  if (tokens.scope !== undefined && !tokens.scope.split(' ').includes(GOOGLE_SHEETS_SCOPE)) {
    log.warn({ userId, scope: tokens.scope }, 'google granted no sheets scope');
    await revokeQuietly(google, tokens.refreshToken, userId, log);
    throw new AppError('upstream_failed', SCOPE_REFUSED_MESSAGE);
  }
  await saveGoogleLink(deps.db, {
    userId,
    sealedRefreshToken: sealSecret(deps.config.tokenEncryptionKey, tokens.refreshToken, userId),
    scope: tokens.scope ?? GOOGLE_SHEETS_SCOPE,
  });
  deps.googleTokens.forget(userId);
  log.info({ userId }, 'google account linked');
}

/** Revokes a token; answers false (and logs) when Google could not be asked or refused. */
async function revokeQuietly(
  google: GoogleConfig,
  token: string,
  userId: string,
  log: FastifyBaseLogger,
): Promise<boolean> {
  try {
    await revokeToken(google, token);
    return true;
  } catch (error) {
    if (!(error instanceof GoogleOAuthError)) throw error;
    log.warn({ userId, google: error.logFields }, 'google token revoke failed');
    return false;
  }
}

/** The plain refresh token of a link; undefined (logged) when it no longer opens (key changed). */
function openRefreshToken(
  deps: GoogleDeps,
  link: GoogleLinkRow,
  log: FastifyBaseLogger | undefined,
): string | undefined {
  try {
    return openSecret(deps.config.tokenEncryptionKey, link.refresh_token, link.user_id);
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
    log?.warn(
      { userId: link.user_id },
      'stored google refresh token does not open (was TOKEN_ENCRYPTION_KEY changed?)',
    );
    return undefined;
  }
}

/**
 * Unlinks: revokes the refresh token at Google, then deletes it and takes the integration away
 * whatever Google answered. `revoked` is false when Google could not be asked (or the token
 * could not be read); it is absent when there was no link.
 */
export async function unlinkGoogle(
  deps: GoogleDeps,
  userId: string,
  log: FastifyBaseLogger,
): Promise<{ revoked?: boolean }> {
  const link = await findGoogleLink(deps.db, userId);
  let revoked: boolean | undefined;
  if (link) {
    // Without the settings there is no Google to revoke at (and maybe no key to open it with).
    const token = deps.config.google ? openRefreshToken(deps, link, log) : undefined;
    revoked =
      token !== undefined && deps.config.google !== undefined
        ? await revokeQuietly(deps.config.google, token, userId, log)
        : false;
  }
  await deleteGoogleLink(deps.db, userId);
  deps.googleTokens.forget(userId);
  if (link) log.info({ userId, revoked }, 'google account unlinked');
  return revoked === undefined ? {} : { revoked };
}

/**
 * Google refused a freshly refreshed access token for Sheets (401): the grant no longer serves,
 * so the link needs consent again, as after `invalid_grant`.
 */
export async function markGoogleLinkRefused(deps: GoogleDeps, userId: string): Promise<void> {
  deps.googleTokens.forget(userId);
  const link = await findGoogleLink(deps.db, userId);
  if (link?.status === 'linked')
    await markNeedsConsent(deps.db, { userId, refused: link.refresh_token });
}

/** Before an account is deleted: revokes its Google token, best effort (the row goes by cascade). */
export async function revokeGoogleLinkOfDeletedAccount(
  deps: GoogleDeps,
  userId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  deps.googleTokens.forget(userId);
  const link = await findGoogleLink(deps.db, userId);
  if (!link || !deps.config.google) return;
  const token = openRefreshToken(deps, link, log);
  if (token !== undefined) await revokeQuietly(deps.config.google, token, userId, log);
}

/**
 * An access token for the user's Sheets calls, from memory or refreshed. No link: 401
 * `not_linked`. A refresh token Google no longer honours (`invalid_grant`), or one that no
 * longer opens: the link is marked as needing consent, the integration goes, 401 `relink_needed`.
 * Google unreachable: 502.
 */
export async function getGoogleAccessToken(
  deps: GoogleDeps,
  userId: string,
  log?: FastifyBaseLogger,
): Promise<string> {
  const google = requireGoogle(deps.config);
  // Read every time: another server may have unlinked, or linked another Google account.
  const link = await findGoogleLink(deps.db, userId);
  if (!link) throw new AppError('not_linked', SHEET_MESSAGES.notLinked);
  if (link.status === 'needs_consent')
    throw new AppError('relink_needed', SHEET_MESSAGES.relinkNeeded);
  return deps.googleTokens.get(userId, link.refresh_token, async () => {
    const needsConsent = async () => {
      await markNeedsConsent(deps.db, { userId, refused: link.refresh_token });
      return new AppError('relink_needed', SHEET_MESSAGES.relinkNeeded);
    };
    const refreshToken = openRefreshToken(deps, link, log);
    if (refreshToken === undefined) throw await needsConsent();
    try {
      return await refreshAccessToken(google, refreshToken);
    } catch (error) {
      if (!(error instanceof GoogleOAuthError)) throw error;
      log?.warn({ userId, google: error.logFields }, 'google token refresh failed');
      if (error.kind === 'invalid_grant') throw await needsConsent();
      throw new AppError('upstream_failed', SHEET_MESSAGES.whoops);
    }
  });
}
