import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EMAIL_PATTERN,
  GUIDE_IDS,
  type GuideId,
  type MediaSettings,
  type TagManagerSettings,
} from '@adloom/contract';

/** Default request body limit: generous enough for a 200k-row feed saved as JSON. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;
/** Default body limit of every call but the feed, list and template saves (account, tutorial, feedback...). */
export const DEFAULT_SMALL_BODY_LIMIT_BYTES = 64 * 1024;
/** Connections of the pool each server keeps to PostgreSQL. */
export const DB_POOL_SIZE = 10;
/**
 * Memory a large save may take at most, for LARGE_SAVES_AT_ONCE's default: a 54 MB feed save
 * peaks at ~390 MB (issue 37), a save at the 64 MiB body limit a little more.
 */
export const LARGE_SAVE_MEMORY_BYTES = 512 * 1024 * 1024;
/** The most LARGE_SAVES_AT_ONCE may be: two of the pool's connections stay for everything else. */
export const LARGE_SAVES_AT_ONCE_MAX = DB_POOL_SIZE - 2;
/**
 * LARGE_SAVES_AT_ONCE's default: as many large saves as fit in a quarter of the machine's memory,
 * at least 1 and at most 4 (more run no faster on a few cores: each parses on the one thread).
 */
export function defaultLargeSavesAtOnce(memoryBytes: number = totalmem()): number {
  return Math.max(1, Math.min(4, Math.floor(memoryBytes / 4 / LARGE_SAVE_MEMORY_BYTES)));
}
/** The most SAVE_WORKERS may be. */
export const SAVE_WORKERS_MAX = 16;
/**
 * SAVE_WORKERS' default: one worker thread per core but one (the event loop keeps a core for
 * every other request), at least 1 and at most LARGE_SAVES_AT_ONCE_MAX (more could never run at
 * once: small saves take a worker for milliseconds).
 */
export function defaultSaveWorkers(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(LARGE_SAVES_AT_ONCE_MAX, cores - 1));
}
/** Default: a body that sends nothing for this long is cut off with 408. */
export const DEFAULT_BODY_IDLE_TIMEOUT_SECONDS = 30;
/** Default: a request (headers and body) must have arrived within this time, else 408. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 300;
/**
 * Default time a stopping server (SIGTERM, SIGINT) gives the requests in flight to finish before
 * it exits anyway: under the 30 s most process managers wait before they kill.
 */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 25;
/** Default session lifetime (the `expiresIn` of login answers): 7 days. */
export const DEFAULT_SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Password-reset links expire after one hour. */
export const RESET_TOKEN_TTL_SECONDS = 60 * 60;
/** Default lifetime of an address verification link (EMAIL_VERIFICATION_TTL_HOURS). */
export const DEFAULT_EMAIL_VERIFICATION_TTL_HOURS = 24;
/** A production JWT secret must be at least this long. */
export const JWT_SECRET_MIN_CHARS = 32;
/** TOKEN_ENCRYPTION_KEY must be at least this long (anywhere it is set). */
export const TOKEN_KEY_MIN_CHARS = 32;
/** Where Google's OAuth and Sheets APIs live; the GOOGLE_*_URL settings point the client elsewhere. */
export const GOOGLE_DEFAULT_URLS = {
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  sheetsUrl: 'https://sheets.googleapis.com',
} as const;
/** Default first wait before a Sheets call answered 429 or 5xx is tried again (it doubles each time). */
export const DEFAULT_GOOGLE_RETRY_BASE_MS = 500;
/** Default longest wait for the AI model's whole answer (AI_TIMEOUT_SECONDS). */
export const DEFAULT_AI_TIMEOUT_SECONDS = 60;
/** Default most tokens the AI model may write per answer (AI_MAX_TOKENS). */
export const DEFAULT_AI_MAX_TOKENS = 1000;
/** Default cap on a product feed's decoded (decompressed) bytes: 200 MiB. */
export const DEFAULT_XML_FETCH_MAX_BYTES = 200 * 1024 * 1024;
/** Default time a feed's server has to accept the connection. */
export const DEFAULT_XML_FETCH_CONNECT_TIMEOUT_SECONDS = 10;
/** Default time a feed has to arrive whole (redirects, headers and body). */
export const DEFAULT_XML_FETCH_TIMEOUT_SECONDS = 120;
/** Default number of feed fetches one user may have running at once. */
export const DEFAULT_XML_FETCHES_PER_USER = 2;
/** Default number of builds a client keeps (issue 35: "the last 10 per client"). */
export const DEFAULT_BUILD_HISTORY_PER_CLIENT = 10;
/** Most builds a client may be set to keep: each can weigh tens of megabytes. */
export const BUILD_HISTORY_PER_CLIENT_MAX = 1000;
/**
 * Default cap on a gzip'd build record: a 1M-keyword build's record is at most 30 MB (issue 35),
 * with room for builds that also carry ads and assets.
 */
