import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  API,
  BUILD_CREATED_AT_HEADER,
  BUILD_ID_HEADER,
  BUILD_MESSAGES,
  BUILD_META_HEADER,
  BUILD_META_HEADER_MAX_CHARS,
  BUILD_RECORD_CONTENT_TYPE,
  BUILD_RECORD_FILE_NAME,
  BuildMetaSchema,
  decodeBuildMetaHeader,
  findBadText,
  type BuildListAnswer,
  type BuildMeta,
  type BuildSummary,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { hasClient, listBuilds, type BuildRecordRow } from '../../db/builds.ts';
import type { Db } from '../../db/index.ts';
import { AppError, validationError } from '../../errors.ts';
import { UnreadBody, acceptUnreadBodies } from '../../http/unread-body.ts';
import { parseBody } from '../../http/validate.ts';
import { presentBuild } from '../../presenters/builds.ts';
import { getBuild, storeBuild, streamBuildRecord } from '../../services/builds.ts';
import { readBuildId, readClientId } from './ids.ts';

/** gzip's older media type, still sent by some tools. */
const GZIP_CONTENT_TYPES = [BUILD_RECORD_CONTENT_TYPE, 'application/x-gzip'];

/** The build's description from the `adloom-build` header: 400 when missing or not valid. */
function readBuildMeta(request: FastifyRequest): BuildMeta {
  const raw = request.headers[BUILD_META_HEADER];
  if (raw === undefined) throw new AppError('bad_request', BUILD_MESSAGES.missingMeta);
  if (typeof raw !== 'string') throw new AppError('bad_request', BUILD_MESSAGES.badMeta);
  if (raw.length > BUILD_META_HEADER_MAX_CHARS)
    throw new AppError('bad_request', BUILD_MESSAGES.metaTooLong);
  const decoded = decodeBuildMetaHeader(raw);
  if (decoded === undefined) throw new AppError('bad_request', BUILD_MESSAGES.badMeta);
  const problem = findBadText(decoded);
  if (problem)
    throw validationError([
      problem.path ? { msg: problem.msg, path: problem.path } : { msg: problem.msg },
    ]);
  return parseBody(BuildMetaSchema, decoded);
}

/** The body's declared length, or undefined when it comes chunked. */
function readDeclaredBytes(request: FastifyRequest): number | undefined {
  const length = request.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}

/** Answers a build's record: the gzip bytes, streamed from the database in slices. */
function sendRecord(
  reply: FastifyReply,
  db: Db,
  userId: string,
  build: BuildRecordRow,
): FastifyReply {
  return reply
    .type(BUILD_RECORD_CONTENT_TYPE)
    .header('content-length', build.size_bytes)
    .header('content-disposition', `attachment; filename="${BUILD_RECORD_FILE_NAME}"`)
    .header(BUILD_ID_HEADER, build.id)
    .header(BUILD_CREATED_AT_HEADER, build.created_at.toISOString())
    .send(streamBuildRecord(db, userId, build));
}

/**
 * A client's build history (issue 35): POST a build (the gzip'd record as the body, its
 * description in the `adloom-build` header), GET the list, GET the newest record or one by id.
 */
export async function buildRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  app.addHook('onRequest', authenticate);

  await app.register(async (upload) => {
    acceptUnreadBodies(upload, GZIP_CONTENT_TYPES, BUILD_MESSAGES.contentType);

    upload.post(API.clients.builds, async (request, reply): Promise<BuildSummary> => {
      const clientId = readClientId(request.params);
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity')
        throw new AppError('unsupported_media_type', BUILD_MESSAGES.contentEncoding);
      const meta = readBuildMeta(request);
      if (!(request.body instanceof UnreadBody))
        throw new AppError('bad_request', BUILD_MESSAGES.empty);
      const summary = await storeBuild(db, config.builds, {
        userId: getUser(request).id,
        clientId,
        meta,
        record: request.body,
        declaredBytes: readDeclaredBytes(request),
      });
      reply.code(201);
      return summary;
    });
  });

  app.get(API.clients.builds, async (request): Promise<BuildListAnswer> => {
    const clientId = readClientId(request.params);
    const userId = getUser(request).id;
    const builds = await listBuilds(db, userId, clientId);
    if (builds.length === 0 && !(await hasClient(db, userId, clientId)))
      throw new AppError('not_found', BUILD_MESSAGES.clientNotFound);
    return { builds: builds.map(presentBuild) };
  });

  app.get(API.clients.latestBuild, async (request, reply) => {
    const clientId = readClientId(request.params);
    const userId = getUser(request).id;
    return sendRecord(reply, db, userId, await getBuild(db, userId, clientId, 'latest'));
  });

  app.get(API.clients.buildRecord, async (request, reply) => {
    const clientId = readClientId(request.params);
    const buildId = readBuildId(request.params);
    const userId = getUser(request).id;
    return sendRecord(reply, db, userId, await getBuild(db, userId, clientId, buildId));
  });
}
