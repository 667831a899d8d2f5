import type { Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
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
  let longestTask: TraceEvent | undefined;
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask'))
      continue;
    if (!mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    if ((e.tdur ?? 0) / 1000 > longest) {
      longest = (e.tdur ?? 0) / 1000;
      longestTask = e;
    }
  }
  if (process.env.ADLOOM_BENCH_EXPLAIN && longestTask) explainTask(events, longestTask);
  return longest;
}

/** Prints what the longest task spent its time on (ADLOOM_BENCH_EXPLAIN=1): its biggest events. */
function explainTask(events: TraceEvent[], task: TraceEvent): void {
  const start = task.ts ?? 0;
  const end = start + (task.dur ?? 0);
  const inside = events.filter(
    (e) =>
      e !== task &&
      e.ph === 'X' &&
      e.pid === task.pid &&
      e.tid === task.tid &&
      (e.ts ?? 0) >= start &&
      (e.ts ?? 0) <= end,
  );
  inside.sort((a, b) => (b.tdur ?? b.dur ?? 0) - (a.tdur ?? a.dur ?? 0));
  const described = inside
    .slice(0, 10)
    .map((e) => `${e.name} ${((e.tdur ?? e.dur ?? 0) / 1000).toFixed(1)} ms`);
  console.log(`    longest task: ${described.join(', ')}`);
}