export const DEFAULT_BUILD_RECORD_MAX_BYTES = 40 * 1024 * 1024;

const KNOWN_DEFAULT_SECRETS = new Set([
  'secret',
  'changeme',
  'change-me',
  'change_me',
  'jwt-secret',
  'jwt_secret',
  'adloom',
  'development',
  'dev',
  'test',
  'password',
]);

/**
 * The rate limits (services/attempt-limits.ts applies them): counts per sliding window of
 * `windowMs` unless said otherwise.
 */
export interface RateLimitConfig {
  windowMs: number;
  /** Login attempts per address (all of them, even malformed). */
  loginPerIp: number;
  /** Login tries per address and account (a successful login clears them). */
  loginPerIpAccount: number;
  /** Login attempts per account from addresses not known to it, before each must wait a delay. */
  loginAccountAttemptsBeforeDelay: number;
  /** The first such delay; each further attempt doubles it. */
  loginAccountDelayBaseMs: number;
  /** The longest such delay. */
  loginAccountDelayMaxMs: number;
  /** An address that signed in to an account is spared the account's delay this long. */
  loginKnownAddressMs: number;
  /** Forgot-password requests per address. */
  forgotPerIp: number;
  /** Forgot-password requests per (valid) email. */
  forgotPerEmail: number;
  /** Sign-up attempts per address. */
  registerPerIp: number;
  /** Waiting-list sign-ups per address. */
  waitingListPerIp: number;
  /** Feedback messages per user. */
  feedbackPerUser: number;
  /** Password checks per user when deleting the account. */
  deletePasswordChecksPerUser: number;
  /** AI helper suggestion requests per user per hour (not per `windowMs`). */
  aiSuggestionsPerUserPerHour: number;
  /** Verification mails (sent again, or for a changed address) per user. */
  verifyMailPerUser: number;
}

/** The rate-limit settings, with their defaults. */
export function readRateLimits(env: Env): RateLimitConfig {
  const seconds = (name: string, fallback: number) => readInt(env, name, fallback, 1) * 1000;
  return {
    windowMs: seconds('RATE_LIMIT_WINDOW_SECONDS', 15 * 60),
    loginPerIp: readInt(env, 'LOGIN_LIMIT_PER_IP', 30, 1),
    loginPerIpAccount: readInt(env, 'LOGIN_LIMIT_PER_IP_ACCOUNT', 5, 1),
    // LOGIN_LIMIT_PER_EMAIL, the per-account limit before it became a slow-down, still counts.
    loginAccountAttemptsBeforeDelay: readInt(
      env,
      'LOGIN_ACCOUNT_ATTEMPTS_BEFORE_DELAY',
      readInt(env, 'LOGIN_LIMIT_PER_EMAIL', 10, 1),
      1,
    ),
    loginAccountDelayBaseMs: seconds('LOGIN_ACCOUNT_DELAY_BASE_SECONDS', 1),
    loginAccountDelayMaxMs: seconds('LOGIN_ACCOUNT_DELAY_MAX_SECONDS', 5 * 60),
    loginKnownAddressMs: readInt(env, 'LOGIN_KNOWN_ADDRESS_DAYS', 30, 1) * 24 * 60 * 60 * 1000,
    forgotPerIp: readInt(env, 'FORGOT_LIMIT_PER_IP', 10, 1),
    forgotPerEmail: readInt(env, 'FORGOT_LIMIT_PER_EMAIL', 5, 1),
    registerPerIp: readInt(env, 'REGISTER_LIMIT_PER_IP', 10, 1),
    waitingListPerIp: readInt(env, 'WAITING_LIST_LIMIT_PER_IP', 10, 1),
    feedbackPerUser: readInt(env, 'FEEDBACK_LIMIT_PER_USER', 10, 1),
    deletePasswordChecksPerUser: readInt(env, 'DELETE_ACCOUNT_CHECKS_PER_USER', 5, 1),
    aiSuggestionsPerUserPerHour: readInt(env, 'AI_SUGGESTIONS_PER_USER_PER_HOUR', 30, 1),
    verifyMailPerUser: readInt(env, 'VERIFY_MAIL_LIMIT_PER_USER', 5, 1),
  };
}

/**
 * The Google account link and Sheets client (issue 15); present only when both GOOGLE_CLIENT_ID
 * and GOOGLE_CLIENT_SECRET are set. The URLs default to Google's (GOOGLE_DEFAULT_URLS).
 */
