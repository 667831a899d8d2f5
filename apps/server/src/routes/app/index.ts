import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API,
  ClientNameBodySchema,
  FetchXmlBodySchema,
  NameSchema,
  SAVE_TEMPLATES_BODY_SCHEMAS,
  TEMPLATE_SAVE_PATHS,
  WAITING_LIST_MESSAGE,
  WaitingListBodySchema,
  XML_FEEDS_TOOL,
  type CreateClientAnswer,
  type TemplateKind,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import type { Readable } from 'node:stream';
import { AppError, errorLogFields, formatBytes } from '../../errors.ts';
import { sendJson } from '../../http/json-text.ts';
import { parseBody } from '../../http/validate.ts';
import { createLargeSaveGate, createLargeSaveHook } from '../../http/large-saves.ts';
import { rejectBadTextField } from '../../http/text-rule.ts';
import { addWaitingListEmail, listClientNames } from '../../db/workspace.ts';
import { FeedRowsCache } from '../../services/workspace-cache.ts';
import {
  createClient,
  loadClientBundleJson,
  loadListsJson,
  removeClient,
  saveClientFeeds,
  saveClientTemplates,
  saveLists,
} from '../../services/workspace.ts';
import type { SaveKind } from '../../services/save-rows.ts';
import { SAVE_WORKER_LOST_MESSAGE, SaveWorkerLostError } from '../../services/save-workers.ts';
import { requireVerifiedAddress } from '../../services/email-verification.ts';
import { createXmlFeedReader, hasXmlTools } from '../../services/xml-feeds.ts';

/**
 * A feed or list save's body as it arrives, handed to the save workers unread. Bytes past
 * `limit` fail with 413 (a declared length over it is refused before a byte is read). The stream
 * is a private field: the text rule's walk over request bodies finds nothing here (the worker
 * applies it to the parsed body).
 */
class SaveBody {
  readonly #stream: Readable;
  readonly #limit: number;

  constructor(stream: Readable, limit: number) {
    this.#stream = stream;
    this.#limit = limit;
  }

  async *pieces(): AsyncGenerator<Uint8Array> {
    let bytes = 0;
    for await (const piece of this.#stream as AsyncIterable<Uint8Array>) {
      bytes += piece.length;
      if (bytes > this.#limit) throw bodyTooLarge(this.#limit);
      yield piece;
    }
  }
}

function bodyTooLarge(limit: number): AppError {
  return new AppError(
    'payload_too_large',
    `The request body is larger than the limit of ${formatBytes(limit)}.`,
  );
}

/** The declared Content-Length, if any. */
function declaredLength(request: FastifyRequest): number | undefined {
  const length = Number(request.headers['content-length']);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * In `app` (an encapsulated scope), JSON bodies reach the route unread, as a SaveBody; any other
 * content type answers 415 as elsewhere.
 */
function acceptSaveBodies(app: FastifyInstance, limit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    const length = declaredLength(request);
    if (length !== undefined && length > limit) done(bodyTooLarge(limit));
    else done(null, new SaveBody(payload, limit));
  });
}

/** A save's body; a POST without one (Fastify runs no parser) is checked as `{}`. */
function saveBodyOf(request: FastifyRequest): AsyncIterable<Uint8Array> {
  if (request.body instanceof SaveBody) return request.body.pieces();
  return [Buffer.from('{}')] as unknown as AsyncIterable<Uint8Array>;
}

/**
 * The client name of `/api/app/clients/<URL-encoded name>`; a malformed encoding is 404, a
 * NUL (`%00`) 400 by the one text rule.
 */
function readClientName(rawPath: string): string {
  let name: string;
  try {
    name = decodeURIComponent(rawPath);
  } catch {
    throw new AppError('not_found', 'Client not found');
  }
  rejectBadTextField('name', name);
  const parsed = NameSchema.safeParse(name);
  if (!parsed.success) throw new AppError('not_found', 'Client not found');
  return parsed.data;
}

/**
 * The workspace calls of spec section 7 under /api/app: clients, a client's bundle, lists,
 * feeds, the five template saves, a product feed's brands and categories (fetch-xml), and the
 * waiting list (the only one without auth).
 */
