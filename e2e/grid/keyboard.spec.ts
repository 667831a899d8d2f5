import { expect, test, type Locator, type Page } from '@playwright/test';
import { cell, loadSample, openHarness } from './harnessPage.ts';

// The ARIA grid pattern on a 1,000,000-row feed, one key at a time: the grid is one Tab stop,
// arrows and Page/Home/End keys move the focused cell (scrolling the window so it exists), and
// Shift with Space, arrows or a click selects rows.

test.beforeEach(async ({ page }) => {
  await openHarness(page);
  await loadSample(page, 1_000_000);
  await expect(page.getByText('1,000,000 rows', { exact: true })).toBeVisible();
});

const grid = (page: Page) => page.getByRole('grid', { name: 'Feed rows' });

/** The focused element is `target`, and it is inside the grid's visible box. */
async function expectFocusedInView(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const box = await target.boundingBox();
  const gridBox = await grid(page).boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(gridBox!.y - 1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(gridBox!.y + gridBox!.height + 1);
}

/** Whether the keyboard focus is anywhere inside the grid. */
const isFocusInGrid = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[role="grid"]') !== null);

test('the grid is one Tab stop: Tab enters on the active cell and leaves after it', async ({
  page,
}) => {
  await expect(grid(page)).toHaveAttribute('aria-rowcount', '1000001');
  await expect(grid(page).locator('[tabindex="0"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Add Row' }).focus();
  await page.keyboard.press('Tab');
  await expect(cell(page, 'Root', 1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(cell(page, 'Modifier', 2)).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await isFocusInGrid(page)).toBe(false);
  await expect(page.getByRole('textbox', { name: 'Root', exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(cell(page, 'Modifier', 2)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Add Row' })).toBeFocused();
});

test('arrows move one cell, into the header row and onto the select box and delete button', async ({
  page,
}) => {
  await cell(page, 'Var 1', 1).click();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('columnheader', { name: 'Var 1' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('checkbox', { name: 'Select all rows' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('checkbox', { name: 'Select row 1', exact: true })).toBeFocused();
  await page.keyboard.press('End');
  await expect(cell(page, 'Status', 1)).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Delete row 1', exact: true })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(cell(page, 'Root', 1)).toBeFocused();
  // Down past the rows drawn at first: the window scrolls so the cell exists and is focused.
  for (let i = 0; i < 40; i += 1) await page.keyboard.press('ArrowDown');
  await expectFocusedInView(page, cell(page, 'Root', 41));
  await expect(grid(page).locator('[tabindex="0"]')).toHaveCount(1);
});

test('Ctrl+End and Ctrl+Home go to the last and first cell and scroll them into view', async ({
  page,
}) => {
  await cell(page, 'Modifier', 3).click();
  await page.keyboard.press('Control+End');
  await expectFocusedInView(page, cell(page, 'Status', 1_000_000));
  await page.keyboard.press('Control+Home');
  await expectFocusedInView(page, cell(page, 'Root', 1));
  await page.keyboard.press('Control+ArrowDown');
  await expectFocusedInView(page, cell(page, 'Root', 1_000_000));
  await expect(cell(page, 'Modifier', 1_000_000)).toHaveValue('model 1000000');
});

test('Page Down and Page Up move by a page of rows', async ({ page }) => {
  await cell(page, 'Var 1', 1).click();
  await page.keyboard.press('PageDown');
  await expectFocusedInView(page, cell(page, 'Var 1', 14));
  await page.keyboard.press('PageDown');
  await expectFocusedInView(page, cell(page, 'Var 1', 27));
  await page.keyboard.press('PageUp');
  await expectFocusedInView(page, cell(page, 'Var 1', 14));
  await page.keyboard.press('PageUp');
  await page.keyboard.press('PageUp');
  await expectFocusedInView(page, cell(page, 'Var 1', 1));
});

test('scrolled away, Tab comes back to the active cell and scrolls it into view', async ({
  page,
}) => {
  await cell(page, 'Modifier', 5).click();
  await page.getByRole('button', { name: 'Add Row' }).focus();
  await grid(page).evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
  await expect(page.getByRole('textbox', { name: /^Modifier, row 5\d{5}$/ }).first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expectFocusedInView(page, cell(page, 'Modifier', 5));
});

test('typing replaces the focused cell; Enter on the last row adds a row below', async ({
  page,
}) => {
  await cell(page, 'Root', 1).click();
  await page.keyboard.press('Control+End');
  await expect(cell(page, 'Status', 1_000_000)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(cell(page, 'Var 3', 1_000_000)).toBeFocused();
  await page.keyboard.type('last');
  await page.keyboard.press('Enter');
  await expect(page.getByText('1,000,001 rows', { exact: true })).toBeVisible();
  await expect(cell(page, 'Var 3', 1_000_000)).toHaveValue('last');
  await expectFocusedInView(page, cell(page, 'Var 3', 1_000_001));
  await expect(grid(page)).toHaveAttribute('aria-rowcount', '1000002');
  // Enter on a cell that is not being typed into edits it; Enter again commits and moves down.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await page.keyboard.type('!');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'Var 3', 1_000_000)).toHaveValue('last!');
  await expect(cell(page, 'Var 3', 1_000_001)).toBeFocused();
});

test('Shift+click, Shift+Space and Shift+Down/Up select ranges of rows', async ({ page }) => {
  const deleteSelected = (count: number) =>
    page.getByRole('button', { name: `Delete (${count})`, exact: true });
  const selectBox = (row: number) =>
    page.getByRole('checkbox', { name: `Select row ${row}`, exact: true });
  await selectBox(2).click();
  await cell(page, 'Var 2', 4).click({ modifiers: ['Shift'] });
  await expect(cell(page, 'Var 2', 4)).toBeFocused();
  await expect(deleteSelected(3)).toBeVisible();
  await selectBox(6).click({ modifiers: ['Shift'] });
  await expect(deleteSelected(5)).toBeVisible();

  await cell(page, 'Var 2', 4).click();
  for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+Space');
  await expect(selectBox(8)).toBeChecked();
  await expect(cell(page, 'Var 2', 8)).toHaveValue('kids');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(deleteSelected(9)).toBeVisible();
  await page.keyboard.press('Shift+ArrowUp');
  await expect(deleteSelected(8)).toBeVisible();
  await expect(selectBox(11)).not.toBeChecked();
  await expect(selectBox(10)).toBeChecked();
  await page.keyboard.press('Shift+PageDown');
  await expect(deleteSelected(21)).toBeVisible();
  await expectFocusedInView(page, cell(page, 'Var 2', 23));
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Shift+Space');
  await expect(deleteSelected(20)).toBeVisible();
  await deleteSelected(20).click();
  await expect(page.getByText('999,980 rows', { exact: true })).toBeVisible();
  await grid(page).evaluate((element) => (element.scrollTop = 0));
  await expect(cell(page, 'Modifier', 2)).toHaveValue('model 7');
  await expect(cell(page, 'Modifier', 3)).toHaveValue('model 22');
  await expect(cell(page, 'Modifier', 4)).toHaveValue('model 24');
});