export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** Base of the Sheets API: the client calls `${sheetsUrl}/v4/spreadsheets/...`. */
  sheetsUrl: string;
  /** First wait before a 429 or 5xx answer is retried (GOOGLE_RETRY_BASE_MS). */
  retryBaseMs: number;
}

/** The AI helper's model (issue 18): an OpenAI-compatible Chat Completions endpoint. */
export interface AiModelConfig {
  /** AI_BASE_URL, e.g. https://api.openai.com/v1 (the client posts to `${baseUrl}/chat/completions`). */
  baseUrl: string;
  /** AI_API_KEY: sent to the model only, never to a browser or the log. */
  apiKey: string;
  /** AI_MODEL, e.g. gpt-4.1-mini. */
  model: string;
}

/** The AI helper's settings. */
export interface AiConfig {
  /** Undefined unless AI_BASE_URL, AI_API_KEY and AI_MODEL are all set. */
  model: AiModelConfig | undefined;
  /**
   * AI_HELPER_EMAIL_DOMAIN, lower case without '@': users whose email ends with `@<domain>` get
   * the helper. Undefined: nobody does.
   */
  helperEmailDomain: string | undefined;
  /** The whole answer must have arrived within this time (AI_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Most tokens the model may write per answer (AI_MAX_TOKENS). */
  maxTokens: number;
}

/** The XML product feed tools (issue 17): who has them, and the limits of fetching a shop's feed. */
export interface XmlFeedsConfig {
  /** A user whose email holds this (any case) has the XML tools (XML_TOOLS_EMAIL_MARKER); unset: nobody. */
  emailMarker: string | undefined;
  /** Cap on a feed's decoded bytes (XML_FETCH_MAX_BYTES). */
  maxBytes: number;
  /** Time a feed's server has to accept the connection (XML_FETCH_CONNECT_TIMEOUT_SECONDS). */
  connectTimeoutMs: number;
  /** Time the whole fetch may take, redirects, headers and body (XML_FETCH_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Fetches one user may have running at once (XML_FETCHES_PER_USER). */
  fetchesPerUser: number;
  /** Loopback addresses may be fetched: FETCH_ALLOW_LOOPBACK=true, honoured only when NODE_ENV=test. */
  allowLoopback: boolean;
  /** FETCH_ALLOW_LOOPBACK=true was set outside NODE_ENV=test, and ignored (the server warns). */
  isLoopbackSettingIgnored: boolean;
}

/** The XML feed settings, with their defaults. */
export function readXmlFeeds(env: Env): XmlFeedsConfig {
  const asksLoopback = env.FETCH_ALLOW_LOOPBACK?.trim() === 'true';
  const isTest = env.NODE_ENV === 'test';
  return {
    emailMarker: readText(env, 'XML_TOOLS_EMAIL_MARKER')?.toLowerCase(),
    maxBytes: readInt(env, 'XML_FETCH_MAX_BYTES', DEFAULT_XML_FETCH_MAX_BYTES, 1024),
    connectTimeoutMs:
      readInt(
        env,
        'XML_FETCH_CONNECT_TIMEOUT_SECONDS',
        DEFAULT_XML_FETCH_CONNECT_TIMEOUT_SECONDS,
        1,
      ) * 1000,
    timeoutMs:
      readInt(env, 'XML_FETCH_TIMEOUT_SECONDS', DEFAULT_XML_FETCH_TIMEOUT_SECONDS, 1) * 1000,
    fetchesPerUser: readInt(env, 'XML_FETCHES_PER_USER', DEFAULT_XML_FETCHES_PER_USER, 1),
    allowLoopback: asksLoopback && isTest,
    isLoopbackSettingIgnored: asksLoopback && !isTest,
  };
}

/** The account loop's build history (issue 35). */
export interface BuildsConfig {
  /** Builds kept per client; storing one more deletes the oldest (BUILD_HISTORY_PER_CLIENT). */
  historyPerClient: number;
  /** Largest gzip'd build record accepted, else 413 (BUILD_RECORD_MAX_BYTES). */
  recordMaxBytes: number;
}

/** The build history settings, with their defaults. */
export function readBuilds(env: Env): BuildsConfig {
  const historyPerClient = readInt(
    env,
    'BUILD_HISTORY_PER_CLIENT',
    DEFAULT_BUILD_HISTORY_PER_CLIENT,
    1,
  );
  if (historyPerClient > BUILD_HISTORY_PER_CLIENT_MAX)
    throw new ConfigError(
      `BUILD_HISTORY_PER_CLIENT must be at most ${BUILD_HISTORY_PER_CLIENT_MAX} (got ${historyPerClient})`,
    );
  return {
    historyPerClient,
    recordMaxBytes: readInt(env, 'BUILD_RECORD_MAX_BYTES', DEFAULT_BUILD_RECORD_MAX_BYTES, 1024),
  };
}

