import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { cell, MOD, signUp } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

async function createClient(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await expect(dialog.getByRole('button', { name: 'Add New' })).toBeDisabled();
  await dialog.getByLabel('Client name').fill(name);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(dialog).toHaveCount(0);
}

async function newFeed(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Feed' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Feed' });
  await dialog.getByLabel('Feed name').fill(name);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue(name);
}

test('a client, a feed, pasted rows, an edit, Delete (2), Save Feeds, and a reload keeps them', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('builder'), 'builder-password-1');
  await expect(page.getByLabel('Client (0)')).toBeVisible();
  await createClient(page, 'Acme Shoes');
  await expect(
    page.getByRole('status').filter({ hasText: 'Client "Acme Shoes" successfully created' }),
  ).toBeVisible();
  await expect(page.getByLabel('Client (1)')).toHaveValue('Acme Shoes');

  await createClient(page, 'Acme Shoes');
  await expect(page.getByLabel('Client (2)')).toHaveValue('Acme Shoes (1)');

  await newFeed(page, 'products');
  await cell(page, 'Root', 1).click();
  await page.evaluate(() =>
    navigator.clipboard.writeText(
      [
        'Root\tModifier\tVar 1\tVar 2\tVar 3\tFinal URL',
        'nike\trunning\t\t\t\thttps://a.test/1',
        'puma\tsuede\t\t\t\thttps://a.test/2',
        'asics\tgel\t\t\t\thttps://a.test/3',
      ].join('\n'),
    ),
  );
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Root', 3)).toHaveValue('asics');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();

  await cell(page, 'Modifier', 2).click();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('classic');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'Modifier', 2)).toHaveValue('classic');

  await page.getByRole('checkbox', { name: 'Select row 1', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Select row 3', exact: true }).check();
  await page.getByRole('button', { name: 'Delete (2)' }).click();
  await expect(cell(page, 'Root', 1)).toHaveValue('puma');
  await expect(cell(page, 'Root', 2)).toHaveCount(0);

  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Feeds successfully updated' }),
  ).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Client (2)')).toHaveValue('Acme Shoes (1)');
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('products');
  await expect(cell(page, 'Root', 1)).toHaveValue('puma');
  await expect(cell(page, 'Modifier', 1)).toHaveValue('classic');
  await expect(cell(page, 'Final URL', 1)).toHaveValue('https://a.test/2');

  // Choosing another client clears the rows; its default feed is there.
  await page.getByLabel('Client (2)').selectOption('Acme Shoes');
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('');
  await page.getByLabel('Feed', { exact: true }).selectOption('brands');
  await expect(cell(page, 'Root', 1)).toHaveValue('');

  await page.getByRole('button', { name: 'Delete Client' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Client' })
    .getByRole('button', { name: 'Delete Client' })
    .click();
  await expect(page.getByLabel('Client (1)')).toHaveValue('');
});
