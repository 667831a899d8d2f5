// Generation benchmark in real Chromium against the built app served by the real server: a
// person imports a feed of 10k or 100k rows, selects every row, builds a campaign template with
// {root}, {mod}, {var1} and {mt} (three keyword lines and a negative per row) and clicks
// 'Generate Keywords or Output'. Reports the time from the click to the output shown, the
// longest main-thread task (PerformanceObserver 'longtask'), the peak JS heap of the page's main
// thread (CDP Runtime.getHeapUsage, sampled) and the peak memory of the renderer process (page +
// workers, /proc RSS, sampled); then scrolling and copying the output. Then the ads: an RSA
// template of 3 fallbacks with 15 headlines and 4 descriptions each (texts with {root} and {mod},
// the first fallback too long for some rows, saved through the workspace API as the journeys do),
// 'Generate Ads' from the click to the ads shown, and the validators from a headline change to
// both scores shown (this includes the validators' 300 ms wait after a change). Every step also
// reports the longest main-thread task's CPU time from a trace (longestTaskCpu.ts): on a loaded
// 2-core machine a task's wall time can be several times the work the page did.
// Run: npx tsx e2e/bench/generation.bench.ts   (last line of output: one JSON object of figures)
// The app is taken from ADLOOM_E2E_DIST, else apps/web/dist (built first when it is missing).
import { readdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import {
  ensureWebAppBuilt,
  measureStep,
  printFigures,
  type Figure,
  type LongTaskProbe,
} from './figures.ts';
import { WEB_DIST, startServer, type RunningServer } from '../support/server.ts';
import { registerWithClient } from './newAccount.ts';

interface BenchWindow {
  __bench: {
    reset(): void;
    maxLongTask(): number;
    nextPaint(): Promise<void>;
    waitForStatus(text: string): Promise<number>;
    waitForScores(prefixes: string[], afterCalculating: boolean): Promise<number>;
    waitForTableRow(label: string): Promise<number>;
  };
  benchFile?: FileList;
}

const figures: Figure[] = [];
/** Feed sizes; `--rows 10000` runs one size (a quick check of the bench itself). */
const rowsArg = process.argv.indexOf('--rows');
const ROW_COUNTS = rowsArg >= 0 ? [Number(process.argv[rowsArg + 1])] : [10_000, 100_000];
/**
 * `--workers N`: the page's pool of engine workers set to N (localStorage 'adloom.engineWorkers');
 * without it the app sizes the pool to the machine (min(cores - 1, 4), at least 1).
 */
const workersArg = process.argv.indexOf('--workers');
const POOL_WORKERS = workersArg >= 0 ? Number(process.argv[workersArg + 1]) : undefined;
/**
 * `--no-copy`: the copy step is left out (headless Chromium 156 on a machine shared with other
 * browsers never answered it: the bench waited for its status for over ten minutes).
 */
const SKIPS_COPY = process.argv.includes('--no-copy');

/** Collects longtask entries from the first script of every document on (a string: see builder.bench.ts). */
const LONG_TASK_OBSERVER = `(() => {
  const longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const nextPaint = () =>
    new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  window.__bench = {
    reset: () => void (longTasks.length = 0),
    maxLongTask: () => longTasks.reduce((max, d) => Math.max(max, d), 0),
    nextPaint,
    waitForStatus: (text) => {
      const started = performance.now();
      return new Promise((resolve) => {
        const check = () => {
          const regions = document.querySelectorAll('[role="status"], [role="alert"]');
          if ([...regions].some((element) => element.textContent?.includes(text)))
            void nextPaint().then(() => resolve(performance.now() - started));
          else requestAnimationFrame(check);
        };
        check();
      });
    },
    // Every button whose aria-label starts with one of the prefixes shows a score
    // ('valid/total (percent)'); with afterCalculating, only after one showed 'Calculating...'.
    waitForScores: (prefixes, afterCalculating) => {
      const started = performance.now();
      const texts = () =>
        prefixes.map((prefix) => {
          const button = document.querySelector('[aria-label^="' + prefix + '"]');
          return button?.getAttribute('aria-label')?.slice(prefix.length) ?? '';
        });
      let hasCalculated = !afterCalculating;
      return new Promise((resolve) => {
        const check = () => {
          const now = texts();
          if (now.some((text) => text === 'Calculating...')) hasCalculated = true;
          if (hasCalculated && now.every((text) => /^\\d+\\/\\d+ \\(\\d+%\\)/.test(text)))
            void nextPaint().then(() => resolve(performance.now() - started));
          else requestAnimationFrame(check);
        };
        check();
      });
    },
    // The output table named label shows a row of output (its second rowgroup has a row).
    waitForTableRow: (label) => {
      const started = performance.now();
      return new Promise((resolve) => {
        const check = () => {
          const table = document.querySelector('[role="table"][aria-label="' + label + '"]');
          const body = table?.querySelectorAll('[role="rowgroup"]')[1];
          if (body?.querySelector('[role="row"]'))
            void nextPaint().then(() => resolve(performance.now() - started));
          else requestAnimationFrame(check);
        };
        check();
      });
    },
  };
})();`;

/** The renderer processes of the browser whose pid is given (descendants with --type=renderer). */
function rendererRssMb(browserPid: number): number {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(pid, ppid);
    } catch {
      // The process ended.
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (
      let p = parents.get(pid), hops = 0;
      p !== undefined && hops < 10;
      p = parents.get(p), hops++
    )
      if (p === browserPid) return true;
    return false;
  };
  let kb = 0;
  for (const pid of parents.keys()) {
    if (!isDescendant(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += Number(match?.[1] ?? 0);
    } catch {
      // The process ended.
    }
  }
  return kb / 1024;
}

/** Samples the page's JS heap and the renderers' memory every 50 ms until stopped. */
async function sampleMemory(page: Page, browserPid: number) {
  const cdp = await page.context().newCDPSession(page);
  let peakHeap = 0;
  let peakRenderer = 0;
  let isRunning = true;
  const loop = (async () => {
    try {
      while (isRunning) {
        const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
        peakHeap = Math.max(peakHeap, heap.usedSize / 1024 / 1024);
        peakRenderer = Math.max(peakRenderer, rendererRssMb(browserPid));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } catch {
      // The page went away: keep what was sampled.
    }
  })();
  return async () => {
    isRunning = false;
    await loop;
    await cdp.detach().catch(() => undefined);
    return { peakHeapMb: Math.round(peakHeap), peakRendererMb: Math.round(peakRenderer) };
  };
}

const probe: LongTaskProbe = {
  reset: (page) => page.evaluate(() => (window as unknown as BenchWindow).__bench.reset()),
  nextPaint: (page) => page.evaluate(() => (window as unknown as BenchWindow).__bench.nextPaint()),
  maxLongTask: (page) =>
    page.evaluate(() => (window as unknown as BenchWindow).__bench.maxLongTask()),
};

async function measure(
  page: Page,
  step: string,
  target: string | undefined,
  run: () => Promise<number | void>,
  memory?: { browserPid: number },
): Promise<void> {
  const sampler = memory ? () => sampleMemory(page, memory.browserPid) : undefined;
  await measureStep(figures, page, probe, step, target, run, sampler);
}

let userCounter = 0;

/** Short distinct words: one per headline, so no two headlines of a fallback are the same. */
const WORDS = [
  'deals',
  'sale',
  'offer',
  'online',
  'today',
  'outlet',
  'store',
  'shop',
  'picks',
  'range',
  'stock',
  'finds',
  'style',
  'value',
  'buys',
];

/**
 * The bench's RSA template: 3 fallbacks of 15 headlines and 4 descriptions. The first fallback's
 * headlines hold {root} and {mod} (too long from about row 1,000 on), the second
 * {mod} only, the third {root} only, so the validators find rows that need a later fallback.
 */
export function benchRsaTemplate(name: string) {
  const headlineOf = [
    (w: string) => `{root} {mod} ${w} sale`,
    (w: string) => `{mod} ${w}`,
    (w: string) => `{root} ${w}`,
  ];
  return {
    name,
    templates: headlineOf.map((headline, f) => ({
      headlines: WORDS.map((w) => ({ text: headline(w), pos: 0 })),
      descriptions: [1, 2, 3, 4].map((d) => ({
        text:
          f === 2
            ? `Shop {root} with free delivery and easy returns, offer ${d}.`
            : `Shop {root} {mod} today with free delivery and easy returns, offer ${d}.`,
        pos: 0,
      })),
      paths: ['shop', WORDS[f]!],
      labels: ['bench'],
    })),
  };
}

/** Saves the RSA template through the workspace API, then reloads so the page holds it. */
async function saveRsaTemplate(page: Page, client: string): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('adloom.token'));
  const saved = await page.request.post(new URL('/api/app/save-rsa-templates', page.url()).href, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: client, templates: [benchRsaTemplate('Bench ads')] },
  });
  if (saved.status() !== 200)
    throw new Error(`Saving the RSA template failed: ${saved.status()} ${await saved.text()}`);
  await page.reload();
  await page.getByRole('grid', { name: 'Rows of brands' }).waitFor();
}