/** Everything the server reads from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  /** Where the secret came from: the environment, or a random one kept in DATA_DIR (not in production). */
  jwtSecretSource: 'env' | 'data-dir' | 'given';
  sessionTtlSeconds: number;
  resetTokenTtlSeconds: number;
  /** How long an address verification link works (EMAIL_VERIFICATION_TTL_HOURS). */
  emailVerificationTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  isProduction: boolean;
  /** Body limit of the feed, list and template saves (BODY_LIMIT_BYTES). */
  bodyLimitBytes: number;
  /** Body limit of every other call (SMALL_BODY_LIMIT_BYTES, at most bodyLimitBytes). */
  smallBodyLimitBytes: number;
  /** A body that sends nothing for this long is answered 408 (BODY_IDLE_TIMEOUT_SECONDS). */
  bodyIdleTimeoutMs: number;
  /** Large saves (1 MiB or more) the server runs at once, one per user (LARGE_SAVES_AT_ONCE). */
  largeSavesAtOnce: number;
  /**
   * Worker threads that parse and prepare feed and list saves off the event loop (SAVE_WORKERS);
   * 0: on the event loop, as before the worker threads.
   */
  saveWorkers: number;
  /** A request must have arrived whole within this time, else 408 (REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
  /** On SIGTERM, requests in flight get this long to finish before the process exits (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  webDist: string;
  trustProxy: boolean;
  logLevel: string;
  recaptchaVerifyUrl: string | undefined;
  recaptchaSecret: string | undefined;
  /** reCAPTCHA v3 answers a score; below this the check fails. */
  recaptchaMinScore: number;
  /** The site key the web app passes to `grecaptcha.execute` (required when the check is on). */
  recaptchaSiteKey: string | undefined;
  /** The widget script the web app loads; defaults to Google's v3 api.js for the site key. */
  recaptchaScriptUrl: string | undefined;
  rateLimit: RateLimitConfig;
  /** Undefined when Google Sheets is not set up on this server. */
  google: GoogleConfig | undefined;
  /**
   * The secret the refresh tokens' AES-256 key is derived from (TOKEN_ENCRYPTION_KEY; outside
   * production a random one kept in DATA_DIR). Empty when Google is not configured and it is not set.
   */
  tokenEncryptionKey: string;
  /** The AI helper. */
  ai: AiConfig;
  xmlFeeds: XmlFeedsConfig;
  builds: BuildsConfig;
  /**
   * Google's geo targets CSV or zip (a path, or an http(s) address): loaded at start when no
   * release is loaded or its release date is newer (GEO_TARGETS_FILE). Undefined when not set.
   */
  geoTargetsFile: string | undefined;
  /**
   * The frames the web app may show (HELP_VIDEO_URLS, LANDING_VIDEO_URL, DEMO_BOOKING_URL); the
   * Content-Security-Policy allows exactly their origins.
   */
  media: MediaSettings;
  /**
   * Google Tag Manager (GTM_ID, GTM_SCRIPT_URL): off unless GTM_ID is set; the web app loads it
   * only after the person accepts the consent banner.
   */
  tagManager: TagManagerSettings;
  /**
   * The operators' addresses (ADMIN_EMAILS), trimmed and in lower case like the users' emails: a
   * signed-in user with one of them, verified, has the Admin page. Empty: nobody has.
   */
  adminEmails: readonly string[];
}

/** A setting that makes the server refuse to start. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name} must be a whole number of at least ${min} (got "${raw}")`);
  return value;
}

function readText(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

function readScore(env: Env, name: string, fallback: number): number {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new ConfigError(`${name} must be a number from 0 to 1 (got "${raw}")`);
  return value;
}

/** The built web app folder: apps/web/dist next to this workspace. */
export function defaultWebDist(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
}

/** Why the secret setting `name` is unacceptable in production, or undefined when it is fine. */
function findSecretProblem(name: string, secret: string | undefined): string | undefined {
  if (!secret) return `${name} is not set`;
  if (secret.length < JWT_SECRET_MIN_CHARS)
    return `${name} is shorter than ${JWT_SECRET_MIN_CHARS} characters`;
  if (KNOWN_DEFAULT_SECRETS.has(secret.toLowerCase()))
    return `${name} is a well-known default value`;
  if (new Set(secret).size < 8) return `${name} is too repetitive`;
  return undefined;
}

/** Why a secret is unacceptable in production, or undefined when it is fine. */
export function findJwtSecretProblem(secret: string | undefined): string | undefined {
  return findSecretProblem('JWT_SECRET', secret);
}

/** DATA_DIR files of the secrets a server makes when JWT_SECRET or TOKEN_ENCRYPTION_KEY is not set. */
export const JWT_SECRET_FILE = 'jwt-secret';
export const TOKEN_KEY_FILE = 'token-key';