export default async function appRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, saveWorkers } = deps;
  // Only the bulk saves may send large bodies; every other call keeps the app's small limit.
  // A large one waits for its turn: one per user, LARGE_SAVES_AT_ONCE on the server (else 429).
  const largeSaves = createLargeSaveGate(deps.config.largeSavesAtOnce);
  const bulkBody = {
    bodyLimit: deps.config.bodyLimitBytes,
    preParsing: createLargeSaveHook(largeSaves, (request) => getUser(request).id),
  };
  // Presented rows of recently saved or loaded feeds (checked against the stored version).
  const cache = new FeedRowsCache();
  const xmlFeeds = createXmlFeedReader(deps.config.xmlFeeds);
  app.addHook('onClose', () => xmlFeeds.close());
  if (deps.config.xmlFeeds.isLoopbackSettingIgnored)
    app.log.warn(
      'FETCH_ALLOW_LOOPBACK=true is ignored: it is honoured only when NODE_ENV=test. Feed URLs on loopback addresses stay refused.',
    );

  app.post(API.app.waitingList, async (request) => {
    await deps.limits.waitingList.countAttempt(request.ip);
    const body = parseBody(WaitingListBodySchema, request.body);
    await addWaitingListEmail(db, body.email.toLowerCase());
    return { message: WAITING_LIST_MESSAGE };
  });

  await app.register(async (authed) => {
    // Before the body is read: an anonymous request is refused without reading it.
    authed.addHook('onRequest', authenticate);

    authed.get(API.app.clients, async (request): Promise<string[]> => {
      return listClientNames(db, getUser(request).id);
    });

    authed.post(API.app.clients, async (request): Promise<CreateClientAnswer> => {
      const body = parseBody(ClientNameBodySchema, request.body);
      return createClient(db, getUser(request).id, body.name);
    });

    authed.delete(API.app.clients, async (request): Promise<string[]> => {
      const body = parseBody(ClientNameBodySchema, request.body);
      return removeClient(db, getUser(request).id, body.name);
    });

    // A wildcard rather than `:name`: a name may hold any characters (also '/', once encoded)
    // and be longer than the router's parameter limit. The raw URL is decoded here, once.
    authed.get(
      `${API.app.clients}/*`,
      { config: { wildcardField: 'name' } },
      async (request, reply) => {
        const path = request.url.split('?')[0] ?? '';
        const name = readClientName(path.slice(API.app.clients.length + 1));
        return sendJson(reply, await loadClientBundleJson(db, cache, getUser(request).id, name));
      },
    );

    authed.get(API.app.lists, async (request, reply) => {
      return sendJson(reply, await loadListsJson(db, cache, getUser(request).id));
    });

    // Feed and list saves carry up to 200k rows: their bodies go unread to a save worker thread,
    // which checks and prepares them (services/save-body.ts) off the event loop. Plain JSON.parse
    // there, without the prototype-poisoning scan of Fastify's parser: safe because the schemas
    // rebuild every object from known keys only.
    await authed.register(async (bulk) => {
      acceptSaveBodies(bulk, deps.config.bodyLimitBytes);

      /** The body prepared by a save worker; a worker lost meanwhile is a 500, nothing stored. */
      async function prepareSave<K extends SaveKind>(kind: K, request: FastifyRequest) {
        try {
          return await saveWorkers.prepare(kind, saveBodyOf(request), declaredLength(request));
        } catch (error) {
          if (!(error instanceof SaveWorkerLostError)) throw error;
          request.log.error({ err: errorLogFields(error) }, 'save worker lost');
          throw new AppError('internal_error', SAVE_WORKER_LOST_MESSAGE);
        }
      }

      bulk.post(API.app.lists, bulkBody, async (request, reply) => {
        const input = await prepareSave('lists', request);
        return sendJson(reply, await saveLists(db, cache, getUser(request).id, input));
      });

      bulk.post(API.app.feeds, bulkBody, async (request, reply) => {
        const input = await prepareSave('feeds', request);
        const save = { ...input, name: input.name ?? '' };
        return sendJson(reply, await saveClientFeeds(db, cache, getUser(request).id, save));
      });
    });

    authed.post(API.app.fetchXml, async (request, reply) => {
      const user = getUser(request);
      if (!hasXmlTools(user.email, deps.config.xmlFeeds))
        throw new AppError('forbidden', 'The XML feed tools are not available to this account.');
      requireVerifiedAddress(user, XML_FEEDS_TOOL);
      const body = parseBody(FetchXmlBodySchema, request.body);
      // A person who leaves (closes the connection) stops the download.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      return sendJson(reply, await xmlFeeds.read(user.id, body, gone.signal));
    });

    for (const kind of Object.keys(TEMPLATE_SAVE_PATHS) as TemplateKind[]) {
      authed.post(TEMPLATE_SAVE_PATHS[kind], bulkBody, async (request) => {
        const body = parseBody(SAVE_TEMPLATES_BODY_SCHEMAS[kind], request.body);
        return saveClientTemplates(db, getUser(request).id, kind, body as never);
      });
    }
  });
}
