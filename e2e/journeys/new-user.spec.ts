import { expect, test } from '../fixtures.ts';
import { cell, MOD, startWithClient } from './support.ts';

// What a new user tripped over (issue 38), each walked through as they met it.

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test("a cell keeps what was typed when Ctrl+Z is pressed outside the grid, and that is what's saved", async ({
  page,
}) => {
  await startWithClient(page, 'undo-outside');
  await cell(page, 'Root', 1).click();
  await page.evaluate(() => navigator.clipboard.writeText('Nike\nPuma'));
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Root', 2)).toHaveValue('Puma');
  await cell(page, 'Root', 1).dblclick();
  await page.keyboard.press('End');
  await page.keyboard.type('Edited');
  await page.keyboard.press('Enter');
  // Ctrl+Z in the filter box takes back the filter's typing, never the cell's.
  const filter = page.getByRole('searchbox', { name: 'Filter rows' });
  await filter.click();
  await page.keyboard.type('ik');
  await page.keyboard.press(`${MOD}+Z`);
  await page.keyboard.press(`${MOD}+Z`);
  await page.keyboard.press(`${MOD}+Z`);
  await expect(filter).toHaveValue('');
  await expect(cell(page, 'Root', 1)).toHaveValue('NikeEdited');
  // The grid's own Undo, Redo, then Ctrl+Z in the cell: one step back each time.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(cell(page, 'Root', 1)).toHaveValue('Nike');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(cell(page, 'Root', 1)).toHaveValue('NikeEdited');
  await cell(page, 'Root', 2).click();
  await page.keyboard.press(`${MOD}+Z`);
  await expect(cell(page, 'Root', 1)).toHaveValue('Nike');
  await page.keyboard.press(`${MOD}+Shift+Z`);
  await expect(cell(page, 'Root', 1)).toHaveValue('NikeEdited');
  await filter.click();
  await page.keyboard.press(`${MOD}+Z`);
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await page.reload();
  await expect(cell(page, 'Root', 1)).toHaveValue('NikeEdited');
  await expect(cell(page, 'Root', 2)).toHaveValue('Puma');
});