/**
 * Outside production, a random secret kept in DATA_DIR so that restarts keep sessions valid
 * without anyone having to invent a secret.
 */
export function readOrCreateDevJwtSecret(dataDir: string): string {
  return readOrCreateDevSecret(join(dataDir, JWT_SECRET_FILE));
}

/** The secret kept in `file`, or a new random one written there (0600). */
function readOrCreateDevSecret(file: string): string {
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= JWT_SECRET_MIN_CHARS) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** Google's reCAPTCHA v3 widget script for a site key. */
export function defaultRecaptchaScriptUrl(siteKey: string): string {
  return `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
}

/** The bot-check settings; the check is on when both the verify URL and the secret are set. */
function readBotCheck(
  env: Env,
): Pick<
  Config,
  'recaptchaVerifyUrl' | 'recaptchaSecret' | 'recaptchaSiteKey' | 'recaptchaScriptUrl'
> {
  const recaptchaVerifyUrl = readText(env, 'RECAPTCHA_VERIFY_URL');
  const recaptchaSecret = readText(env, 'RECAPTCHA_SECRET');
  const recaptchaSiteKey = readText(env, 'RECAPTCHA_SITE_KEY');
  const rawScriptUrl = readText(env, 'RECAPTCHA_SCRIPT_URL');
  if (rawScriptUrl !== undefined && !/^https?:\/\/[^/]/i.test(rawScriptUrl))
    throw new ConfigError(`RECAPTCHA_SCRIPT_URL must be an http(s) URL (got "${rawScriptUrl}")`);
  if (recaptchaVerifyUrl && recaptchaSecret && !recaptchaSiteKey) {
    throw new ConfigError(
      'RECAPTCHA_SITE_KEY is not set: with RECAPTCHA_VERIFY_URL and RECAPTCHA_SECRET set every sign-up needs a bot-check token, and the web app needs the site key to get one.',
    );
  }
  return {
    recaptchaVerifyUrl,
    recaptchaSecret,
    recaptchaSiteKey,
    recaptchaScriptUrl:
      rawScriptUrl ?? (recaptchaSiteKey ? defaultRecaptchaScriptUrl(recaptchaSiteKey) : undefined),
  };
}

function readHttpUrl(env: Env, name: string, fallback: string): string {
  const raw = readText(env, name);
  if (raw === undefined) return fallback;
  if (!/^https?:\/\/[^/]/i.test(raw))
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  return raw.replace(/\/+$/, '');
}

/** The Google settings: undefined unless both the client id and secret are set. */
function readGoogle(env: Env): GoogleConfig | undefined {
  const clientId = readText(env, 'GOOGLE_CLIENT_ID');
  const clientSecret = readText(env, 'GOOGLE_CLIENT_SECRET');
  const urls = {
    authUrl: readHttpUrl(env, 'GOOGLE_AUTH_URL', GOOGLE_DEFAULT_URLS.authUrl),
    tokenUrl: readHttpUrl(env, 'GOOGLE_TOKEN_URL', GOOGLE_DEFAULT_URLS.tokenUrl),
    revokeUrl: readHttpUrl(env, 'GOOGLE_REVOKE_URL', GOOGLE_DEFAULT_URLS.revokeUrl),
    sheetsUrl: readHttpUrl(env, 'GOOGLE_SHEETS_URL', GOOGLE_DEFAULT_URLS.sheetsUrl),
  };
  const retryBaseMs = readInt(env, 'GOOGLE_RETRY_BASE_MS', DEFAULT_GOOGLE_RETRY_BASE_MS, 0);
  if (!clientId || !clientSecret) return undefined;
  return { clientId, clientSecret, ...urls, retryBaseMs };
}

/** The AI helper's settings: the model only when all of AI_BASE_URL, AI_API_KEY and AI_MODEL are set. */
function readAi(env: Env): AiConfig {
  const baseUrl = readText(env, 'AI_BASE_URL');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(baseUrl))
    throw new ConfigError(`AI_BASE_URL must be an http(s) URL (got "${baseUrl}")`);
  const apiKey = readText(env, 'AI_API_KEY');
  const model = readText(env, 'AI_MODEL');
  const domain = readText(env, 'AI_HELPER_EMAIL_DOMAIN')?.replace(/^@/, '').toLowerCase();
  if (domain !== undefined && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))
    throw new ConfigError(
      `AI_HELPER_EMAIL_DOMAIN must be an email domain such as example.com (got "${domain}")`,
    );
  return {
    model:
      baseUrl && apiKey && model
        ? { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, model }
        : undefined,
    helperEmailDomain: domain,
    timeoutMs: readInt(env, 'AI_TIMEOUT_SECONDS', DEFAULT_AI_TIMEOUT_SECONDS, 1) * 1000,
    maxTokens: readInt(env, 'AI_MAX_TOKENS', DEFAULT_AI_MAX_TOKENS, 1),
  };
}

/**
 * TOKEN_ENCRYPTION_KEY: at least TOKEN_KEY_MIN_CHARS wherever it is set; required in production
 * when Google is configured; outside production a random one kept in DATA_DIR/token-key (like
 * the JWT secret), created only once Google is configured.
 */
function readTokenEncryptionKey(
  env: Env,
  options: { isProduction: boolean; isGoogleConfigured: boolean; dataDir: string },
): string {
  const key = env.TOKEN_ENCRYPTION_KEY?.trim() ?? '';
  if (key && key.length < TOKEN_KEY_MIN_CHARS)
    throw new ConfigError(
      `TOKEN_ENCRYPTION_KEY is shorter than ${TOKEN_KEY_MIN_CHARS} characters. Set it to a long random value (for example: openssl rand -base64 48).`,
    );
  if (!options.isGoogleConfigured) return key;
  if (options.isProduction) {
    const problem = findSecretProblem('TOKEN_ENCRYPTION_KEY', key);
    if (problem)
      throw new ConfigError(
        `${problem}. With GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET set in production, TOKEN_ENCRYPTION_KEY must hold a long random value that encrypts the stored Google tokens (for example: openssl rand -base64 48).`,
      );
    return key;
  }
  return key || readOrCreateDevSecret(join(options.dataDir, TOKEN_KEY_FILE));
}

/** GEO_TARGETS_FILE: an http(s) address as it is, a path resolved from where the command was typed. */
function readGeoTargetsFile(env: Env, baseDir: string): string | undefined {
  const raw = readText(env, 'GEO_TARGETS_FILE');
  if (raw === undefined) return undefined;
  return /^https?:\/\//i.test(raw) ? raw : resolve(baseDir, raw);
}

/** Hosts of YouTube's ordinary player and share links, whose videos are framed without cookies. */
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be']);
/** YouTube's privacy-enhanced player: no cookies until the visitor plays the video. */
const PRIVACY_ENHANCED_PLAYER_ORIGIN = 'https://www.youtube-nocookie.com';

/**
 * The address of a frame setting: an http(s) URL. A YouTube address (watch page, share link
 * or embed) becomes the privacy-enhanced player's embed address of the same video, with
 * `playerParams` (e.g. autoplay); any other address is framed as it is.
 */
function readFrameUrl(
  name: string,
  raw: string,
  playerParams: Record<string, string> = {},
): string {
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new ConfigError(`${name} must be an http(s) URL (got "${raw}")`);
  const isYouTube = YOUTUBE_HOSTS.has(url.hostname);
  if (!isYouTube && url.origin !== PRIVACY_ENHANCED_PLAYER_ORIGIN) return url.href;
  const videoId = isYouTube
    ? url.hostname === 'youtu.be'
      ? url.pathname.slice(1)
      : (url.searchParams.get('v') ?? url.pathname.match(/^\/(?:embed|shorts)\/([^/]+)/)?.[1])
    : url.pathname.match(/^\/embed\/([^/]+)/)?.[1];
  if (!videoId || !/^[\w-]+$/.test(videoId))
    throw new ConfigError(`${name} is a YouTube address without a video id (got "${raw}")`);
  const player = new URL(`${PRIVACY_ENHANCED_PLAYER_ORIGIN}/embed/${videoId}`);
  for (const [key, value] of Object.entries(playerParams)) player.searchParams.set(key, value);
  return player.href;
}

function isGuideId(id: string): id is GuideId {
  return (GUIDE_IDS as readonly string[]).includes(id);
}

/** Google's container script, loaded as `<GTM_SCRIPT_URL>?id=<GTM_ID>`. */
export const DEFAULT_GTM_SCRIPT_URL = 'https://www.googletagmanager.com/gtm.js';

/** GTM_ID (a container id, `GTM-` and 4 to 12 letters or digits) and GTM_SCRIPT_URL. */
function readTagManager(env: Env): TagManagerSettings {
  const id = readText(env, 'GTM_ID');
  const rawScriptUrl = readText(env, 'GTM_SCRIPT_URL');
  if (id === undefined) {
    if (rawScriptUrl !== undefined)
      throw new ConfigError('GTM_SCRIPT_URL is set but GTM_ID is not: set both, or neither.');
    return { enabled: false };
  }
  if (!/^GTM-[A-Z0-9]{4,12}$/.test(id))
    throw new ConfigError(`GTM_ID must be a container id such as GTM-ABC1234 (got "${id}")`);
  const scriptUrl = URL.parse(rawScriptUrl ?? DEFAULT_GTM_SCRIPT_URL);
  if (!scriptUrl || (scriptUrl.protocol !== 'https:' && scriptUrl.protocol !== 'http:'))
    throw new ConfigError(`GTM_SCRIPT_URL must be an http(s) URL (got "${rawScriptUrl}")`);
  return { enabled: true, id, scriptUrl: scriptUrl.href };
}

/** HELP_VIDEO_URLS: a JSON object from guide id to player address; empty addresses are skipped. */
function readHelpVideoUrls(env: Env): MediaSettings['helpVideoUrls'] {
  const raw = readText(env, 'HELP_VIDEO_URLS');
  if (raw === undefined) return {};
  const example = `a JSON object such as {"intro":"https://www.youtube-nocookie.com/embed/VIDEO_ID"}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConfigError(`HELP_VIDEO_URLS must be ${example} (got "${raw}")`);
  const urls: MediaSettings['helpVideoUrls'] = {};
  for (const [id, url] of Object.entries(parsed)) {
    if (!isGuideId(id))
      throw new ConfigError(
        `HELP_VIDEO_URLS names "${id}", which is not a guide (the guides: ${GUIDE_IDS.join(', ')})`,
      );
    if (typeof url !== 'string')
      throw new ConfigError(`HELP_VIDEO_URLS.${id} must be a text address (got ${String(url)})`);
    if (url.trim() !== '')
      urls[id] = readFrameUrl(`HELP_VIDEO_URLS.${id}`, url.trim(), { autoplay: '1' });
  }
  return urls;
}

