import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API,
  ClientNameBodySchema,
  FetchXmlBodySchema,
  NameSchema,
  SAVE_TEMPLATES_BODY_SCHEMAS,
  SaveFeedsBodySchema,
  SaveListsBodySchema,
  TEMPLATE_SAVE_PATHS,
  WAITING_LIST_MESSAGE,
  WaitingListBodySchema,
  XML_FEEDS_TOOL,
  type CreateClientAnswer,
  type TemplateKind,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { AppError } from '../../errors.ts';
import { parseBody } from '../../http/validate.ts';
import { useUtf8JsonParser } from '../../http/json-body.ts';
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
import { requireVerifiedAddress } from '../../services/email-verification.ts';
import { createXmlFeedReader, hasXmlTools } from '../../services/xml-feeds.ts';

function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** JSON body parser of the bulk saves; bad JSON is 400 as with Fastify's own parser. */
function parsePlainJson(
  _request: FastifyRequest,
  text: string,
  done: (error: Error | null, value?: unknown) => void,
): void {
  if (text.trim() === '') {
    done(
      Object.assign(new Error('The request body is empty'), {
        statusCode: 400,
        code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
      }),
    );
    return;
  }
  try {
    const value: unknown = JSON.parse(text);
    done(null, value);
  } catch (error) {
    done(Object.assign(error as Error, { statusCode: 400 }));
  }
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
  const { db } = deps;
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
        return sendJsonText(
          reply,
          await loadClientBundleJson(db, cache, getUser(request).id, name),
        );
      },
    );

    authed.get(API.app.lists, async (request, reply) => {
      return sendJsonText(reply, await loadListsJson(db, cache, getUser(request).id));
    });

    // Feed and list saves carry up to 200k rows: their JSON is parsed with plain JSON.parse,
    // without the prototype-poisoning scan of Fastify's parser (two regex passes over tens of
    // megabytes). Safe here because the schemas rebuild every object from known keys only.
    await authed.register(async (bulk) => {
      useUtf8JsonParser(bulk, parsePlainJson);

      bulk.post(API.app.lists, bulkBody, async (request, reply) => {
        const body = parseBody(SaveListsBodySchema, request.body);
        return sendJsonText(reply, await saveLists(db, cache, getUser(request).id, body));
      });

      bulk.post(API.app.feeds, bulkBody, async (request, reply) => {
        const body = parseBody(SaveFeedsBodySchema, request.body);
        return sendJsonText(reply, await saveClientFeeds(db, cache, getUser(request).id, body));
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
      return sendJsonText(reply, await xmlFeeds.read(user.id, body, gone.signal));
    });

    for (const kind of Object.keys(TEMPLATE_SAVE_PATHS) as TemplateKind[]) {
      authed.post(TEMPLATE_SAVE_PATHS[kind], bulkBody, async (request) => {
        const body = parseBody(SAVE_TEMPLATES_BODY_SCHEMAS[kind], request.body);
        return saveClientTemplates(db, getUser(request).id, kind, body as never);
      });
    }
  });
}
