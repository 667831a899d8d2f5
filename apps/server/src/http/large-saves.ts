import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * A save body of at least this many bytes is a large save: it holds a database connection, a
 * save worker and several times its size in memory for a second or more (a feed save in a
 * worker: ~3.6× its body there, docs/performance.md). Below it (under ~4k feed rows) a save
 * costs too little to ration.
 */
export const LARGE_SAVE_MIN_BYTES = 1024 * 1024;
/** Seconds a refused large save is told to wait (Retry-After): about one large save's time. */
export const LARGE_SAVE_RETRY_AFTER_SECONDS = 2;

/** The 429 of a second large save of one account while its first runs. */
export const SAVE_IN_PROGRESS_MESSAGE = `Another large save of this account is still running. Please try again in ${LARGE_SAVE_RETRY_AFTER_SECONDS} seconds.`;
/** The 429 of a large save while the server runs as many as it takes at once. */
export const SAVES_BUSY_MESSAGE = `The server is busy with other large saves. Please try again in ${LARGE_SAVE_RETRY_AFTER_SECONDS} seconds.`;

/**
 * Who is saving: at most one large save per user, and at most `atOnce` on the server. A slot is
 * taken with `tryEnter` and given back by calling what it answered (once; more calls do nothing).
 */
export interface LargeSaveGate {
  /** A release function, or the code of the refusal: the user's own save, or the server's cap. */
  tryEnter(userId: string): (() => void) | 'save_in_progress' | 'server_busy';
  /** Large saves running now. */
  readonly running: number;
}

export function createLargeSaveGate(atOnce: number): LargeSaveGate {
  const users = new Set<string>();
  return {
    tryEnter(userId) {
      if (users.has(userId)) return 'save_in_progress';
      if (users.size >= atOnce) return 'server_busy';
      users.add(userId);
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        users.delete(userId);
      };
    },
    get running() {
      return users.size;
    },
  };
}

function refusal(code: 'save_in_progress' | 'server_busy'): AppError {
  return new AppError(
    code,
    code === 'save_in_progress' ? SAVE_IN_PROGRESS_MESSAGE : SAVES_BUSY_MESSAGE,
    undefined,
    { retryAfterSeconds: LARGE_SAVE_RETRY_AFTER_SECONDS },
  );
}

/**
 * The body of a save, counted as it arrives. A body that is (by its Content-Length) or becomes
 * (by the bytes read, when sent in chunks) large must first get a slot of the gate; without one,
 * the rest of the body is read and dropped, and the request fails with 429 once it has arrived.
 * Reading to the end rather than closing at once keeps the connection, so the client surely
 * reads the 429 (a socket closed on unread bytes resets, and a browser then reports a network
 * error instead), and a dropped body costs no memory. The slot is given back when the answer is
 * sent or the connection closes.
 */
class GatedBody extends Transform {
  private bytes = 0;
  private refused: AppError | undefined;
  private isAdmitted = false;

  constructor(private readonly admit: () => AppError | undefined) {
    super();
  }

  /** Takes a slot now; false (and every further byte dropped) when refused. */
  enter(): boolean {
    this.isAdmitted = true;
    this.refused = this.admit();
    return this.refused === undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (!this.isAdmitted && this.bytes >= LARGE_SAVE_MIN_BYTES) this.enter();
    if (this.refused) done();
    else done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.refused);
  }
}

/**
 * A route's preParsing hook: large saves pass through `gate` (see GatedBody). Runs after the
 * session check, so the user is known; a body over the route's limit is left to Fastify's 413.
 */
export function createLargeSaveHook(gate: LargeSaveGate, userIdOf: (r: FastifyRequest) => string) {
  return async function gateLargeSave(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: Readable,
  ): Promise<Readable> {
    const length = Number(request.headers['content-length']);
    const limit = request.routeOptions.bodyLimit ?? Infinity;
    if (length < LARGE_SAVE_MIN_BYTES || length > limit) return payload;
    const gated = new GatedBody(() => {
      const entered = gate.tryEnter(userIdOf(request));
      if (typeof entered === 'string') return refusal(entered);
      // The answer's close comes whatever happens: sent, failed, or the client gone.
      reply.raw.once('close', entered);
      return undefined;
    });
    // Known to be large: the slot is taken (or refused) before the first byte is read.
    if (length >= LARGE_SAVE_MIN_BYTES) gated.enter();
    payload.once('error', (error) => gated.destroy(error));
    return payload.pipe(gated);
  };
}