/** The frames the web app may show: help videos, the landing page's intro video, demo booking. */
function readMedia(env: Env): MediaSettings {
  const landing = readText(env, 'LANDING_VIDEO_URL');
  const booking = readText(env, 'DEMO_BOOKING_URL');
  return {
    helpVideoUrls: readHelpVideoUrls(env),
    // The landing page's intro video plays muted on its own (spec section 2).
    landingVideoUrl: landing
      ? readFrameUrl('LANDING_VIDEO_URL', landing, { autoplay: '1', mute: '1' })
      : null,
    demoBookingUrl: booking ? readFrameUrl('DEMO_BOOKING_URL', booking) : null,
  };
}

/** ADMIN_EMAILS: comma-separated addresses, each normalised as a user's email is. */
export function readAdminEmails(env: Env): string[] {
  const raw = readText(env, 'ADMIN_EMAILS');
  if (raw === undefined) return [];
  const emails = raw
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  for (const email of emails)
    if (!EMAIL_PATTERN.test(email))
      throw new ConfigError(
        `ADMIN_EMAILS must be email addresses separated by commas; "${email}" is not one`,
      );
  return [...new Set(emails)];
}

/** Body limits and the timeouts of reading a request. */
function readBodyLimits(
  env: Env,
): Pick<
  Config,
  | 'bodyLimitBytes'
  | 'smallBodyLimitBytes'
  | 'bodyIdleTimeoutMs'
  | 'requestTimeoutMs'
  | 'largeSavesAtOnce'
  | 'saveWorkers'
