import { expect, test } from '@playwright/test';
import {
  cell,
  getClipboard,
  loadSample,
  openHarness,
  readRows,
  setClipboard,
} from './harnessPage.ts';

const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

test.beforeEach(async ({ page }) => {
  await openHarness(page);
});

test('cells are edited with the keyboard: Enter, Escape, arrows, Tab out and back; trimmed and cut to 30', async ({
  page,
}) => {
  const root1 = cell(page, 'Root', 1);
  await root1.click();
  await page.keyboard.type('  running shoes  ');
  // Tab commits and leaves the grid (one Tab stop); Shift+Tab comes back to the cell.
  await page.keyboard.press('Tab');
  await expect(root1).toHaveValue('running shoes');
  await expect(root1).not.toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(root1).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(cell(page, 'Modifier', 1)).toBeFocused();
  await page.keyboard.type('x'.repeat(40));
  await expect(cell(page, 'Modifier', 1)).toHaveValue('x'.repeat(30));
  await page.keyboard.press('Escape');
  await expect(cell(page, 'Modifier', 1)).toHaveValue('');
  await page.keyboard.press('ArrowLeft');
  await expect(root1).toBeFocused();

  await page.getByRole('button', { name: 'Add Row' }).click();
  const root2 = cell(page, 'Root', 2);
  await expect(root2).toBeFocused();
  await page.keyboard.type('boots');
  await page.keyboard.press('Shift+Enter');
  await expect(root2).toHaveValue('boots');
  await expect(root1).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(cell(page, 'Var 1', 1)).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.type('red');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'Var 1', 2)).toBeFocused();
  const url = `https://shop.example.com/${'p'.repeat(100)}`;
  await cell(page, 'Final URL', 2).fill(url);
  await cell(page, 'Final URL', 2).press('Tab');
  expect(await readRows(page)).toEqual([
    ['running shoes', '', 'red', '', '', '', ''],
    ['boots', '', '', '', '', url, ''],
  ]);
  // A Final URL is never cut (issue 36): no maxlength.
  await expect(cell(page, 'Final URL', 1)).not.toHaveAttribute('maxlength');
  await expect(root1).toHaveAttribute('maxlength', '30');
  // Status is the last cell: Tab from Final URL leaves the grid, the arrow reaches it.
  await cell(page, 'Final URL', 1).click();
  await page.keyboard.press('ArrowRight');
  await expect(cell(page, 'Status', 1)).toBeFocused();
  await page.keyboard.type('paused');
  await page.keyboard.press('Enter');
  expect((await readRows(page))[0]).toEqual(['running shoes', '', 'red', '', '', '', 'paused']);
});

test('a tab-separated block pastes at the focused cell, skipping a header line, and undo/redo it', async ({
  page,
}) => {
  await cell(page, 'Modifier', 1).click();
  await setClipboard(page, 'Modifier\tVar 1\nred\tsmall\nblue\tlarge\ngreen\tmedium\n');
  await page.keyboard.press(`${MOD}+V`);
  await expect(page.getByRole('status').first()).toContainText('Pasted 3 rows (2 added)');
  expect(await readRows(page)).toEqual([
    ['', 'red', 'small', '', '', '', ''],
    ['', 'blue', 'large', '', '', '', ''],
    ['', 'green', 'medium', '', '', '', ''],
  ]);
  await page.keyboard.press(`${MOD}+Z`);
  expect(await readRows(page)).toEqual([['', '', '', '', '', '', '']]);
  await page.keyboard.press(`${MOD}+Shift+Z`);
  await expect(cell(page, 'Modifier', 3)).toHaveValue('green');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', '2');
});

test("the browser's own undo never reaches a cell: Ctrl+Z in the filter box undoes the filter only", async ({
  page,
}) => {
  await loadSample(page, 5);
  const root1 = cell(page, 'Root', 1);
  await root1.dblclick();
  await page.keyboard.press('End');
  await page.keyboard.type('Edited');
  await page.keyboard.press('Enter');
  const filter = page.getByRole('searchbox', { name: 'Filter rows' });
  await filter.click();
  await page.keyboard.type('ni');
  // The page keeps one undo history: before the guard, these replayed the cell's typing.
  await page.keyboard.press(`${MOD}+Z`);
  await page.keyboard.press(`${MOD}+Z`);
  await page.keyboard.press(`${MOD}+Z`);
  await expect(filter).toHaveValue('');
  await expect(root1).toHaveValue('nikeEdited');
  await filter.click();
  expect((await readRows(page))[0]![0]).toBe('nikeEdited');
  // The Edit menu's Undo and Redo on the focused cell are the grid's own.
  await root1.click();
  await page.evaluate(() => document.execCommand('undo'));
  await expect(root1).toHaveValue('nike');
  await page.evaluate(() => document.execCommand('redo'));
  await expect(root1).toHaveValue('nikeEdited');
});

