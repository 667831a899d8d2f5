// Feed grid benchmark in real Chromium: opens 100k and 1M-row feeds, scrolls to the end, edits
// the last row, selects all and deletes; imports a 100k-row CSV; combines to 1M rows. Reports the
// time of each step and the longest main-thread task during it (PerformanceObserver 'longtask').
// Run: npx tsx e2e/grid/grid.bench.ts   (last line of output: one JSON object of figures)
import { chromium, type Page } from '@playwright/test';
import { measureStep, printFigures, type Figure, type LongTaskProbe } from '../bench/figures.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { buildHarness, startHarnessServer } from './harnessServer.ts';
import type {} from './harnessPage.ts';

const figures: Figure[] = [];

const probe: LongTaskProbe = {
  reset: (page) => page.evaluate(() => window.__harness.resetLongTasks()),
  nextPaint: (page) => page.evaluate(() => window.__harness.nextPaint()),
  maxLongTask: (page) => page.evaluate(() => window.__harness.maxLongTask()),
};

async function measure(
  page: Page,
  step: string,
  target: string | undefined,
  run: () => Promise<number | void>,
): Promise<void> {
  await measureStep(figures, page, probe, step, target, run);
}

async function waitForStatus(
  page: Page,
  text: string,
  start: () => Promise<void>,
): Promise<number> {
  const waiting = page.evaluate((expected) => window.__harness.waitForStatus(expected), text);
  await start();
  return waiting;
}

async function benchFeed(page: Page, rowCount: number): Promise<void> {
  const label = rowCount.toLocaleString('en-US');
  await measure(page, `open ${label} rows`, undefined, () =>
    page.evaluate((n) => window.__harness.loadSample(n), rowCount),
  );

  await measure(page, `wheel scroll 40 x 400 px (${label})`, 'longest task < 50 ms', async () => {
    await page.getByRole('grid', { name: 'Feed rows' }).hover();
    for (let i = 0; i < 40; i += 1) {
      await page.mouse.wheel(0, 400);
      await page.evaluate(() => window.__harness.nextPaint());
    }
  });

  // Dragging the scrollbar from top to bottom: 60 jumps, each showing a whole new window of rows.
  await measure(page, `scrollbar drag to end (${label})`, 'longest task < 50 ms', () =>
    page.evaluate(async (n) => {
      const scroller = document.querySelector<HTMLElement>('[role="grid"]')!;
      const started = performance.now();
      const steps = 60;
      for (let i = 1; i <= steps; i += 1) {
        scroller.scrollTop = (scroller.scrollHeight * i) / steps;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      while (!document.querySelector(`[aria-label="Root, row ${n}"]`))
        await new Promise((resolve) => requestAnimationFrame(resolve));
      return performance.now() - started;
    }, rowCount),
  );

  await measure(page, `edit last row (${label})`, 'longest task < 50 ms', async () => {
    const last = page.getByRole('textbox', { name: `Root, row ${rowCount}`, exact: true });
    await last.click();
    await page.keyboard.type('edited last row');
    await page.keyboard.press('Tab');
    const value = await last.inputValue();
    if (value !== 'edited last row') throw new Error(`The last row holds ${value}`);
  });

  await measure(
    page,
    `select all + delete (${label})`,
    rowCount >= 1_000_000 ? '< 200 ms' : undefined,
    () =>
      page.evaluate(async () => {
        const started = performance.now();
        document.querySelector<HTMLInputElement>('[aria-label="Select all rows"]')!.click();
        await window.__harness.nextPaint();
        const button = Array.from(document.querySelectorAll('button')).find((element) =>
          element.textContent?.startsWith('Delete ('),
        );
        button!.click();
        await window.__harness.nextPaint();
        if (window.__harness.store.rowCount !== 0) throw new Error('Rows remain after delete');
        return performance.now() - started;
      }),
  );
}

async function main(): Promise<void> {
  console.log('Building the grid harness…');
  buildHarness();
  const server = await startHarnessServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const newPage = async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await page.goto(server.url);
    await page.getByRole('grid', { name: 'Feed rows' }).waitFor();
    return page;
  };
  try {
    console.log(`Chromium ${browser.version()}, ${server.url}\n`);
    for (const rowCount of [100_000, 1_000_000]) {
      const page = await newPage();
      await benchFeed(page, rowCount);
      await page.close();
    }

    const csvPage = await newPage();
    // The file is made inside the page (Playwright's setInputFiles would copy 6 MB through the
    // main thread and count as a long task of the app); the timing starts at the input's change.
    await csvPage.evaluate(() => {
      const lines = ['root,mod,var1,var2,url,availability'];
      for (let i = 1; i <= 100_000; i += 1)
        lines.push(
          `brand ${i % 97},model ${i},colour ${i % 13},size ${i % 7},https://shop.example.com/p/${i},${i % 10 === 0 ? 'out of stock' : 'in stock'}`,
        );
      const transfer = new DataTransfer();
      transfer.items.add(new File([lines.join('\n')], 'feed.csv', { type: 'text/csv' }));
      (window as unknown as { benchFiles: FileList }).benchFiles = transfer.files;
    });
    await measure(csvPage, 'CSV import 100,000 rows', '< 2000 ms', () =>
      waitForStatus(csvPage, 'Imported 100,000 rows.', () =>
        csvPage.evaluate(() => {
          const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
          input.files = (window as unknown as { benchFiles: FileList }).benchFiles;
          input.dispatchEvent(new Event('change', { bubbles: true }));
        }),
      ),
    );
    await csvPage.close();

    const combinePage = await newPage();
    const thousand = Array.from({ length: 1000 }, (_, i) => `value ${i + 1}`).join('\n');
    await combinePage.getByRole('textbox', { name: 'Root', exact: true }).fill(thousand);
    await combinePage.getByRole('textbox', { name: 'Modifier', exact: true }).fill(thousand);
    await combinePage.getByText('Combine will add 1,000,000 rows.').waitFor();
    await measure(combinePage, 'combine to 1,000,000 rows', undefined, () =>
      waitForStatus(combinePage, 'Added 1,000,000 rows.', () =>
        combinePage.getByRole('button', { name: 'Combine', exact: true }).click(),
      ),
    );
    await combinePage.close();
  } finally {
    await browser.close();
    await server.close();
  }

  printFigures(figures);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