> {
  const largeSavesAtOnce = readInt(env, 'LARGE_SAVES_AT_ONCE', defaultLargeSavesAtOnce(), 1);
  if (largeSavesAtOnce > LARGE_SAVES_AT_ONCE_MAX)
    throw new ConfigError(
      `LARGE_SAVES_AT_ONCE must be at most ${LARGE_SAVES_AT_ONCE_MAX} (got ${largeSavesAtOnce}): each large save holds one of the ${DB_POOL_SIZE} database connections, and two stay for everyone else.`,
    );
  const bodyLimitBytes = readInt(env, 'BODY_LIMIT_BYTES', DEFAULT_BODY_LIMIT_BYTES, 1024);
  return {
    bodyLimitBytes,
    smallBodyLimitBytes: Math.min(
      bodyLimitBytes,
      readInt(env, 'SMALL_BODY_LIMIT_BYTES', DEFAULT_SMALL_BODY_LIMIT_BYTES, 1024),
    ),
    bodyIdleTimeoutMs:
      readInt(env, 'BODY_IDLE_TIMEOUT_SECONDS', DEFAULT_BODY_IDLE_TIMEOUT_SECONDS, 1) * 1000,
    requestTimeoutMs:
      readInt(env, 'REQUEST_TIMEOUT_SECONDS', DEFAULT_REQUEST_TIMEOUT_SECONDS, 1) * 1000,
    largeSavesAtOnce,
    saveWorkers: readSaveWorkers(env),
  };
}

