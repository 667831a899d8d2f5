import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_AI_MAX_TOKENS,
  DEFAULT_AI_TIMEOUT_SECONDS,
  DEFAULT_BODY_LIMIT_BYTES,
  GOOGLE_DEFAULT_URLS,
  defaultLargeSavesAtOnce,
  defaultSaveWorkers,
  findJwtSecretProblem,
  loadConfig,
} from './config.ts';

const STRONG_SECRET = 'k3J9x-Qw7zP2m_Lr5Tn8Vb1Yc4Hd6Fg0Se';
const STRONG_TOKEN_KEY = 'Zt4-Wq9rLm2xVb7nKc5pHs8dJf3gYe6aQu1';
const GOOGLE_CLIENT = { GOOGLE_CLIENT_ID: 'client-id', GOOGLE_CLIENT_SECRET: 'client-secret' };

describe('loadConfig', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'adloom-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('has the documented defaults', () => {
    const dataDir = scratch();
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: STRONG_SECRET });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
      appUrl: 'http://localhost:3000',
      isProduction: false,
      bodyLimitBytes: DEFAULT_BODY_LIMIT_BYTES,
      sessionTtlSeconds: 604_800,
      resetTokenTtlSeconds: 3600,
      emailVerificationTtlSeconds: 86_400,
      recaptchaVerifyUrl: undefined,
      recaptchaSiteKey: undefined,
      recaptchaScriptUrl: undefined,
      geoTargetsFile: undefined,
      rateLimit: {
        windowMs: 900_000,
        loginPerIp: 30,
        loginPerIpAccount: 5,
        loginAccountAttemptsBeforeDelay: 10,
        loginAccountDelayBaseMs: 1_000,
        loginAccountDelayMaxMs: 300_000,
        loginKnownAddressMs: 30 * 24 * 60 * 60 * 1000,
        forgotPerIp: 10,
        forgotPerEmail: 5,
        registerPerIp: 10,
        waitingListPerIp: 10,
        feedbackPerUser: 10,
        deletePasswordChecksPerUser: 5,
        verifyMailPerUser: 5,
      },
    });
    expect(config.webDist).toMatch(/apps\/web\/dist$/);
    expect(DEFAULT_BODY_LIMIT_BYTES).toBe(64 * 1024 * 1024);
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: scratch(),
      DATABASE_URL: 'postgres://u:p@db/adloom',
      JWT_SECRET: STRONG_SECRET,
      SMTP_URL: 'smtp://mail:25',
      APP_URL: 'https://adloom.example.com/',
      BODY_LIMIT_BYTES: '1048576',
      LOGIN_LIMIT_PER_EMAIL: '4',
      RATE_LIMIT_WINDOW_SECONDS: '60',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db/adloom',
      smtpUrl: 'smtp://mail:25',
      appUrl: 'https://adloom.example.com',
      bodyLimitBytes: 1_048_576,
      jwtSecretSource: 'env',
    });
    // LOGIN_LIMIT_PER_EMAIL, the per-account limit before it became a slow-down, still counts.
    expect(config.rateLimit).toMatchObject({
      loginAccountAttemptsBeforeDelay: 4,
      windowMs: 60_000,
    });
    expect(
      loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        LOGIN_LIMIT_PER_EMAIL: '4',
        LOGIN_ACCOUNT_ATTEMPTS_BEFORE_DELAY: '7',
        LOGIN_LIMIT_PER_IP_ACCOUNT: '2',
        LOGIN_ACCOUNT_DELAY_MAX_SECONDS: '60',
        REGISTER_LIMIT_PER_IP: '3',
      }).rateLimit,
    ).toMatchObject({
      loginAccountAttemptsBeforeDelay: 7,
      loginPerIpAccount: 2,
      loginAccountDelayMaxMs: 60_000,
      registerPerIp: 3,
    });
  });

  it('reads the bot check: the site key and the widget script, Google v3 api.js by default', () => {
    const env = {
      DATA_DIR: scratch(),
      JWT_SECRET: STRONG_SECRET,
      RECAPTCHA_VERIFY_URL: 'https://www.google.com/recaptcha/api/siteverify',
      RECAPTCHA_SECRET: 'server-secret',
      RECAPTCHA_SITE_KEY: 'site key/1',
    };
    expect(loadConfig(env)).toMatchObject({
      recaptchaSiteKey: 'site key/1',
      recaptchaScriptUrl: 'https://www.google.com/recaptcha/api.js?render=site%20key%2F1',
    });
    expect(
      loadConfig({ ...env, RECAPTCHA_SCRIPT_URL: 'https://captcha.example.com/api.js?render=k' })
        .recaptchaScriptUrl,
    ).toBe('https://captcha.example.com/api.js?render=k');
  });

  it('refuses to start with the bot check on but no site key, a script that is not a URL or a bad score', () => {
    const env = {
      DATA_DIR: scratch(),
      JWT_SECRET: STRONG_SECRET,
      RECAPTCHA_VERIFY_URL: 'https://www.google.com/recaptcha/api/siteverify',
      RECAPTCHA_SECRET: 'server-secret',
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/RECAPTCHA_SITE_KEY is not set/);
    expect(() =>
      loadConfig({ ...env, RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SCRIPT_URL: 'javascript:alert(1)' }),
    ).toThrow(/RECAPTCHA_SCRIPT_URL must be an http\(s\) URL/);
    expect(() =>
      loadConfig({ ...env, RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_MIN_SCORE: 'high' }),
    ).toThrow(/RECAPTCHA_MIN_SCORE must be a number from 0 to 1/);
    expect(
      loadConfig({ ...env, RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_MIN_SCORE: '0.7' }).recaptchaMinScore,
    ).toBe(0.7);
    // A site key alone turns nothing on: the server checks no token.
    expect(
      loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET, RECAPTCHA_SITE_KEY: 'k' }),
    ).toMatchObject({ recaptchaVerifyUrl: undefined, recaptchaSiteKey: 'k' });
  });

  it('resolves a relative DATA_DIR from the folder npm was started in (INIT_CWD)', () => {
    const root = scratch();
    const config = loadConfig({
      INIT_CWD: root,
      DATA_DIR: 'data',
      JWT_SECRET: STRONG_SECRET,
      WEB_DIST: 'apps/web/dist',
    });
    expect(config.dataDir).toBe(join(root, 'data'));
    expect(config.webDist).toBe(join(root, 'apps/web/dist'));
    expect(loadConfig({ INIT_CWD: root, JWT_SECRET: STRONG_SECRET }).dataDir).toBe(
      join(root, 'data'),
    );
  });

  it('reads GEO_TARGETS_FILE: a path from the folder npm was started in, an address as it is', () => {
    const root = scratch();
    const read = (value: string) =>
      loadConfig({ INIT_CWD: root, JWT_SECRET: STRONG_SECRET, GEO_TARGETS_FILE: value })
        .geoTargetsFile;
    expect(read('geo/geotargets-2026-10-06.csv.zip')).toBe(
      join(root, 'geo/geotargets-2026-10-06.csv.zip'),
    );
    expect(read('/srv/geotargets.csv')).toBe('/srv/geotargets.csv');
    const url =
      'https://developers.google.com/static/google-ads/api/data/geo/geotargets-2026-10-06.csv.zip';
    expect(read(url)).toBe(url);
    expect(read('  ')).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['BODY_LIMIT_BYTES', '-1'],
    ['LOGIN_LIMIT_PER_IP', '0'],
    ['LOGIN_LIMIT_PER_IP_ACCOUNT', '0'],
    ['LARGE_SAVES_AT_ONCE', '0'],
    ['LARGE_SAVES_AT_ONCE', '1.5'],
  ])('refuses %s=%s', (name, value) => {
    expect(() =>
      loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET, [name]: value }),
    ).toThrow(ConfigError);
  });

  it('LARGE_SAVES_AT_ONCE: from the memory by default, as set, at most 8 (two connections kept free)', () => {
    const read = (value?: string) =>
      loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        ...(value === undefined ? {} : { LARGE_SAVES_AT_ONCE: value }),
      }).largeSavesAtOnce;
    expect(read()).toBe(defaultLargeSavesAtOnce());
    expect(read('6')).toBe(6);
    expect(() => read('9')).toThrow(
      'LARGE_SAVES_AT_ONCE must be at most 8 (got 9): each large save holds one of the 10 database connections, and two stay for everyone else.',
    );
    const GiB = 1024 ** 3;
    // A quarter of the memory at 512 MiB a save, 1 to 4.
    expect([1, 2, 4, 8, 16, 64].map((gib) => defaultLargeSavesAtOnce(gib * GiB))).toEqual([
      1, 1, 2, 4, 4, 4,
    ]);
  });

  it('SAVE_WORKERS: the cores but one by default (1 to 8), as set from 0 (the event loop) to 16', () => {
    const read = (value?: string) =>
      loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        ...(value === undefined ? {} : { SAVE_WORKERS: value }),
      }).saveWorkers;
    expect(read()).toBe(defaultSaveWorkers());
    expect([read('0'), read('3'), read('16')]).toEqual([0, 3, 16]);
    expect(() => read('17')).toThrow('SAVE_WORKERS must be at most 16 (got 17).');
    expect(() => read('-1')).toThrow(ConfigError);
    expect([1, 2, 4, 9, 64].map((cores) => defaultSaveWorkers(cores))).toEqual([1, 1, 3, 8, 8]);
  });

  it.each([
    [undefined, /JWT_SECRET is not set/],
    ['changeme', /shorter than 32/],
    ['a'.repeat(40), /too repetitive/],
  ])('refuses to run in production with JWT_SECRET=%s', (secret, message) => {
    const env = {
      NODE_ENV: 'production',
      DATA_DIR: scratch(),
      ...(secret ? { JWT_SECRET: secret } : {}),
    };
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('refuses to run in production without SMTP_URL or APP_URL, naming what is missing', () => {
    const env = { NODE_ENV: 'production', DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/^SMTP_URL is not set: .*; APP_URL is not set: /);
    expect(() => loadConfig({ ...env, SMTP_URL: 'smtp://mail:25' })).toThrow(
      /^APP_URL is not set: mailed links need the address/,
    );
    expect(() => loadConfig({ ...env, APP_URL: 'https://adloom.example.com' })).toThrow(
      /^SMTP_URL is not set: password-reset mails cannot be sent/,
    );
    expect(() =>
      loadConfig({ ...env, SMTP_URL: 'smtp://mail:25', APP_URL: 'adloom.example.com' }),
    ).toThrow(/APP_URL must be an http\(s\) URL/);
    // Outside production both stay optional.
    expect(loadConfig({ ...env, NODE_ENV: 'development' }).smtpUrl).toBeUndefined();
  });

  it('accepts a strong production secret', () => {
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        SMTP_URL: 'smtp://mail:25',
        APP_URL: 'https://adloom.example.com',
      }).jwtSecret,
    ).toBe(STRONG_SECRET);
    expect(findJwtSecretProblem(STRONG_SECRET)).toBeUndefined();
    expect(findJwtSecretProblem('development')).toMatch(/shorter/);
  });

  describe('XML feeds', () => {
    it('gives nobody the tools by default and has the documented limits', () => {
      const config = loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET });
      expect(config.xmlFeeds).toEqual({
        emailMarker: undefined,
        maxBytes: 209_715_200,
        connectTimeoutMs: 10_000,
        timeoutMs: 120_000,
        fetchesPerUser: 2,
        allowLoopback: false,
        isLoopbackSettingIgnored: false,
      });
    });

    it('reads the marker (compared in lower case) and the limits', () => {
      const config = loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        XML_TOOLS_EMAIL_MARKER: ' @Agency.Example ',
        XML_FETCH_MAX_BYTES: '1048576',
        XML_FETCH_CONNECT_TIMEOUT_SECONDS: '3',
        XML_FETCH_TIMEOUT_SECONDS: '30',
        XML_FETCHES_PER_USER: '1',
      });
      expect(config.xmlFeeds).toMatchObject({
        emailMarker: '@agency.example',
        maxBytes: 1_048_576,
        connectTimeoutMs: 3_000,
        timeoutMs: 30_000,
        fetchesPerUser: 1,
      });
    });

    it.each([
      ['XML_FETCH_MAX_BYTES', '100'],
      ['XML_FETCH_CONNECT_TIMEOUT_SECONDS', '0'],
      ['XML_FETCH_TIMEOUT_SECONDS', 'soon'],
      ['XML_FETCHES_PER_USER', '0'],
    ])('refuses %s=%s', (name, value) => {
      expect(() =>
        loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET, [name]: value }),
      ).toThrow(new RegExp(`^${name} must be a whole number`));
    });

    it('honours FETCH_ALLOW_LOOPBACK=true only when NODE_ENV=test', () => {
      const env = { DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET, FETCH_ALLOW_LOOPBACK: 'true' };
      expect(loadConfig({ ...env, NODE_ENV: 'test' }).xmlFeeds).toMatchObject({
        allowLoopback: true,
        isLoopbackSettingIgnored: false,
      });
      expect(loadConfig(env).xmlFeeds).toMatchObject({
        allowLoopback: false,
        isLoopbackSettingIgnored: true,
      });
      expect(
        loadConfig({ ...env, NODE_ENV: 'test', FETCH_ALLOW_LOOPBACK: '1' }).xmlFeeds.allowLoopback,
      ).toBe(false);
    });
  });

  describe('build history', () => {
    it('keeps 10 builds of at most 40 MiB by default', () => {
      const config = loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET });
      expect(config.builds).toEqual({ historyPerClient: 10, recordMaxBytes: 41_943_040 });
    });

    it('reads BUILD_HISTORY_PER_CLIENT and BUILD_RECORD_MAX_BYTES', () => {
      const config = loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        BUILD_HISTORY_PER_CLIENT: ' 3 ',
        BUILD_RECORD_MAX_BYTES: '65536',
      });
      expect(config.builds).toEqual({ historyPerClient: 3, recordMaxBytes: 65_536 });
    });

    it.each([
      ['BUILD_HISTORY_PER_CLIENT', '0', /^BUILD_HISTORY_PER_CLIENT must be a whole number/],
      ['BUILD_HISTORY_PER_CLIENT', 'ten', /^BUILD_HISTORY_PER_CLIENT must be a whole number/],
      ['BUILD_HISTORY_PER_CLIENT', '2.5', /^BUILD_HISTORY_PER_CLIENT must be a whole number/],
      ['BUILD_HISTORY_PER_CLIENT', '1001', /^BUILD_HISTORY_PER_CLIENT must be at most 1000/],
      ['BUILD_RECORD_MAX_BYTES', '1000', /^BUILD_RECORD_MAX_BYTES must be a whole number/],
      ['BUILD_RECORD_MAX_BYTES', '-5', /^BUILD_RECORD_MAX_BYTES must be a whole number/],
    ])('refuses %s=%s', (name, value, message) => {
      expect(() =>
        loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET, [name]: value }),
      ).toThrow(message);
    });
  });

  describe('operators (ADMIN_EMAILS)', () => {
    it('names nobody by default', () => {
      expect(loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET }).adminEmails).toEqual(
        [],
      );
    });

    it("reads the addresses as users' emails are kept: trimmed, lower case, once each", () => {
      const config = loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        ADMIN_EMAILS: ' Ops@Example.com ,second@example.org,, ops@example.com ',
      });
      expect(config.adminEmails).toEqual(['ops@example.com', 'second@example.org']);
    });

    it('refuses a value that is not an address, naming it', () => {
      expect(() =>
        loadConfig({
          DATA_DIR: scratch(),
          JWT_SECRET: STRONG_SECRET,
          ADMIN_EMAILS: 'ops@example.com; other@example.com',
        }),
      ).toThrow(
        /^ADMIN_EMAILS must be email addresses separated by commas; "ops@example.com; other@example.com" is not one/,
      );
    });
  });

  describe('Google', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: STRONG_SECRET,
      SMTP_URL: 'smtp://mail:25',
      APP_URL: 'https://adloom.example.com',
    };

    it('is not configured without both the client id and the client secret', () => {
      const dataDir = scratch();
      const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: STRONG_SECRET });
      expect(config.google).toBeUndefined();
      // No key is needed, so none is created.
      expect(config.tokenEncryptionKey).toBe('');
      expect(() => statSync(join(dataDir, 'token-key'))).toThrow(/ENOENT/);
      expect(
        loadConfig({ DATA_DIR: dataDir, JWT_SECRET: STRONG_SECRET, GOOGLE_CLIENT_ID: 'id' }).google,
      ).toBeUndefined();
      expect(
        loadConfig({ DATA_DIR: dataDir, JWT_SECRET: STRONG_SECRET, GOOGLE_CLIENT_SECRET: 's' })
          .google,
      ).toBeUndefined();
      // Production without Google needs no key either.
      expect(loadConfig({ ...production, DATA_DIR: scratch() }).google).toBeUndefined();
    });

    it("defaults to Google's own addresses", () => {
      const config = loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        TOKEN_ENCRYPTION_KEY: STRONG_TOKEN_KEY,
        ...GOOGLE_CLIENT,
      });
      expect(config.google).toEqual({
        clientId: 'client-id',
        clientSecret: 'client-secret',
        authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenUrl: 'https://oauth2.googleapis.com/token',
        revokeUrl: 'https://oauth2.googleapis.com/revoke',
        sheetsUrl: 'https://sheets.googleapis.com',
        retryBaseMs: 500,
      });
      expect(GOOGLE_DEFAULT_URLS.sheetsUrl).toBe('https://sheets.googleapis.com');
      expect(config.tokenEncryptionKey).toBe(STRONG_TOKEN_KEY);
    });

    it('points the same client at other addresses', () => {
      const config = loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        TOKEN_ENCRYPTION_KEY: STRONG_TOKEN_KEY,
        ...GOOGLE_CLIENT,
        GOOGLE_AUTH_URL: 'http://127.0.0.1:4000/o/oauth2/v2/auth',
        GOOGLE_TOKEN_URL: 'http://127.0.0.1:4000/token',
        GOOGLE_REVOKE_URL: 'http://127.0.0.1:4000/revoke',
        GOOGLE_SHEETS_URL: 'http://127.0.0.1:4000/',
        GOOGLE_RETRY_BASE_MS: '0',
      });
      expect(config.google).toMatchObject({
        authUrl: 'http://127.0.0.1:4000/o/oauth2/v2/auth',
        tokenUrl: 'http://127.0.0.1:4000/token',
        revokeUrl: 'http://127.0.0.1:4000/revoke',
        sheetsUrl: 'http://127.0.0.1:4000',
        retryBaseMs: 0,
      });
      expect(() =>
        loadConfig({
          DATA_DIR: scratch(),
          JWT_SECRET: STRONG_SECRET,
          ...GOOGLE_CLIENT,
          GOOGLE_TOKEN_URL: 'oauth2.googleapis.com/token',
        }),
      ).toThrow(/GOOGLE_TOKEN_URL must be an http\(s\) URL/);
    });

    it('refuses a TOKEN_ENCRYPTION_KEY shorter than 32 characters, configured or not', () => {
      const env = { DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET, TOKEN_ENCRYPTION_KEY: 'short' };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/TOKEN_ENCRYPTION_KEY is shorter than 32 characters/);
      expect(() => loadConfig({ ...env, ...GOOGLE_CLIENT })).toThrow(/shorter than 32/);
      expect(
        loadConfig({ ...env, TOKEN_ENCRYPTION_KEY: 'x'.repeat(31) + 'y', ...GOOGLE_CLIENT })
          .tokenEncryptionKey,
      ).toHaveLength(32);
    });

    it('requires a strong TOKEN_ENCRYPTION_KEY in production when Google is configured', () => {
      const env = { ...production, DATA_DIR: scratch(), ...GOOGLE_CLIENT };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        /^TOKEN_ENCRYPTION_KEY is not set\. With GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET set in production/,
      );
      expect(() => loadConfig({ ...env, TOKEN_ENCRYPTION_KEY: 'b'.repeat(40) })).toThrow(
        /TOKEN_ENCRYPTION_KEY is too repetitive/,
      );
      const config = loadConfig({ ...env, TOKEN_ENCRYPTION_KEY: STRONG_TOKEN_KEY });
      expect(config.tokenEncryptionKey).toBe(STRONG_TOKEN_KEY);
      expect(() => statSync(join(env.DATA_DIR, 'token-key'))).toThrow(/ENOENT/);
    });

    it('outside production keeps a random key in DATA_DIR/token-key, the same on every start', () => {
      const dataDir = scratch();
      const env = { DATA_DIR: dataDir, JWT_SECRET: STRONG_SECRET, ...GOOGLE_CLIENT };
      const first = loadConfig(env).tokenEncryptionKey;
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(first).not.toBe(STRONG_SECRET);
      expect(loadConfig(env).tokenEncryptionKey).toBe(first);
      expect(readFileSync(join(dataDir, 'token-key'), 'utf8').trim()).toBe(first);
      expect(statSync(join(dataDir, 'token-key')).mode & 0o777).toBe(0o600);
      expect(loadConfig({ ...env, DATA_DIR: scratch() }).tokenEncryptionKey).not.toBe(first);
      // A key in the environment wins over the kept one.
      expect(
        loadConfig({ ...env, TOKEN_ENCRYPTION_KEY: STRONG_TOKEN_KEY }).tokenEncryptionKey,
      ).toBe(STRONG_TOKEN_KEY);
    });
  });

  it('outside production keeps a random secret in DATA_DIR, the same on every start', () => {
    const dataDir = scratch();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecretSource).toBe('data-dir');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: scratch() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  describe('AI helper', () => {
    const AI_MODEL_SETTINGS = {
      AI_BASE_URL: 'https://api.openai.com/v1/',
      AI_API_KEY: 'sk-config-test-key',
      AI_MODEL: 'gpt-4.1-mini',
    };

    it('is off by default, with the documented limits', () => {
      const config = loadConfig({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET });
      expect(config.ai).toEqual({
        model: undefined,
        helperEmailDomain: undefined,
        timeoutMs: DEFAULT_AI_TIMEOUT_SECONDS * 1000,
        maxTokens: DEFAULT_AI_MAX_TOKENS,
      });
      expect([DEFAULT_AI_TIMEOUT_SECONDS, DEFAULT_AI_MAX_TOKENS]).toEqual([60, 1000]);
      expect(config.rateLimit.aiSuggestionsPerUserPerHour).toBe(30);
    });

    it('has a model only with all three of AI_BASE_URL, AI_API_KEY and AI_MODEL', () => {
      const base = { DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET };
      expect(loadConfig({ ...base, ...AI_MODEL_SETTINGS }).ai.model).toEqual({
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'sk-config-test-key',
        model: 'gpt-4.1-mini',
      });
      for (const name of Object.keys(AI_MODEL_SETTINGS)) {
        const env = { ...base, ...AI_MODEL_SETTINGS, [name]: ' ' };
        expect([name, loadConfig(env).ai.model]).toEqual([name, undefined]);
      }
      expect(() => loadConfig({ ...base, AI_BASE_URL: 'api.openai.com/v1' })).toThrow(
        /AI_BASE_URL must be an http\(s\) URL/,
      );
    });

    it('reads the domain, the timeout, the token cap and the hourly limit', () => {
      const config = loadConfig({
        DATA_DIR: scratch(),
        JWT_SECRET: STRONG_SECRET,
        AI_HELPER_EMAIL_DOMAIN: '@Example.COM',
        AI_TIMEOUT_SECONDS: '5',
        AI_MAX_TOKENS: '300',
        AI_SUGGESTIONS_PER_USER_PER_HOUR: '4',
      });
      expect(config.ai).toMatchObject({
        helperEmailDomain: 'example.com',
        timeoutMs: 5000,
        maxTokens: 300,
      });
      expect(config.rateLimit.aiSuggestionsPerUserPerHour).toBe(4);
      const env = { DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET };
      expect(() => loadConfig({ ...env, AI_HELPER_EMAIL_DOMAIN: 'me@example.com' })).toThrow(
        /AI_HELPER_EMAIL_DOMAIN must be an email domain/,
      );
      expect(() => loadConfig({ ...env, AI_TIMEOUT_SECONDS: '0' })).toThrow(/AI_TIMEOUT_SECONDS/);
    });
  });

  describe('help videos, landing video and demo booking', () => {
    const base = () => ({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET });

    it('configures no frame by default', () => {
      expect(loadConfig(base()).media).toEqual({
        helpVideoUrls: {},
        landingVideoUrl: null,
        demoBookingUrl: null,
      });
    });

    it("frames YouTube's videos in the privacy-enhanced player, and other addresses as they are", () => {
      const media = loadConfig({
        ...base(),
        HELP_VIDEO_URLS: JSON.stringify({
          intro: 'https://www.youtube.com/watch?v=abc_DEF-123&t=4',
          'data-table': 'https://youtu.be/xyz789',
          'geo-feeds': 'https://www.youtube-nocookie.com/embed/geo42?rel=0',
          'live-previews': 'https://videos.example.com/player/7?x=1',
          'rsa-templates': ' ',
        }),
        LANDING_VIDEO_URL: 'https://www.youtube.com/embed/landing1',
        DEMO_BOOKING_URL: ' https://calendly.com/adloom/demo ',
      }).media;
      expect(media).toEqual({
        helpVideoUrls: {
          intro: 'https://www.youtube-nocookie.com/embed/abc_DEF-123?autoplay=1',
          'data-table': 'https://www.youtube-nocookie.com/embed/xyz789?autoplay=1',
          'geo-feeds': 'https://www.youtube-nocookie.com/embed/geo42?autoplay=1',
          'live-previews': 'https://videos.example.com/player/7?x=1',
        },
        landingVideoUrl: 'https://www.youtube-nocookie.com/embed/landing1?autoplay=1&mute=1',
        demoBookingUrl: 'https://calendly.com/adloom/demo',
      });
    });

    it.each([
      [{ HELP_VIDEO_URLS: 'intro=https://x.example' }, /HELP_VIDEO_URLS must be a JSON object/],
      [{ HELP_VIDEO_URLS: '["https://x.example"]' }, /HELP_VIDEO_URLS must be a JSON object/],
      [{ HELP_VIDEO_URLS: '{"tour":"https://x.example"}' }, /"tour", which is not a guide/],
      [{ HELP_VIDEO_URLS: '{"intro":42}' }, /HELP_VIDEO_URLS.intro must be a text address/],
      [
        { HELP_VIDEO_URLS: '{"intro":"javascript:alert(1)"}' },
        /HELP_VIDEO_URLS.intro must be an http/,
      ],
      [{ LANDING_VIDEO_URL: 'www.youtube.com/watch?v=a' }, /LANDING_VIDEO_URL must be an http/],
      [{ LANDING_VIDEO_URL: 'https://www.youtube.com/@adloom' }, /without a video id/],
      [{ DEMO_BOOKING_URL: 'data:text/html,hi' }, /DEMO_BOOKING_URL must be an http/],
    ])('refuses %o', (env, message) => {
      expect(() => loadConfig({ ...base(), ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base(), ...env })).toThrow(message);
    });
  });

  describe('the tag manager (GTM_ID, GTM_SCRIPT_URL)', () => {
    const base = () => ({ DATA_DIR: scratch(), JWT_SECRET: STRONG_SECRET });

    it('is off unless GTM_ID is set', () => {
      expect(loadConfig(base()).tagManager).toEqual({ enabled: false });
    });

    it("loads Google's container script by default, or the configured one", () => {
      expect(loadConfig({ ...base(), GTM_ID: ' GTM-AB12CD3 ' }).tagManager).toEqual({
        enabled: true,
        id: 'GTM-AB12CD3',
        scriptUrl: 'https://www.googletagmanager.com/gtm.js',
      });
      expect(
        loadConfig({
          ...base(),
          GTM_ID: 'GTM-AB12CD3',
          GTM_SCRIPT_URL: 'http://127.0.0.1:4100/gtm.js',
        }).tagManager,
      ).toEqual({ enabled: true, id: 'GTM-AB12CD3', scriptUrl: 'http://127.0.0.1:4100/gtm.js' });
    });

    it.each([
      [{ GTM_ID: 'UA-12345-1' }, /GTM_ID must be a container id/],
      [{ GTM_ID: 'GTM-AB"><script>' }, /GTM_ID must be a container id/],
      [{ GTM_SCRIPT_URL: 'https://tags.example.com/gtm.js' }, /GTM_ID is not/],
      [{ GTM_ID: 'GTM-AB12CD3', GTM_SCRIPT_URL: 'javascript:alert(1)' }, /must be an http/],
    ])('refuses %o', (env, message) => {
      expect(() => loadConfig({ ...base(), ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base(), ...env })).toThrow(message);
    });
  });
});
