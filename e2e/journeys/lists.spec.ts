import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { cell, MOD, openNavigation, signUp } from './support.ts';

const SAVED = 'Your data was successfully updated';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function openLists(page: Page): Promise<void> {
  await openNavigation(page);
  await page.getByRole('link', { name: 'Lists' }).click();
  await expect(page).toHaveURL(/\/lists$/);
  await expect(page.getByRole('heading', { name: 'Lists', level: 1 })).toBeVisible();
}

async function newItem(page: Page, item: 'Data Table' | 'List', name: string): Promise<void> {
  await page.getByRole('button', { name: `New ${item}` }).click();
  const dialog = page.getByRole('dialog', { name: `New ${item}` });
  await dialog.getByLabel(`${item} name`).fill(name);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel(item, { exact: true })).toHaveValue(name);
}

async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press(`${MOD}+V`);
}

async function saveChanges(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: SAVED }).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
}

test('the lists screen: tabs, new, copy, delete, and a reload shows what was saved', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('lists'), 'lists-password-1');
  await openLists(page);
  const tableTab = page.getByRole('tab', { name: 'Data Tables' });
  const listTab = page.getByRole('tab', { name: 'Lists' });
  await expect(tableTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Copy Data Table' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete Data Table' })).toBeDisabled();

  // A data table with all six columns.
  await newItem(page, 'Data Table', 'shoes');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await cell(page, 'Root', 1).click();
  await paste(page, 'nike\tair\t\t\t\thttps://a.test/1\npuma\tsuede\t\t\t\thttps://a.test/2');
  await expect(cell(page, 'Final URL', 2)).toHaveValue('https://a.test/2');
  await saveChanges(page);

  // Copy: same rows under a unique name, and it becomes active.
  await page.getByRole('button', { name: 'Copy Data Table' }).click();
  await expect(page.getByLabel('Data Table', { exact: true })).toHaveValue('shoes (1)');
  await expect(cell(page, 'Modifier', 2)).toHaveValue('suede');
  await cell(page, 'Root', 1).fill('adidas');
  await cell(page, 'Root', 1).press('Enter');
  await saveChanges(page);

  // The copy's rows are its own: the original is unchanged.
  await page.getByLabel('Data Table', { exact: true }).selectOption('shoes');
  await expect(cell(page, 'Root', 1)).toHaveValue('nike');

  // Row selection and Delete (n).
  await page.getByRole('checkbox', { name: 'Select row 1', exact: true }).check();
  await expect(page.getByRole('button', { name: 'Delete (1)' })).toBeEnabled();

  // Switching tabs clears the selection; the Lists tab shows only Root.
  await listTab.click();
  await expect(listTab).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('List', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('List', { exact: true }).locator('option')).toHaveText([
    'No lists yet',
  ]);
  await newItem(page, 'List', 'cities');
  await expect(page.getByRole('columnheader', { name: 'Root' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Modifier' })).toHaveCount(0);
  await cell(page, 'Root', 1).click();
  await paste(page, 'london\tignored\nparis\nrome');
  await expect(cell(page, 'Root', 3)).toHaveValue('rome');
  await page.getByRole('checkbox', { name: 'Select row 2', exact: true }).check();
  await page.getByRole('button', { name: 'Delete (1)' }).click();
  await expect(cell(page, 'Root', 2)).toHaveValue('rome');
  await saveChanges(page);

  await tableTab.click();
  await expect(page.getByLabel('Data Table', { exact: true })).toHaveValue('');
  await page.getByLabel('Data Table', { exact: true }).selectOption('shoes');
  await expect(page.getByRole('button', { name: 'Delete (0)' })).toBeDisabled();

  // Delete asks first, then saves the whole set.
  await page.getByRole('button', { name: 'Delete Data Table' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Data Table' });
  await expect(confirm).toContainText('shoes');
  await confirm.getByRole('button', { name: 'Delete Data Table' }).click();
  await expect(page.getByRole('status').filter({ hasText: SAVED }).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await expect(page.getByLabel('Data Table', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Data Table', { exact: true }).locator('option')).toHaveText([
    'Select a data table',
    'shoes (1)',
  ]);

  await page.reload();
  await page.getByLabel('Data Table', { exact: true }).selectOption('shoes (1)');
  await expect(cell(page, 'Root', 1)).toHaveValue('adidas');
  await expect(cell(page, 'Final URL', 2)).toHaveValue('https://a.test/2');
  await page.getByRole('tab', { name: 'Lists' }).click();
  await page.getByLabel('List', { exact: true }).selectOption('cities');
  await expect(cell(page, 'Root', 1)).toHaveValue('london');
  await expect(cell(page, 'Root', 2)).toHaveValue('rome');
  await expect(cell(page, 'Root', 3)).toHaveCount(0);

  // The builder offers the saved list.
  await page.goto('/campaign-builder');
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('Acme');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
  await page.getByLabel('List', { exact: true }).selectOption('cities');
  await expect(cell(page, 'Root', 2)).toHaveValue('rome');
  // ... and the saved data table, whose rows come with all their columns.
  await page.getByLabel('List', { exact: true }).selectOption('shoes (1)');
  await expect(cell(page, 'Root', 3)).toHaveValue('adidas');
  await expect(cell(page, 'Final URL', 4)).toHaveValue('https://a.test/2');
});

test('the lists screen keeps unsaved edits and asks on a conflict', async ({ page, context }) => {
  await signUp(page, uniqueEmail('listsconflict'), 'lists-password-1');
  await openLists(page);
  await newItem(page, 'Data Table', 'base');
  await saveChanges(page);

  const other = await context.newPage();
  await other.goto('/lists');
  await other.getByLabel('Data Table', { exact: true }).selectOption('base');
  await expect(cell(other, 'Root', 1)).toHaveValue('');

  await cell(page, 'Root', 1).fill('first');
  await cell(page, 'Root', 1).press('Tab');
  await saveChanges(page);

  await cell(other, 'Root', 1).fill('second');
  await cell(other, 'Root', 1).press('Tab');
  await other.getByRole('button', { name: 'Save Changes' }).click();
  const dialog = other.getByRole('dialog', { name: 'A newer version was saved elsewhere' });
  await dialog.getByRole('button', { name: 'Load the newer version' }).click();
  await expect(cell(other, 'Root', 1)).toHaveValue('first');

  // An unsaved edit survives a closed tab.
  await cell(other, 'Root', 1).fill('kept');
  await cell(other, 'Root', 1).press('Tab');
  // The draft is written a moment after the edit: close the tab once it is kept.
  await expect(
    other.getByRole('status').filter({ hasText: 'Unsaved changes kept in this browser' }),
  ).toBeVisible();
  const asked = new Promise<string>((resolve) =>
    other.once('dialog', (prompt) => {
      resolve(prompt.type());
      void prompt.accept();
    }),
  );
  await other.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');

  const again = await context.newPage();
  await again.goto('/lists');
  const offer = again.getByRole('dialog', { name: 'Restore unsaved changes?' });
  await offer.getByRole('button', { name: 'Restore my changes' }).click();
  await expect(again.getByLabel('Data Table', { exact: true })).toHaveValue('base');
  await expect(cell(again, 'Root', 1)).toHaveValue('kept');
});
