import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { cell, newCampaignTemplate, startWithRows } from './support.ts';

// The builder with the keyboard only: from the top of the page through a 5,000-row grid (one
// Tab stop) to Generate and the output, with Tab, Shift+Tab, arrows, Enter and Space.
// With SCREENS_OUT set, the grid with a focused cell is saved at 1440 and 390 px.
const out = process.env.SCREENS_OUT;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Presses Tab (Shift+Tab when `back`) until `isThere` holds; returns how many presses it took. */
async function tabUntil(
  page: Page,
  isThere: () => boolean,
  options: { max: number; back?: boolean },
): Promise<number> {
  for (let presses = 0; presses <= options.max; presses += 1) {
    if (await page.evaluate(isThere)) return presses;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Not reached in ${options.max} presses`);
}

test('from the top of the builder through a 5,000-row grid to Generate and the output, by keyboard', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const lines = ['root\tmod'];
  for (let i = 1; i <= 5000; i += 1) lines.push(`brand ${i % 50}\tmodel ${i}`);
  await startWithRows(page, 'keys', `${lines.join('\n')}\n`);
  await expect(page.getByText('5,000 rows', { exact: true })).toBeVisible();
  await newCampaignTemplate(page, 'Brands', {
    campaign: '{root} - Search',
    adGroup: '{root} {mod}',
    keyword: '{root} {mod}',
  });
  const generate = page.getByRole('button', { name: 'Generate Keywords or Output' });
  await expect(generate).toBeDisabled();

  // The top of the page: the first link of the header. From here on, only keys.
  await page.getByRole('link', { name: 'Adloom campaign builder' }).focus();
  const toGrid = await tabUntil(
    page,
    () => document.activeElement?.closest('[role="grid"]') !== null,
    { max: 60 },
  );
  await expect(cell(page, 'Root', 1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(cell(page, 'Modifier', 2)).toBeFocused();
  await expect(cell(page, 'Modifier', 2)).toHaveValue('model 2');
  if (out) {
    const table = page.getByRole('region', { name: 'Data Table' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // Away and back, so the narrower grid scrolls the focused cell into view.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      await table.screenshot({ path: `${out}/feed-grid-focus-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  }

  // Select every row from the header's select box: up into the header, left to the box, Space.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('columnheader', { name: 'Modifier' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const selectAll = page.getByRole('checkbox', { name: 'Select all rows' });
  await expect(selectAll).toBeFocused();
  await page.keyboard.press('Space');
  await expect(selectAll).toBeChecked();
  await expect(page.getByRole('button', { name: 'Delete (5,000)' })).toBeVisible();

  // One Tab leaves the grid, Shift+Tab comes back to the same cell.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[role="grid"]') ?? null)).toBe(
    null,
  );
  await page.keyboard.press('Shift+Tab');
  await expect(selectAll).toBeFocused();

  await expect(generate).toBeEnabled();
  const toGenerate = await tabUntil(
    page,
    () => document.activeElement?.textContent === 'Generate Keywords or Output',
    { max: 60 },
  );
  // Today 19 + 38 presses; the bound leaves room for controls added later, not for 30,000 cells.
  expect(toGrid + toGenerate).toBeLessThan(80);
  test.info().annotations.push({
    type: 'Tab presses: top of the page to the grid, grid to Generate',
    description: `${toGrid}, ${toGenerate}`,
  });
  await expect(generate).toBeFocused();
  await page.keyboard.press('Enter');
  const keywords = page.getByRole('table', { name: 'Keywords', exact: true });
  await expect(keywords.getByRole('row').nth(1)).toContainText('brand 1 - Search', {
    timeout: 60_000,
  });
  // The focus moves to what Generate made: the output table; its tools sit above it.
  await expect(keywords).toBeFocused();
  await tabUntil(
    page,
    () => document.activeElement?.getAttribute('aria-label') === 'Copy Keywords',
    { max: 15, back: true },
  );
  await expect(page.getByRole('button', { name: 'Copy Keywords' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Table contents copied to clipboard!')).toBeVisible();
});
