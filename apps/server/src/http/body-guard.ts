import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** How long a request body may take: silent for at most `idleMs`, whole within `totalMs`. */
export interface BodyTimeouts {
  idleMs: number;
  totalMs: number;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length.trim() !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

/**
 * A preParsing hook: the body reaches the parser through a stream that fails with 408
 * request_timeout when the client sends nothing for `idleMs`, or has not finished after
 * `totalMs`. The request stream itself is left alone (destroying it would close the socket
 * before the 408 is written); the answer carries `connection: close`.
 */
export function createBodyTimeoutHook(timeouts: BodyTimeouts) {
  return async function guardBody(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: Readable,
  ): Promise<Readable> {
    if (!hasBody(request)) return payload;
    const guarded = new PassThrough();
    const cutOff = (message: string) => {
      stop();
      payload.unpipe(guarded);
      payload.pause();
      guarded.destroy(new AppError('request_timeout', message));
    };
    const idle = setTimeout(
      () => cutOff('The request body stopped arriving. Please try again.'),
      timeouts.idleMs,
    );
    const total = setTimeout(
      () => cutOff('The request body took too long to arrive. Please try again.'),
      timeouts.totalMs,
    );
    idle.unref();
    total.unref();
    const onData = () => idle.refresh();
    function stop(): void {
      clearTimeout(idle);
      clearTimeout(total);
      payload.off('data', onData);
    }
    payload.on('data', onData);
    payload.once('end', stop);
    // A client that hangs up mid-body: the parser sees the request stream's own error.
    payload.once('error', (error) => {
      stop();
      guarded.destroy(error);
    });
    guarded.once('close', stop);
    reply.raw.once('close', stop);
    payload.pipe(guarded);
    return guarded;
  };
}