async function startWithRows(
  browser: Browser,
  server: RunningServer,
  rowCount: number,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 1000 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await page.addInitScript(LONG_TASK_OBSERVER);
  if (POOL_WORKERS !== undefined)
    await page.addInitScript(
      (n) => localStorage.setItem('adloom.engineWorkers', String(n)),
      POOL_WORKERS,
    );
  userCounter += 1;
  await registerWithClient(
    page,
    server.url,
    `genbench-${Date.now().toString(36)}-${userCounter}@example.com`,
    `Bench client ${userCounter}`,
  );
  await saveRsaTemplate(page, `Bench client ${userCounter}`);

  await page.evaluate((n) => {
    const lines = ['Root,Modifier,Var 1,Var 2,Final URL'];
    for (let i = 1; i <= n; i += 1)
      lines.push(
        `brand ${i % 97},model ${i},colour ${i % 13},size ${i % 7},https://shop.example.com/p/${i}`,
      );
    const transfer = new DataTransfer();
    transfer.items.add(new File([lines.join('\n')], 'feed.csv', { type: 'text/csv' }));
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    input.files = transfer.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, rowCount);
  await page
    .getByRole('status')
    .filter({ hasText: `Imported ${rowCount.toLocaleString('en-US')} rows.` })
    .first()
    .waitFor({ timeout: 120_000 });
  // Saved, so the feed's browser draft (a copy of every row, written on the main thread a few
  // seconds after an edit) does not land inside a measured step.
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await page.getByText('Feeds successfully updated').first().waitFor({ timeout: 120_000 });
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();

  await page.getByRole('button', { name: 'New Template' }).click();
  const templateDialog = page.getByRole('dialog', { name: 'New Template' });
  await templateDialog.getByLabel('Template name').fill('Bench');
  await templateDialog.getByRole('button', { name: 'Add New' }).click();
  await page.getByLabel('Campaign name pattern').fill('{root} - Search');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod} - {mt}');
  const keywords: [string, string][] = [
    ['{root} {mod}', 'Broad'],
    ['{root} {mod}', 'Exact'],
    ['{mod} {var1}', 'Phrase'],
    ['cheap {mod}', 'Negative Broad'],
  ];
  for (const [i, [keyword, matchType]] of keywords.entries()) {
    await page.getByRole('button', { name: 'Add Keyword' }).click();
    await page.getByLabel(`Keyword ${i + 1}`, { exact: true }).fill(keyword);
    await page.getByLabel(`Match type ${i + 1}`, { exact: true }).selectOption(matchType);
  }
  return page;
}

