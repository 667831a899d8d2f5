/**
 * The account loop's build history (issue 35): storing a client's gzip'd build record with the
 * retention rule, and reading one back as a stream. The record is opaque here: the server checks
 * only that it is gzip data, and never holds it more than once (the body is read straight into
 * the buffer the database's COPY sends; reading answers it in slices).
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { BUILD_MESSAGES, type BuildMeta, type BuildSummary } from '@adloom/contract';
import type { Db } from '../db/index.ts';
import {
  deleteOlderBuilds,
  findBuild,
  findLatestBuild,
  frameBuild,
  hasClient,
  insertBuild,
  lockClientById,
  readBuildSlice,
  type BuildRecordRow,
} from '../db/builds.ts';
import type { CopyRowFrame } from '../db/copy-binary.ts';
import type { BuildsConfig } from '../config.ts';
import { AppError, formatBytes } from '../errors.ts';
import type { UnreadBody } from '../http/unread-body.ts';
import { presentBuild } from '../presenters/builds.ts';

/** gzip's first bytes: ID1, ID2, and CM 8 (deflate), the only method RFC 1952 defines. */
const GZIP_SIGNATURE = [0x1f, 0x8b, 0x08] as const;

/** Bytes of a record read per query when it is answered. */
export const BUILD_RECORD_SLICE_BYTES = 1024 * 1024;

function clientNotFound(): AppError {
  return new AppError('not_found', BUILD_MESSAGES.clientNotFound);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    'payload_too_large',
    `The build record is larger than the limit of ${formatBytes(maxBytes)}.`,
  );
}

/** True when `bytes` start with gzip's signature. */
export function isGzip(bytes: Uint8Array): boolean {
  return GZIP_SIGNATURE.every((byte, at) => bytes[at] === byte);
}

/** A build to store: whose, which client's, its description and its unread record. */
export interface StoreBuildInput {
  userId: string;
  clientId: string;
  meta: BuildMeta;
  record: UnreadBody;
  /** The body's Content-Length; undefined when it was sent chunked. */
  declaredBytes: number | undefined;
}

/**
 * Stores a build and deletes the client's builds beyond the newest `historyPerClient`, in one
 * transaction. Everything but the record is checked before a byte of it is read: another
 * user's client is 404, a declared size over the cap 413. Then the record must be gzip (400).
 */
export async function storeBuild(
  db: Db,
  config: BuildsConfig,
  input: StoreBuildInput,
): Promise<BuildSummary> {
  const { userId, clientId, declaredBytes } = input;
  if (declaredBytes !== undefined && declaredBytes > config.recordMaxBytes)
    throw tooLarge(config.recordMaxBytes);
  if (!(await hasClient(db, userId, clientId))) throw clientNotFound();
  const build = { id: randomUUID(), userId, clientId, meta: input.meta };

  let frame: CopyRowFrame;
  if (declaredBytes !== undefined) {
    if (declaredBytes === 0) throw new AppError('bad_request', BUILD_MESSAGES.empty);
    frame = frameBuild(build, declaredBytes);
    await input.record.readInto(frame.last);
  } else {
    const chunks = await input.record.readChunks(config.recordMaxBytes, () =>
      tooLarge(config.recordMaxBytes),
    );
    const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    if (length === 0) throw new AppError('bad_request', BUILD_MESSAGES.empty);
    frame = frameBuild(build, length);
    let at = 0;
    for (const chunk of chunks) {
      frame.last.set(chunk, at);
      at += chunk.length;
    }
  }
  if (!isGzip(frame.last)) throw new AppError('bad_request', BUILD_MESSAGES.notGzip);

  const stored = await db.transaction(async (tx) => {
    // The client row's lock serialises a client's uploads, so the retention count is exact.
    if (!(await lockClientById(tx, userId, clientId))) throw clientNotFound();
    await insertBuild(tx, frame);
    await deleteOlderBuilds(tx, userId, clientId, config.historyPerClient);
    return findBuild(tx, userId, clientId, build.id);
  });
  if (!stored) throw new Error('a stored build was not found in its own transaction');
  return presentBuild(stored);
}

/**
 * A build's record as a stream of slices, read one query at a time as the answer drains. A
 * build deleted while it is being answered (a newer one pushed it out) ends the stream with an
 * error: the connection closes short of the Content-Length, never with a wrong record.
 */
export function streamBuildRecord(db: Db, userId: string, build: BuildRecordRow): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= build.size_bytes) {
        this.push(null);
        return;
      }
      const length = Math.min(BUILD_RECORD_SLICE_BYTES, build.size_bytes - offset);
      readBuildSlice(db, userId, build.id, offset, length).then(
        (slice) => {
          if (!slice || slice.length !== length) {
            this.destroy(new Error('the build was deleted while its record was being sent'));
            return;
          }
          offset += length;
          this.push(slice);
        },
        (error: unknown) => this.destroy(error as Error),
      );
    },
  });
}

/** The user's build of that client (`latest`: the newest), without its record; 404 otherwise. */
export async function getBuild(
  db: Db,
  userId: string,
  clientId: string,
  buildId: string | 'latest',
): Promise<BuildRecordRow> {
  const build =
    buildId === 'latest'
      ? await findLatestBuild(db, userId, clientId)
      : await findBuild(db, userId, clientId, buildId);
  if (build) return build;
  if (!(await hasClient(db, userId, clientId))) throw clientNotFound();
  throw new AppError(
    'not_found',
    buildId === 'latest' ? BUILD_MESSAGES.noBuilds : BUILD_MESSAGES.buildNotFound,
  );
}