test('Ctrl+C copies the selected rows as tab-separated text', async ({ page }) => {
  await loadSample(page, 5);
  await page.getByRole('checkbox', { name: 'Select row 1', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Select row 3', exact: true }).check();
  await cell(page, 'Root', 2).click();
  await page.keyboard.press(`${MOD}+C`);
  expect(await getClipboard(page)).toBe(
    'nike\tmodel 1\tred\tkids\t\thttps://shop.example.com/nike/1\t\npuma\tmodel 3\tblack\tkids\t\thttps://shop.example.com/puma/3\t',
  );
});

test('select all follows the filter; Delete (n) removes those rows; row delete and undo', async ({
  page,
}) => {
  await loadSample(page, 40);
  await page.getByRole('searchbox', { name: 'Filter rows' }).fill('PUMA');
  await expect(page.getByText('4 of 40 rows')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Delete (4)' }).click();
  await expect(page.getByText('0 of 36 rows')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Filter rows' }).fill('');
  await expect(page.getByText('36 rows')).toBeVisible();
  expect((await readRows(page)).some((row) => row[0] === 'puma')).toBe(false);

  await page.getByRole('button', { name: 'Delete row 1', exact: true }).click();
  await expect(cell(page, 'Root', 1)).toHaveValue('adidas');
  await page.keyboard.press(`${MOD}+Z`);
  await expect(cell(page, 'Root', 1)).toHaveValue('nike');
  await page.getByRole('checkbox', { name: 'Select row 2', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Select row 3', exact: true }).check();
  await expect(page.getByRole('checkbox', { name: 'Select all rows' })).not.toBeChecked();
  await page.getByRole('button', { name: 'Delete (2)' }).click();
  await expect(page.getByText('34 rows')).toBeVisible();
});

test('a CSV file imports through the file input with a summary; bad files are refused', async ({
  page,
}) => {
  const long = 'y'.repeat(35);
  const csv = `Root,mod,Var 1,price,Final URL\nshoes,red,${long},9,https://a.test/1\nboots,blue,,3,https://a.test/2\n`;
  const input = page.getByLabel('Import CSV');
  await input.setInputFiles({ name: 'feed.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByRole('status').first()).toHaveText(
    'Imported 2 rows. 1 cell was cut to 30 characters: Var 1 in row 1. Not recognised: price.',
  );
  expect(await readRows(page)).toEqual([
    ['shoes', 'red', 'y'.repeat(30), '', '', 'https://a.test/1', ''],
    ['boots', 'blue', '', '', '', 'https://a.test/2', ''],
  ]);

  await input.setInputFiles({
    name: 'other.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('name,price\nshoe,1\n'),
  });
  // Headers that name no feed column: the person is asked to map them; Cancel imports nothing.
  const mapping = page.getByRole('dialog', { name: 'Choose the columns to import' });
  await mapping.getByRole('button', { name: 'Cancel' }).click();
  await expect(mapping).toHaveCount(0);
  await expect(page.getByRole('status').first()).toHaveText('other.csv was not imported.');
  await input.setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0, 1]),
  });
  await expect(page.getByRole('status').first()).toHaveText(
    'This file is not a CSV text file. Nothing was imported.',
  );
  expect(await readRows(page)).toHaveLength(2);

  await page.getByRole('button', { name: 'Undo' }).click();
  expect(await readRows(page)).toEqual([['', '', '', '', '', '', '']]);
});

test('a CSV file dropped on the grid imports', async ({ page }) => {
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(['root,url\ndropped,https://d.test\n'], 'drop.csv', { type: 'text/csv' }),
    );
    return transfer;
  });
  await page.getByRole('grid').dispatchEvent('dragover', { dataTransfer });
  await page.getByRole('grid').dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('status').first()).toHaveText('Imported 1 row.');
  await expect(cell(page, 'Root', 1)).toHaveValue('dropped');
});

test('the combiner shows the row count, zips linked columns and refuses unequal linked columns', async ({
  page,
}) => {
  await page.getByRole('textbox', { name: 'Root', exact: true }).fill('nike\npuma');
  await page.getByRole('textbox', { name: 'Modifier', exact: true }).fill('nike.com\npuma.com');
  await page.getByRole('textbox', { name: 'Var 1', exact: true }).fill('red\nblue\ngreen');
  await expect(page.getByText('Combine will add 12 rows.')).toBeVisible();
  await page.getByRole('button', { name: 'Link Root and Modifier' }).click();
  await expect(page.getByRole('button', { name: 'Link Root and Modifier' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByText('Combine will add 6 rows.')).toBeVisible();
  await page.getByRole('button', { name: 'Link Modifier and Var 1' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Linked variables must have the same number of rows',
  );
  await expect(page.getByRole('button', { name: 'Combine', exact: true })).toBeDisabled();
  await page.getByRole('button', { name: 'Unlink All' }).click();
  await page.getByRole('button', { name: 'Link Root and Modifier' }).click();
  await page.getByRole('button', { name: 'Combine', exact: true }).click();
  await expect(page.getByText('Added 6 rows.')).toBeVisible();
  expect(await readRows(page)).toEqual([
    ['nike', 'nike.com', 'red', '', '', '', ''],
    ['nike', 'nike.com', 'blue', '', '', '', ''],
    ['nike', 'nike.com', 'green', '', '', '', ''],
    ['puma', 'puma.com', 'red', '', '', '', ''],
    ['puma', 'puma.com', 'blue', '', '', '', ''],
    ['puma', 'puma.com', 'green', '', '', '', ''],
  ]);
  await page.getByRole('button', { name: 'Combine', exact: true }).click();
  await expect(page.getByText('6 rows', { exact: true })).toHaveCount(0);
  await expect(page.getByText('12 rows', { exact: true })).toBeVisible();
});
