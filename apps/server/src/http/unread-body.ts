import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

/** The 400 of a body that ends before (or runs past) its Content-Length. */
export const BODY_LENGTH_MISMATCH_MESSAGE = 'The request body does not match its Content-Length.';

/**
 * A request body its route has not read yet. A route that takes a large binary body receives
 * it unread (`acceptUnreadBodies`), checks everything else first (the caller, the ids, the
 * headers, the declared size), and only then reads the bytes straight into the buffer they
 * are stored from. The stream is a private field: the text rule's walk over request bodies
 * finds nothing to look at.
 */
export class UnreadBody {
  readonly #stream: Readable;

  constructor(stream: Readable) {
    this.#stream = stream;
  }

  /** Reads the whole body into `target`, which must be exactly its declared length. */
  async readInto(target: Uint8Array): Promise<void> {
    let at = 0;
    for await (const chunk of this.#stream as AsyncIterable<Uint8Array>) {
      if (at + chunk.length > target.length)
        throw new AppError('bad_request', BODY_LENGTH_MISMATCH_MESSAGE);
      target.set(chunk, at);
      at += chunk.length;
    }
    if (at !== target.length) throw new AppError('bad_request', BODY_LENGTH_MISMATCH_MESSAGE);
  }

  /**
   * Reads a body sent without a length (chunked) as its chunks; `tooLarge` is thrown as soon as
   * more than `maxBytes` have arrived.
   */
  async readChunks(maxBytes: number, tooLarge: () => Error): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of this.#stream as AsyncIterable<Uint8Array>) {
      length += chunk.length;
      if (length > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return chunks;
  }
}

/**
 * In `app` (an encapsulated scope), bodies of `contentTypes` reach the route as an `UnreadBody`
 * and any other content type answers 415 with `message`. Fastify's body limit does not apply
 * to them: the route checks the declared length and `readChunks` counts the rest.
 */
export function acceptUnreadBodies(
  app: FastifyInstance,
  contentTypes: readonly string[],
  message: string,
): void {
  app.removeAllContentTypeParsers();
  for (const type of contentTypes)
    app.addContentTypeParser(type, (_request, payload, done) => {
      done(null, new UnreadBody(payload));
    });
  app.addContentTypeParser('*', (_request, _payload, done) => {
    done(new AppError('unsupported_media_type', message));
  });
}