function readSaveWorkers(env: Env): number {
  const saveWorkers = readInt(env, 'SAVE_WORKERS', defaultSaveWorkers(), 0);
  if (saveWorkers > SAVE_WORKERS_MAX)
    throw new ConfigError(`SAVE_WORKERS must be at most ${SAVE_WORKERS_MAX} (got ${saveWorkers}).`);
  return saveWorkers;
}

/**
 * Settings production cannot do without: without SMTP_URL reset links would have nowhere to go
 * but the disk, and without APP_URL they would point at localhost.
 */
export const PRODUCTION_REQUIRED_SETTINGS = ['SMTP_URL', 'APP_URL'] as const;

function describeMissingProductionSettings(missing: readonly string[]): string {
  const why: Record<string, string> = {
    SMTP_URL:
      'SMTP_URL is not set: password-reset mails cannot be sent (e.g. smtp://user:pass@mail.example.com:587)',
    APP_URL:
      'APP_URL is not set: mailed links need the address people open Adloom at (e.g. https://adloom.example.com)',
  };
  return `${missing.map((name) => why[name] ?? `${name} is not set`).join('; ')}. Both are required when NODE_ENV=production.`;
}

/** Reads the configuration; throws ConfigError for a setting the server must not start with. */
export function loadConfig(env: Env = process.env): Config {
  const isProduction = env.NODE_ENV === 'production';
  const port = readInt(env, 'PORT', 3000);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535 (got ${port})`);
  // Relative paths count from where the command was typed: npm runs workspace scripts inside
  // apps/server but passes the original folder as INIT_CWD, so `npm start` at the root uses ./data there.
  const baseDir = readText(env, 'INIT_CWD') ?? process.cwd();
  const dataDir = resolve(baseDir, readText(env, 'DATA_DIR') ?? './data');

  let jwtSecret = env.JWT_SECRET ?? '';
  let jwtSecretSource: Config['jwtSecretSource'] = 'env';
  if (isProduction) {
    const problem = findJwtSecretProblem(jwtSecret);
    if (problem) {
      throw new ConfigError(
        `${problem}. In production set JWT_SECRET to a long random value (for example: openssl rand -base64 48).`,
      );
    }
    const missing = PRODUCTION_REQUIRED_SETTINGS.filter((name) => !readText(env, name));
    if (missing.length > 0) throw new ConfigError(describeMissingProductionSettings(missing));
    const appUrl = readText(env, 'APP_URL') ?? '';
    if (!/^https?:\/\/[^/]/i.test(appUrl))
      throw new ConfigError(`APP_URL must be an http(s) URL (got "${appUrl}")`);
  } else if (!jwtSecret) {
    jwtSecret = readOrCreateDevJwtSecret(dataDir);
    jwtSecretSource = 'data-dir';
  }

  const host = readText(env, 'HOST') ?? 'localhost';
  const google = readGoogle(env);
  return {
    port,
    host,
    dataDir,
    databaseUrl: readText(env, 'DATABASE_URL'),
    jwtSecret,
    jwtSecretSource,
    sessionTtlSeconds: readInt(env, 'SESSION_TTL_SECONDS', DEFAULT_SESSION_TTL_SECONDS, 60),
    resetTokenTtlSeconds: RESET_TOKEN_TTL_SECONDS,
    emailVerificationTtlSeconds:
      readInt(env, 'EMAIL_VERIFICATION_TTL_HOURS', DEFAULT_EMAIL_VERIFICATION_TTL_HOURS, 1) *
      60 *
      60,
    smtpUrl: readText(env, 'SMTP_URL'),
    mailFrom: readText(env, 'MAIL_FROM') ?? 'Adloom <no-reply@localhost>',
    appUrl: (readText(env, 'APP_URL') ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    isProduction,
    ...readBodyLimits(env),
    shutdownGraceMs:
      readInt(env, 'SHUTDOWN_GRACE_SECONDS', DEFAULT_SHUTDOWN_GRACE_SECONDS, 1) * 1000,
    webDist: resolve(baseDir, readText(env, 'WEB_DIST') ?? defaultWebDist()),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    logLevel: readText(env, 'LOG_LEVEL') ?? 'info',
    ...readBotCheck(env),
    recaptchaMinScore: readScore(env, 'RECAPTCHA_MIN_SCORE', 0.5),
    rateLimit: readRateLimits(env),
    google,
    tokenEncryptionKey: readTokenEncryptionKey(env, {
      isProduction,
      isGoogleConfigured: google !== undefined,
      dataDir,
    }),
    ai: readAi(env),
    xmlFeeds: readXmlFeeds(env),
    builds: readBuilds(env),
    geoTargetsFile: readGeoTargetsFile(env, baseDir),
    media: readMedia(env),
    tagManager: readTagManager(env),
    adminEmails: readAdminEmails(env),
  };
}
