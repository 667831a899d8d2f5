// What the browser benchmarks share: one step's figures, measuring a step (its time, the longest
// main-thread task's wall time from 'longtask' entries and its CPU time from a trace), the
// closing table and JSON line, and building the app when it is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT, WEB_DIST } from '../support/server.ts';
import { longestTaskCpu } from './longestTaskCpu.ts';

/** One measured step. */
export interface Figure {
  step: string;
  ms: number;
  longestTaskMs: number;
  /** CPU time of the longest main-thread task (thread time from a trace): the page's own work. */
  longestTaskCpuMs: number;
  peakHeapMb?: number;
  peakRendererMb?: number;
  target?: string;
}

/** How a benchmark's page keeps its long tasks (an init script installs these in the page). */
export interface LongTaskProbe {
  reset(page: Page): Promise<void>;
  /** Waits a frame: long task entries are delivered after the task. */
  nextPaint(page: Page): Promise<void>;
  maxLongTask(page: Page): Promise<number>;
}

/** What `measureStep` may also collect around a step (e.g. memory peaks). */
export type StepSampler = () => Promise<
  () => Promise<{ peakHeapMb?: number; peakRendererMb?: number }>
>;

/**
 * Runs one step and adds its figures. `run` may return the step's time as measured in the page;
 * otherwise the time around it is taken.
 */
export async function measureStep(
  figures: Figure[],
  page: Page,
  probe: LongTaskProbe,
  step: string,
  target: string | undefined,
  run: () => Promise<number | void>,
  sampler?: StepSampler,
): Promise<void> {
  await probe.reset(page);
  const stop = sampler ? await sampler() : null;
  let ms = 0;
  const longestTaskCpuMs = await longestTaskCpu(page, async () => {
    const started = Date.now();
    const inPageMs = await run();
    ms = typeof inPageMs === 'number' ? inPageMs : Date.now() - started;
    await probe.nextPaint(page);
  });
  const longestTaskMs = await probe.maxLongTask(page);
  const memory = stop ? await stop() : {};
  figures.push({
    step,
    ms: Math.round(ms),
    longestTaskMs: Math.round(longestTaskMs),
    longestTaskCpuMs: Math.round(longestTaskCpuMs),
    ...memory,
    target,
  });
  const pad = (n: number, width: number) => String(Math.round(n)).padStart(width);
  console.log(
    `  ${step.padEnd(44)} ${pad(ms, 7)} ms   longest task ${pad(longestTaskMs, 5)} ms (cpu ${pad(longestTaskCpuMs, 4)} ms)${
      memory.peakHeapMb !== undefined
        ? `   heap ${memory.peakHeapMb} MB, renderer ${memory.peakRendererMb} MB`
        : ''
    }`,
  );
}

/** Prints the figures as a table, then one JSON object as the last line (scripts/bench.mjs reads it). */
export function printFigures(figures: Figure[]): void {
  const hasMemory = figures.some((f) => f.peakHeapMb !== undefined);
  const memoryHead = hasMemory ? ' peak JS heap (MB) | peak renderer (MB) |' : '';
  console.log(
    `\n| step | ms | longest main-thread task (ms) | its CPU time (ms) |${memoryHead} target |`,
  );
  console.log(`|---|---:|---:|---:|${hasMemory ? '---:|---:|' : ''}---|`);
  for (const f of figures) {
    const memory = hasMemory ? ` ${f.peakHeapMb ?? ''} | ${f.peakRendererMb ?? ''} |` : '';
    console.log(
      `| ${f.step} | ${f.ms} | ${f.longestTaskMs} | ${f.longestTaskCpuMs} |${memory} ${f.target ?? ''} |`,
    );
  }
  const json: Record<string, number> = {};
  for (const f of figures) {
    const key = f.step
      .replace(/[^a-z0-9]+/gi, '_')
      .replace(/^_|_$/g, '')
      .toLowerCase();
    json[`${key}_ms`] = f.ms;
    json[`${key}_longest_task_ms`] = f.longestTaskMs;
    json[`${key}_longest_task_cpu_ms`] = f.longestTaskCpuMs;
    if (f.peakHeapMb !== undefined) json[`${key}_peak_heap_mb`] = f.peakHeapMb;
    if (f.peakRendererMb !== undefined) json[`${key}_peak_renderer_mb`] = f.peakRendererMb;
  }
  json.load_average_1m = Math.round(loadavg()[0]! * 100) / 100;
  json.cpus = cpus().length;
  console.log(JSON.stringify(json));
}

/** Builds the web app into WEB_DIST when it is not there. */
export function ensureWebAppBuilt(): void {
  if (existsSync(join(WEB_DIST, 'index.html'))) return;
  console.log(`Building the web app into ${WEB_DIST}…`);
  // The bundle, then the prerendered public pages (as `npm run build` makes them).
  for (const [command, args] of [
    ['npx', ['vite', 'build', '--outDir', WEB_DIST, '--emptyOutDir']],
    ['node', ['scripts/prerender.mjs', WEB_DIST]],
  ] as const) {
    const result = spawnSync(command, args, {
      cwd: join(REPO_ROOT, 'apps/web'),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (result.status !== 0) throw new Error('The web app did not build');
  }
}
