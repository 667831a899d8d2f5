import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../fixtures.ts';
import { cell, MOD, startWithClient } from './support.ts';

// Big feeds in the real campaign builder (the grid harness has its own scale tests). Values are
// checked, never timings: the benchmarks measure those.

test('a 1,000,000-row feed made by the combiner scrolls to the end, edits, selects all and deletes', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await startWithClient(page, 'million');
  const combiner = page.getByRole('region', { name: 'Combiner' });
  const hundred = (prefix: string) =>
    Array.from({ length: 100 }, (_, i) => `${prefix}${i + 1}`).join('\n');
  await combiner.getByRole('textbox', { name: 'Root' }).fill(hundred('brand '));
  await combiner.getByRole('textbox', { name: 'Modifier' }).fill(hundred('model '));
  await combiner.getByRole('textbox', { name: 'Var 1' }).fill(hundred('colour '));
  await expect(combiner.getByText('Combine will add 1,000,000 rows.')).toBeVisible();
  await combiner.getByRole('button', { name: 'Combine', exact: true }).click();
  // The default feed's one blank row is replaced.
  await expect(page.getByText('1,000,000 rows', { exact: true })).toBeVisible({
    timeout: 60_000,
  });
  const grid = page.getByRole('grid', { name: 'Rows of brands' });
  await expect(grid).toHaveAttribute('aria-rowcount', '1000001');
  await expect(cell(page, 'Root', 1)).toHaveValue('brand 1');

  // Drag the scrollbar to the bottom: the last row shows, inside the grid.
  await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
  const last = cell(page, 'Root', 1_000_000);
  await expect(last).toBeVisible();
  await expect(last).toHaveValue('brand 100');
  await expect(cell(page, 'Modifier', 1_000_000)).toHaveValue('model 100');
  await expect(cell(page, 'Var 1', 1_000_000)).toHaveValue('colour 100');
  const lastBox = await last.boundingBox();
  const gridBox = await grid.boundingBox();
  expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(gridBox!.y + gridBox!.height + 1);

  await last.click();
  await page.keyboard.type('edited last');
  await page.keyboard.press('ArrowUp');
  await expect(last).toHaveValue('edited last');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();

  // Back to the top with the keyboard, and the last row stays edited.
  await page.keyboard.press(`${MOD}+Home`);
  await expect(cell(page, 'Root', 1)).toBeFocused();
  await expect(cell(page, 'Root', 1)).toHaveValue('brand 1');
  await page.keyboard.press(`${MOD}+End`);
  await expect(cell(page, 'Root', 1_000_000)).toHaveValue('edited last');

  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Delete (1,000,000)' }).click();
  await expect(page.getByText('0 rows', { exact: true })).toBeVisible();
  await expect(grid).toHaveAttribute('aria-rowcount', '1');
  await expect(page.getByRole('button', { name: 'Delete (0)' })).toBeDisabled();

  // The delete is one undoable step: every row comes back, the edit with them.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('1,000,000 rows', { exact: true })).toBeVisible();
  await expect(cell(page, 'Root', 1)).toHaveValue('brand 1');
  await grid.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(cell(page, 'Root', 1_000_000)).toHaveValue('edited last');
});

test('a big CSV import shows its progress, then the rows', async ({ page }) => {
  test.setTimeout(120_000);
  const rowCount = 200_000;
  const lines = ['Root,Modifier,Var 1,Final URL'];
  for (let i = 1; i <= rowCount; i += 1)
    lines.push(`brand ${i % 97},model ${i},colour ${i % 13},https://shop.example.com/p/${i}`);
  const path = join(tmpdir(), `adloom-big-import-${process.pid}.csv`);
  await writeFile(path, `${lines.join('\n')}\n`);

  await startWithClient(page, 'bigimport');
  // Record every value the progress bar and its text take while the import runs.
  await page.evaluate(() => {
    const seen: { values: number[]; texts: string[] } = { values: [], texts: [] };
    (window as unknown as { importSeen: typeof seen }).importSeen = seen;
    const record = () => {
      const bar = document.querySelector<HTMLProgressElement>(
        'progress[aria-label="Import progress"]',
      );
      if (!bar) return;
      if (seen.values.at(-1) !== bar.value) seen.values.push(bar.value);
      const text = bar.parentElement?.textContent ?? '';
      if (seen.texts.at(-1) !== text) seen.texts.push(text);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['value'],
    });
  });
  await page.getByLabel('Import CSV').setInputFiles(path);
  await expect(
    page.getByRole('status').filter({ hasText: 'Imported 200,000 rows' }).first(),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveCount(0);

  const seen = await page.evaluate(
    () => (window as unknown as { importSeen: { values: number[]; texts: string[] } }).importSeen,
  );
  const between = seen.values.filter((value) => value > 0 && value < 1);
  expect(between.length).toBeGreaterThan(1);
  expect(seen.values).toEqual([...seen.values].sort((a, b) => a - b));
  expect(seen.texts.some((text) => /Importing… ([1-9]|[1-9]\d)%/.test(text))).toBe(true);

  await expect(page.getByText('200,000 rows', { exact: true })).toBeVisible();
  await expect(cell(page, 'Modifier', 1)).toHaveValue('model 1');
  await page
    .getByRole('grid', { name: 'Rows of brands' })
    .evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(cell(page, 'Modifier', rowCount)).toHaveValue(`model ${rowCount}`);
  await expect(cell(page, 'Final URL', rowCount)).toHaveValue(
    `https://shop.example.com/p/${rowCount}`,
  );
});
