/**
 * How long the readiness call waits for its ping before it answers with the last one that
 * finished, whatever the database is doing. Short, so that on a loaded machine the answer still
 * comes within 100 ms (waiting 90 ms, the answers' 95th percentile was 133-146 ms under one
 * user's large saves); an idle database answers a ping well within it.
 */
export const READY_ANSWER_MS = 25;

/**
 * Whether the server is ready, from `ping` (db.ping: the database answers). One ping runs at a
 * time; a call that starts one waits for it at most `answerWithinMs`, and a call that finds one
 * still on its way does not wait: both answer with the last ping that finished (ready at start).
 * A database slow to answer because it is busy is still ready, and one that cannot be reached
 * makes its ping fail (refused at once, or after the ping's own connect timeout), so the answer
 * turns within about that time.
 */
export function createReadiness(
  ping: () => Promise<void>,
  answerWithinMs = READY_ANSWER_MS,
): () => Promise<boolean> {
  let isReachable = true;
  let running: Promise<void> | undefined;
  return async function isReady(): Promise<boolean> {
    // A ping still on its way: the database is busy (or slow to refuse); the last answer stands.
    if (running) return isReachable;
    running = ping()
      .then(
        () => {
          isReachable = true;
        },
        () => {
          isReachable = false;
        },
      )
      .finally(() => {
        running = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      running,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, answerWithinMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
    return isReachable;
  };
}
