import type { Page } from '@playwright/test';
import type { FeedStore } from '../../apps/web/src/features/feed-grid/feedStore.ts';

declare global {
  interface Window {
    __harness: {
      store: FeedStore;
      loadSample(rowCount: number): Promise<number>;
      longTasks: PerformanceEntry[];
      resetLongTasks(): void;
      maxLongTask(): number;
      nextPaint(): Promise<void>;
      waitForStatus(text: string): Promise<number>;
      waitForStatus(text: string): Promise<number>;
    };
  }
}

/** Opens the harness page and waits for the grid. */
export async function openHarness(page: Page): Promise<void> {
  const url = process.env.GRID_HARNESS_URL;
  if (!url)
    throw new Error(
      'GRID_HARNESS_URL is not set: run with e2e/playwright.config.ts (its grid project)',
    );
  await page.goto(url);
  await page.getByRole('grid', { name: 'Feed rows' }).waitFor();
}

/** Loads a generated sample feed of `rowCount` rows through the harness's worker. */
export async function loadSample(page: Page, rowCount: number): Promise<number> {
  return page.evaluate((n) => window.__harness.loadSample(n), rowCount);
}

/** The cell input of a column label and 1-based row number. */
export function cell(page: Page, column: string, row: number) {
  return page.getByRole('textbox', { name: `${column}, row ${row}`, exact: true });
}

/** The shown rows as arrays of cell values, read from the store. */
export function readRows(page: Page): Promise<string[][]> {
  return page.evaluate(() => {
    const store = window.__harness.store;
    const rows: string[][] = [];
    for (let i = 0; i < store.viewCount; i += 1) rows.push(store.getRowCells(store.getViewSlot(i)));
    return rows;
  });
}

/** Writes text to the system clipboard. */
export async function setClipboard(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
}

/** Reads the system clipboard. */
export function getClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}