const VALIDATORS = ['Fallback 1 validator: ', 'All fallbacks validator: '];

/** Resolves with the ms until every validator shows a score (after 'Calculating...' if asked). */
function waitForScores(page: Page, afterCalculating: boolean): Promise<number> {
  return page.evaluate(
    ({ prefixes, after }) =>
      (window as unknown as BenchWindow).__bench.waitForScores(prefixes, after),
    { prefixes: VALIDATORS, after: afterCalculating },
  );
}

/** The RSA tab: Generate Ads from the click to the ads shown; the validators after a change. */
async function benchAds(page: Page, browserPid: number, label: string): Promise<void> {
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await page.getByLabel('RSA template', { exact: true }).selectOption('Bench ads');
  await page.getByRole('region', { name: 'Fallback 1' }).waitFor();
  await waitForScores(page, false);
  for (const prefix of VALIDATORS)
    console.log(
      `    ${await page.locator(`[aria-label^="${prefix}"]`).first().getAttribute('aria-label')}`,
    );
  await page.locator('button:enabled', { hasText: /^Generate Ads$/ }).waitFor();

  await measure(
    page,
    `generate RSAs, 3 fallbacks x 15 headlines (${label} rows)`,
    label === '100,000' ? '< 3000 ms, longest task < 50 ms' : 'longest task < 50 ms',
    () =>
      page.evaluate(() => {
        const waiting = (window as unknown as BenchWindow).__bench.waitForTableRow(
          'Responsive Search Ads',
        );
        const button = Array.from(document.querySelectorAll('button')).find(
          (element) => element.textContent === 'Generate Ads',
        );
        if (!button || button.disabled) throw new Error('Generate Ads is not enabled');
        button.click();
        return waiting;
      }),
    { browserPid },
  );
  const count = await page.locator('.ad-output .output-table__count').first().textContent();
  console.log(`    ${count}`);

  await measure(
    page,
    `validators after a headline change (${label} rows)`,
    'longest task < 50 ms',
    async () => {
      const waiting = waitForScores(page, true);
      await page
        .getByRole('region', { name: 'Fallback 1' })
        .getByLabel('Headline 1', { exact: true })
        .fill('Get {root} {mod} deals');
      return waiting;
    },
    { browserPid },
  );
  for (const prefix of VALIDATORS)
    console.log(
      `    ${await page.locator(`[aria-label^="${prefix}"]`).first().getAttribute('aria-label')}`,
    );
}

