import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyInstance } from 'fastify';

/** A request body at least this large (a big feed save) is followed by a collection once idle. */
export const IDLE_GC_MIN_BODY_BYTES = 1024 * 1024;
/**
 * The embedded database is reopened (main.ts) once the process, collected, is this much larger
 * than when it began to listen: what PGlite's memory kept of a 30 MB save or more.
 */
export const EMBEDDED_RECYCLE_GROWTH_BYTES = 192 * 1024 * 1024;
/** How long the server must have had no such request before it collects. */
export const IDLE_GC_DELAY_MS = 2000;

/** V8's garbage collector, exposed at run time (the flag works after start for this one). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * After a large request, once the server is quiet, collects the garbage it left. An idle server
 * allocates nothing, so V8 never collects on its own: the parsed rows of a 100k-row save (over
 * 100 MB of heap) would stay resident until the next busy moment. `collect` is V8's collector
 * unless a caller passes another; `afterCollect` runs next (main.ts: recycle the embedded
 * database when it kept much of what the request made it take).
 */
export function collectAfterLargeRequests(
  app: FastifyInstance,
  collect: () => void = exposeGc(),
  afterCollect: (collect: () => void) => void = () => {},
): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onResponse', async (request) => {
    if (Number(request.headers['content-length'] ?? 0) < IDLE_GC_MIN_BODY_BYTES) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      collect();
      afterCollect(collect);
    }, IDLE_GC_DELAY_MS);
    timer.unref();
  });
}
