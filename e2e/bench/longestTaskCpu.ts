import type { Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Traces the page's renderer while `run` runs and returns the longest task's CPU time on its
 * main thread. On a loaded machine a task's wall time (what 'longtask' entries report) can be
 * several times its CPU time; the CPU time says how much work the page itself did.
 */
export async function longestTaskCpu(page: Page, run: () => Promise<void>): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  let onComplete = () => {};
  const complete = new Promise<void>((done) => (onComplete = done));
  cdp.on('event', ({ method, params }) => {
    if (method === 'Tracing.dataCollected')
      events.push(...(params as { value: TraceEvent[] }).value);
    else if (method === 'Tracing.tracingComplete') onComplete();
  });
  await cdp.send('Tracing.start', {
    categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline',
    transferMode: 'ReportEvents',
  });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  const mainThreads = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let longest = 0;
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask'))
      continue;
    if (!mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    longest = Math.max(longest, (e.tdur ?? 0) / 1000);
  }
  return longest;
}