async function benchGeneration(
  browser: Browser,
  server: RunningServer,
  browserPid: number,
  rowCount: number,
): Promise<void> {
  const label = rowCount.toLocaleString('en-US');
  const page = await startWithRows(browser, server, rowCount);
  await measure(
    page,
    `generate keywords from ${label} rows`,
    rowCount === 100_000 ? '< 3000 ms, longest task < 50 ms' : 'longest task < 50 ms',
    () =>
      page.evaluate((text) => {
        const w = window as unknown as BenchWindow;
        const waiting = w.__bench.waitForStatus(text);
        const button = Array.from(document.querySelectorAll('button')).find(
          (element) => element.textContent === 'Generate Keywords or Output',
        );
        button!.click();
        return waiting;
      }, `From ${label} rows:`),
    { browserPid },
  );
  const summary = await page
    .getByRole('status')
    .filter({ hasText: `From ${label} rows:` })
    .textContent();
  console.log(`    ${summary}`);

  // The same right after selecting the rows: the click also pays for handing them to the worker
  // (otherwise done while the template is edited).
  // A template change no longer clears the output (a build stays until it is generated again or
  // cleared): Clear empties it.
  await page.getByRole('button', { name: 'Clear Keywords' }).click();
  // The emptied table keeps its header row only.
  await page.locator('[role="table"][aria-label="Keywords"][aria-rowcount="1"]').waitFor();
  await page.getByRole('checkbox', { name: 'Select all rows' }).uncheck();
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).isDisabled();
  await measure(
    page,
    `select all + generate at once (${label} rows)`,
    undefined,
    () =>
      page.evaluate(async (text) => {
        const w = window as unknown as BenchWindow;
        document.querySelector<HTMLInputElement>('[aria-label="Select all rows"]')!.click();
        const started = performance.now();
        return (async () => {
          for (;;) {
            const button = Array.from(document.querySelectorAll('button')).find(
              (element) => element.textContent === 'Generate Keywords or Output',
            );
            if (button && !button.disabled) {
              const waiting = w.__bench.waitForStatus(text);
              button.click();
              await waiting;
              return performance.now() - started;
            }
            await new Promise((resolve) => requestAnimationFrame(resolve));
          }
        })();
      }, `From ${label} rows:`),
    { browserPid },
  );

  await measure(
    page,
    `scroll keyword output 40 x 400 px (${label})`,
    'longest task < 50 ms',
    async () => {
      await page.getByRole('table', { name: 'Keywords', exact: true }).hover();
      for (let i = 0; i < 40; i += 1) {
        await page.mouse.wheel(0, 400);
        await page.evaluate(() => (window as unknown as BenchWindow).__bench.nextPaint());
      }
    },
  );

  if (!SKIPS_COPY)
    await measure(page, `copy keyword output (${label})`, 'longest task < 50 ms', () =>
      page.evaluate(() => {
        const w = window as unknown as BenchWindow;
        const waiting = w.__bench.waitForStatus('Table contents copied to clipboard!');
        document.querySelector<HTMLButtonElement>('[aria-label="Copy Keywords"]')!.click();
        return waiting;
      }),
    );
  await benchAds(page, browserPid, label);

  // Control: the page does nothing while a worker computes for 2.5 s. Long tasks seen here come
  // from the machine (a busy 2-core host descheduling the page), not from the app.
  await measure(page, `control: idle page, busy worker 2.5 s (${label})`, undefined, () =>
    page.evaluate(async () => {
      const source =
        'const end = Date.now() + 2500; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); postMessage(x);';
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      const worker = new Worker(url);
      const started = performance.now();
      await new Promise((resolve) => {
        worker.onmessage = resolve;
      });
      worker.terminate();
      URL.revokeObjectURL(url);
      return performance.now() - started;
    }),
  );
  await page.context().close();
}

async function main(): Promise<void> {
  ensureWebAppBuilt();
  const server = await startServer();
  let browserServer: BrowserServer | null = null;
  try {
    browserServer = await chromium.launchServer({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    const browserPid = browserServer.process().pid ?? -1;
    const browser = await chromium.connect(browserServer.wsEndpoint());
    const pool = POOL_WORKERS === undefined ? 'sized to the machine' : String(POOL_WORKERS);
    console.log(
      `Chromium ${browser.version()}, ${server.url}, app from ${WEB_DIST}, engine workers: ${pool}\n`,
    );
    for (const rowCount of ROW_COUNTS) await benchGeneration(browser, server, browserPid, rowCount);
    await browser.close();
  } finally {
    await browserServer?.close();
    await server.stop();
  }

  printFigures(figures);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
