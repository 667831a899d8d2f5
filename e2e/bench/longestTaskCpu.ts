import type { Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: { name?: string; data?: { cpuProfile?: CpuProfileChunk; timeDeltas?: number[] } };
}

/** A piece of a V8 CPU profile as traces carry it ('ProfileChunk' events). */
interface CpuProfileChunk {
  nodes?: {
    id: number;
    parent?: number;
    callFrame: { functionName?: string; url?: string; lineNumber?: number };
  }[];
  samples?: number[];
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
  const profiling = Boolean(process.env.ADLOOM_BENCH_PROFILE);
  await cdp.send('Tracing.start', {
    categories: `toplevel,devtools.timeline,disabled-by-default-devtools.timeline${
      profiling ? ',disabled-by-default-v8.cpu_profiler' : ''
    }`,
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
  if (profiling) explainProfiles(events);
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

/**
 * Prints where each profiled thread of the renderers spent its CPU time (ADLOOM_BENCH_PROFILE=1:
 * V8's sampling profiler, carried in the trace): per thread its sampled time, and the functions
 * with the most time, self and total (a function's total counts it once per sample however deep
 * it recurses). Names are the bundle's: build the app unminified to read them
 * (`npx vite build --minify false`, ADLOOM_E2E_DIST).
 */
function explainProfiles(events: TraceEvent[]): void {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.name === 'thread_name' && e.args?.name) threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
  interface Profile {
    thread: string;
    nodes: Map<number, { parent?: number; name: string }>;
    samples: number[];
    deltas: number[];
  }
  // A profile's chunks come from the profiler's thread; its 'Profile' event, from the thread profiled.
  const profiledThread = new Map<string, number>();
  for (const e of events) if (e.name === 'Profile') profiledThread.set(`${e.pid}:${e.id}`, e.tid);
  const profiles = new Map<string, Profile>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const key = `${e.pid}:${e.id ?? e.tid}`;
    let profile = profiles.get(key);
    if (!profile) {
      const tid = profiledThread.get(key) ?? e.tid;
      profile = {
        thread: threadNames.get(`${e.pid}:${tid}`) ?? `thread ${tid}`,
        nodes: new Map(),
        samples: [],
        deltas: [],
      };
      profiles.set(key, profile);
    }
    const chunk = e.args?.data?.cpuProfile;
    for (const node of chunk?.nodes ?? []) {
      const file = (node.callFrame.url ?? '').split('/').pop() ?? '';
      const name = `${node.callFrame.functionName || '(anonymous)'}${file ? ` ${file}:${(node.callFrame.lineNumber ?? 0) + 1}` : ''}`;
      profile.nodes.set(node.id, { parent: node.parent, name });
    }
    profile.samples.push(...(chunk?.samples ?? []));
    profile.deltas.push(...(e.args?.data?.timeDeltas ?? []));
  }
  for (const profile of profiles.values()) {
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    let busy = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      // A sample's time is the gap to the next one.
      const us = profile.deltas[i + 1] ?? 0;
      const leaf = profile.nodes.get(profile.samples[i]!);
      if (!leaf || leaf.name.startsWith('(idle)') || leaf.name.startsWith('(program)')) continue;
      busy += us;
      self.set(leaf.name, (self.get(leaf.name) ?? 0) + us);
      const seen = new Set<string>();
      for (
        let node: typeof leaf | undefined = leaf;
        node;
        node = profile.nodes.get(node.parent ?? -1)
      ) {
        if (seen.has(node.name)) continue;
        seen.add(node.name);
        total.set(node.name, (total.get(node.name) ?? 0) + us);
      }
    }
    if (busy < 20_000) continue;
    const top = (m: Map<string, number>, n: number) =>
      [...m]
        .filter(([name]) => !name.startsWith('(root)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(
          ([name, us]) =>
            `      ${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / busy).toFixed(0).padStart(3)}%  ${name}`,
        )
        .join('\n');
    console.log(
      `    profile of ${profile.thread}: ${(busy / 1000).toFixed(0)} ms sampled, not idle`,
    );
    console.log(`     self:\n${top(self, 12)}`);
    console.log(`     total:\n${top(total, 16)}`);
  }
}
