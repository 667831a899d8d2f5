import { existsSync } from 'node:fs';
import { constants as zlibConstants } from 'node:zlib';
import { join } from 'node:path';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import {
  AppError,
  errorLogFields,
  registerErrorHandler,
  sendError,
  type ErrorLogFields,
} from './errors.ts';
import { createSessionService } from './auth/session.ts';
import { LOG_REDACT_PATHS } from './log-format.ts';
import { OUTBOX_DIR_NAME, createMailer, type Mailer } from './services/mailer.ts';
import type { AppDeps } from './deps.ts';
import { registerRoutes } from './routes/index.ts';
import { useUtf8JsonParser } from './http/json-body.ts';
import { createAttemptLimits } from './services/attempt-limits.ts';
import { createDbAttemptStores } from './services/db-attempt-store.ts';
import type { AttemptStoreFactory } from './services/rate-limit.ts';
import {
  applySecurityHeaders,
  buildContentSecurityPolicy,
  frameOrigins,
  type CspSources,
} from './http/security-headers.ts';
import { readPrerenderedPages } from './http/web-pages.ts';
import { botCheckCspSources, publicBotCheckSettings } from './services/bot-check.ts';
import { tagManagerCspSources } from './services/tag-manager.ts';
import { createBodyTimeoutHook } from './http/body-guard.ts';
import { rejectBadText } from './http/text-rule.ts';
import { createGoogleAccessTokens } from './services/google-oauth.ts';
import { createSaveWorkers, type SaveWorkers } from './services/save-workers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The threads that prepare feed and list saves (see services/save-workers.ts). */
    saveWorkers: SaveWorkers;
  }
}

/** Answers smaller than this leave uncompressed (compressing them saves less than it costs). */
export const COMPRESS_MIN_BYTES = 1024;

/** The 503 message of a request that reaches a server while it stops. */
const SERVER_STOPPING_MESSAGE = 'This server is restarting. Please try again shortly.';

