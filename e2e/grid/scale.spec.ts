import { expect, test } from '@playwright/test';
import { cell, loadSample, openHarness } from './harnessPage.ts';

// A million rows in real Chromium: open, scroll top to bottom, edit the last row, select all and
// delete, undo; combine to a million. Timings and long tasks are reported by grid.bench.ts;
// here the longest main-thread task is only recorded as an annotation.

test.beforeEach(async ({ page }) => {
  await openHarness(page);
});

test('a 1,000,000-row feed opens, scrolls to the end, edits the last row, selects all and deletes', async ({
  page,
}) => {
  await loadSample(page, 1_000_000);
  await expect(page.getByText('1,000,000 rows', { exact: true })).toBeVisible();
  await expect(cell(page, 'Modifier', 1)).toHaveValue('model 1');
  const grid = page.getByRole('grid', { name: 'Feed rows' });
  await expect(grid).toHaveAttribute('aria-rowcount', '1000001');

  await page.evaluate(() => window.__harness.resetLongTasks());
  const middle = await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight / 2;
    return element.scrollHeight;
  });
  expect(middle).toBeLessThan(33_000_000);
  await expect(page.getByRole('textbox', { name: /^Modifier, row 5\d{5}$/ }).first()).toBeVisible();
  await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
  const last = cell(page, 'Root', 1_000_000);
  await expect(last).toBeVisible();
  await expect(cell(page, 'Modifier', 1_000_000)).toHaveValue('model 1000000');
  const box = await last.boundingBox();
  const gridBox = await grid.boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(gridBox!.y + gridBox!.height + 1);

  await last.click();
  await page.keyboard.type('edited last');
  await page.keyboard.press('ArrowUp');
  await expect(last).toHaveValue('edited last');
  test.info().annotations.push({
    type: 'longest task while scrolling and typing (ms)',
    description: String(await page.evaluate(() => window.__harness.maxLongTask())),
  });

  await page.keyboard.press('Control+Home');
  await expect(cell(page, 'Root', 1)).toBeFocused();
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Delete (1,000,000)' }).click();
  await expect(page.getByText('0 rows', { exact: true })).toBeVisible();
  await expect(page.getByText('No rows yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('1,000,000 rows', { exact: true })).toBeVisible();
  await expect(cell(page, 'Root', 1)).toHaveValue('nike');
});

test('the combiner makes 1,000,000 rows off the main thread', async ({ page }) => {
  const thousand = Array.from({ length: 1000 }, (_, i) => `v${i + 1}`).join('\n');
  await page.getByRole('textbox', { name: 'Root', exact: true }).fill(thousand);
  await page.getByRole('textbox', { name: 'Modifier', exact: true }).fill(thousand);
  await expect(page.getByText('Combine will add 1,000,000 rows.')).toBeVisible();
  await page.getByRole('button', { name: 'Combine', exact: true }).click();
  await expect(page.getByText('Added 1,000,000 rows.')).toBeVisible();
  await expect(page.getByText('1,000,000 rows', { exact: true })).toBeVisible();
  await page.getByRole('grid').evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(cell(page, 'Root', 1_000_000)).toHaveValue('v1000');
  await expect(cell(page, 'Modifier', 1_000_000)).toHaveValue('v1000');
});

test('a 100,000-row CSV imports', async ({ page }) => {
  const lines = ['root,mod,var1,url,availability'];
  for (let i = 1; i <= 100_000; i += 1)
    lines.push(
      `brand ${i % 97},model ${i},colour ${i % 13},https://shop.example.com/p/${i},${i % 10 === 0 ? 'out of stock' : 'in stock'}`,
    );
  await page.getByLabel('Import CSV').setInputFiles({
    name: 'big.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lines.join('\n')),
  });
  await expect(page.getByRole('status').first()).toHaveText('Imported 100,000 rows.');
  await page.getByRole('grid').evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(cell(page, 'Modifier', 100_000)).toHaveValue('model 100000');
  await expect(cell(page, 'Status', 100_000)).toHaveValue('out of stock');
});