/** Page served at `/` when the web app has not been built. */
export const WEB_NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Adloom</title></head>
<body><h1>Adloom</h1><p>The API is running, but the web app has not been built yet.
Run <code>npm run build</code> (or start with <code>npm start</code>, which builds it) and reload this page.</p></body></html>
`;

/** Reset and verification links carry their tokens in the path (the web page's and the API's). */
const TOKEN_PATH_PATTERN = /(\/(?:reset|verify-email)\/)[^/?#]+/;
/** Google sends the browser back to /account with `?code=…&state=…`: keep both out of the logs. */
const OAUTH_QUERY_PATTERN = /([?&](?:code|state)=)[^&#]*/g;

/**
 * What the Content-Security-Policy adds: the bot check's script and frame, the prerendered
 * pages' inline scripts (by hash), the configured frames, the tag manager's hosts.
 */
function contentSecuritySources(config: Config, inlineScriptHashes: string[]): CspSources {
  const botCheck = botCheckCspSources(publicBotCheckSettings(config));
  const tagManager = tagManagerCspSources(config.tagManager);
  const { helpVideoUrls, landingVideoUrl, demoBookingUrl } = config.media;
  return {
    scriptSrc: [...botCheck.scriptSrc, ...tagManager.scriptSrc, ...inlineScriptHashes],
    frameSrc: [
      ...botCheck.frameSrc,
      ...frameOrigins([...Object.values(helpVideoUrls), landingVideoUrl, demoBookingUrl]),
    ],
    imgSrc: tagManager.imgSrc,
    connectSrc: tagManager.connectSrc,
  };
}

/** The request head (line and headers) must have arrived within this time (Node answers 408). */
export const HEADERS_TIMEOUT_MS = 30_000;
/** An idle keep-alive connection is closed after this (longer than common proxies' 60 s). */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Builds the Fastify app: error handler, security headers, body limits and timeouts, the text
 * rule, API routes and the web app.
 */
export async function buildApp(deps: {
  config: Config;
  db: Db;
  mailer?: Mailer;
  /** Where rate limits count attempts (default: in the database, shared by every server on it). */
  attemptStores?: AttemptStoreFactory;
  /** Where log lines go (default stdout). */
  logStream?: { write(line: string): void };
}): Promise<FastifyInstance> {
  const { config, db } = deps;
  const pages = readPrerenderedPages(config.webDist);
  const headerOptions = {
    isProduction: config.isProduction,
    contentSecurityPolicy: buildContentSecurityPolicy(
      contentSecuritySources(config, pages.scriptHashes),
    ),
  };
  // The small limit never exceeds the large one, however the config was made.
  const smallBodyLimitBytes = Math.min(config.smallBodyLimitBytes, config.bodyLimitBytes);
  const app = Fastify({
    // Small by default; only the feed, list and template saves take config.bodyLimitBytes.
    bodyLimit: smallBodyLimitBytes,
    // The socket may sit idle this long (e.g. while a big save runs); a silent body is cut off
    // sooner, with 408, by the body timeout hook.
    connectionTimeout: config.requestTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Node's own cap on a whole request, a backstop behind the body timeout hook's 408 answer.
    requestTimeout: config.requestTimeoutMs + HEADERS_TIMEOUT_MS,
    trustProxy: config.trustProxy,
    // While closing, new requests are answered 503 in the error shape by the hook below.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any hook or handler runs (a bad %-escape, a too-long path part).
    frameworkErrors: (error, _request, reply) => {
      applySecurityHeaders(reply, headerOptions);
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? 'A part of the URL is too long.'
          : 'The URL is not valid (a bad %-escape?).';
      void sendError(reply, new AppError('bad_request', message));
    },
    logger: {
      level: config.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        // Only an error's safe fields: drivers hang parameters and rows on their errors.
        // (The error handler passes them already reduced: those go as they are.)
        err: (value: FastifyError) =>
          value instanceof Error ? errorLogFields(value) : (value as ErrorLogFields),
        // Reset and verification tokens travel in the URL: keep them out of the logs.
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: request.url
            .replace(TOKEN_PATH_PATTERN, '$1<token>')
            .replace(OAUTH_QUERY_PATTERN, '$1<redacted>'),
          remoteAddress: request.ip,
        }),
      },
    },
  });
  const mailer =
    deps.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      isProduction: config.isProduction,
      from: config.mailFrom,
      outboxDir: join(config.dataDir, OUTBOX_DIR_NAME),
      log: app.log,
    });
  const sessions = createSessionService({
    secret: config.jwtSecret,
    ttlSeconds: config.sessionTtlSeconds,
    db,
  });
  app.decorate('sessions', sessions);
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;

  registerErrorHandler(app, smallBodyLimitBytes);
  // Only JSON bodies are accepted by the API; anything else is 415.
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parser (prototype poisoning refused), fed only valid UTF-8.
  useUtf8JsonParser(app, app.getDefaultJsonParser('error', 'error'));
  // Closing (SIGTERM): requests in flight finish; a new one on an open connection is turned
  // away with 503 and the connection closed, so a proxy sends the next one to another server.
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    applySecurityHeaders(reply, headerOptions);
    if (request.url.startsWith('/api/') || request.url === '/api')
      reply.header('cache-control', 'no-store');
    if (isClosing) {
      reply.header('connection', 'close');
      throw new AppError('service_unavailable', SERVER_STOPPING_MESSAGE);
    }
  });
  // An answer sent before the body was read (401 from onRequest, 413, 408): close the
  // connection rather than read and discard the rest of a body nobody wants.
  app.addHook('onSend', async (request, reply) => {
    if (request.raw.complete === false) reply.header('connection', 'close');
  });
  app.addHook(
    'preParsing',
    createBodyTimeoutHook({ idleMs: config.bodyIdleTimeoutMs, totalMs: config.requestTimeoutMs }),
  );
  // NUL and unpaired surrogates: one rule for the params, query and body of every route.
  app.addHook('preValidation', rejectBadText);

  // Answers of a kilobyte or more leave compressed (brotli at a fast level, else gzip); the web
  // app's files were compressed at build time (preCompressed below) and pass as they are.
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // The counts live in the database, so every server on it counts the same attempts.
  const limits = createAttemptLimits(
    config.rateLimit,
    deps.attemptStores ?? createDbAttemptStores(db),
  );
  const googleTokens = createGoogleAccessTokens();
  const saveWorkers = createSaveWorkers(config.saveWorkers);
  app.decorate('saveWorkers', saveWorkers);
  app.addHook('onClose', () => saveWorkers.stop());
  await app.register(async (api) =>
    registerRoutes(api, {
      config,
      db,
      mailer,
      sessions,
      limits,
      googleTokens,
      saveWorkers,
    } satisfies AppDeps),
  );

  const hasWebApp = existsSync(join(config.webDist, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      // index.html.br, app-123.js.gz ...: made by the web app's build (scripts/compress-dist.mjs).
      preCompressed: true,
      // Vite puts content-hashed files under assets/: cache them for good; revalidate the rest.
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.startsWith(join(config.webDist, 'assets'))
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    // A page the build prerendered comes with its content (the others get the empty index.html).
    for (const [path, file] of pages.files)
      app.get(path, (_request, reply) => reply.header('cache-control', 'no-cache').sendFile(file));
  } else {
    app.log.warn(
      `No built web app in ${config.webDist}: run npm run build. The API works without it.`,
    );
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path.startsWith('/api/')) {
      return sendError(reply, new AppError('not_found', `No API route ${request.method} ${path}`));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendError(
        reply,
        new AppError('not_found', `Nothing answers ${request.method} ${path}`),
      );
    }
    // A missing file (a path with an extension) is a 404; any other path is a page of the app.
    if (/\.[a-z0-9]+$/i.test(path)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    if (!hasWebApp)
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(WEB_NOT_BUILT_HTML);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
