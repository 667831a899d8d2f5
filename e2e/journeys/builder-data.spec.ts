import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { startServer } from '../support/server.ts';
import { cell, MOD, newCampaignTemplate, startWithClient } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Registers, creates a client (with its default feed 'brands') and waits for it to be saved. */
async function startWithSavedClient(page: Page, prefix: string): Promise<void> {
  await startWithClient(page, prefix);
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
}

test('a CSV file imports into the feed with a summary', async ({ page }) => {
  await startWithSavedClient(page, 'csv');
  const csv = `root,Modifier,colour,Final URL\nshoes,${'x'.repeat(34)},red,https://a.test/1\nboots,tall,blue,https://a.test/2\n`;
  await page.getByLabel('Import CSV').setInputFiles({
    name: 'feed.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(
    page.getByRole('status').filter({ hasText: 'Imported 2 rows' }).first(),
  ).toContainText('Not recognised: colour');
  await expect(cell(page, 'Root', 1)).toHaveValue('shoes');
  await expect(cell(page, 'Modifier', 1)).toHaveValue('x'.repeat(30));
  await expect(cell(page, 'Final URL', 2)).toHaveValue('https://a.test/2');

  await page.getByLabel('Import CSV').setInputFiles({
    name: 'nothing.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('price,stock\n1,2\n'),
  });
  // Headers that name no feed column ask for a mapping; Cancel imports nothing.
  const mapping = page.getByRole('dialog', { name: 'Choose the columns to import' });
  await mapping.getByRole('button', { name: 'Cancel' }).click();
  await expect(mapping).toHaveCount(0);
  await expect(cell(page, 'Root', 3)).toHaveCount(0);
  await expect(cell(page, 'Root', 1)).toHaveValue('shoes');

  // Not text at all: refused the same way.
  await page.getByLabel('Import CSV').setInputFiles({
    name: 'photo.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a, 0x0a]),
  });
  await expect(
    page.getByRole('alert').filter({ hasText: 'This file is not a CSV text file.' }).first(),
  ).toBeVisible();
  await expect(cell(page, 'Root', 3)).toHaveCount(0);
  await expect(cell(page, 'Root', 2)).toHaveValue('boots');
});

test('a CSV file dropped on the grid imports into the feed', async ({ page }) => {
  await startWithSavedClient(page, 'drop');
  const grid = page.getByRole('grid', { name: 'Rows of brands' });
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(
        ['Root,Final URL\ndropped,https://d.test/1\nsecond,https://d.test/2\n'],
        'drop.csv',
        {
          type: 'text/csv',
        },
      ),
    );
    return transfer;
  });
  await grid.dispatchEvent('dragover', { dataTransfer });
  await grid.dispatchEvent('drop', { dataTransfer });
  await expect(
    page.getByRole('status').filter({ hasText: 'Imported 2 rows' }).first(),
  ).toBeVisible();
  await expect(cell(page, 'Root', 1)).toHaveValue('dropped');
  await expect(cell(page, 'Final URL', 2)).toHaveValue('https://d.test/2');
  await expect(page.getByText('2 rows', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
});

test('the footer combines into the feed, with a link, and refuses unequal linked boxes', async ({
  page,
}) => {
  await startWithSavedClient(page, 'combine');
  const combiner = page.getByRole('region', { name: 'Combiner' });
  await combiner.getByRole('textbox', { name: 'Root' }).fill('nike\npuma');
  await combiner.getByRole('textbox', { name: 'Modifier' }).fill('air\nsuede');
  await combiner.getByRole('textbox', { name: 'Var 1' }).fill('men\nwomen');
  await combiner.getByRole('button', { name: 'Link Root and Modifier' }).click();
  await expect(combiner.getByText('Combine will add 4 rows.')).toBeVisible();
  await combiner.getByRole('button', { name: 'Combine', exact: true }).click();
  await expect(cell(page, 'Root', 4)).toHaveValue('puma');
  await expect(cell(page, 'Modifier', 4)).toHaveValue('suede');
  await expect(cell(page, 'Var 1', 4)).toHaveValue('women');
  await expect(cell(page, 'Root', 5)).toHaveCount(0);

  await combiner.getByRole('textbox', { name: 'Modifier' }).fill('air');
  await expect(
    combiner.getByRole('alert').filter({
      hasText: 'Linked variables must have the same number of rows',
    }),
  ).toBeVisible();
  await expect(combiner.getByRole('button', { name: 'Combine', exact: true })).toBeDisabled();
});

test('a seed box is saved as a list and fills another box and the rows', async ({ page }) => {
  await startWithSavedClient(page, 'seedlist');
  const combiner = page.getByRole('region', { name: 'Combiner' });
  await combiner.getByRole('textbox', { name: 'Var 2' }).fill('london\nparis');
  await combiner.getByRole('button', { name: 'Save List: Var 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save List' });
  await dialog.getByLabel('List name').fill('cities');
  await dialog.getByRole('button', { name: 'Save List' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'List saved successfully' }),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await combiner.getByLabel('List for Root').selectOption('cities');
  await expect(combiner.getByRole('textbox', { name: 'Root' })).toHaveValue('london\nparis');

  await page.getByLabel('List', { exact: true }).selectOption('cities');
  await expect(cell(page, 'Root', 2)).toHaveValue('paris');

  // The save-list modal closes on its backdrop.
  await combiner.getByRole('button', { name: 'Save List: Var 2' }).click();
  await expect(page.getByRole('dialog', { name: 'Save List' })).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(page.getByRole('dialog', { name: 'Save List' })).toHaveCount(0);
});

test('undo takes back a paste', async ({ page }) => {
  await startWithSavedClient(page, 'undo');
  await cell(page, 'Root', 1).click();
  await page.evaluate(() => navigator.clipboard.writeText('a\tb\nc\td'));
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Modifier', 2)).toHaveValue('d');
  await page.keyboard.press(`${MOD}+Z`);
  await expect(cell(page, 'Root', 1)).toHaveValue('');
  await expect(cell(page, 'Root', 2)).toHaveCount(0);
});

test('unsaved edits survive a closed tab and are offered back', async ({ page, context }) => {
  await startWithSavedClient(page, 'draft');
  await cell(page, 'Root', 1).fill('unsaved work');
  await cell(page, 'Root', 1).press('Tab');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  // The browser keeps the edit before anything closes the tab (a crash included).
  await expect(
    page.getByRole('status').filter({ hasText: 'Unsaved changes kept in this browser' }),
  ).toBeVisible();

  // Leaving asks first.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');

  const again = await context.newPage();
  await again.goto('/campaign-builder');
  const offer = again.getByRole('dialog', { name: 'Restore unsaved changes?' });
  await expect(offer).toBeVisible();
  await offer.getByRole('button', { name: 'Restore my changes' }).click();
  await expect(cell(again, 'Root', 1)).toHaveValue('unsaved work');
  await expect(again.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await again.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(again.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  await again.reload();
  await expect(cell(again, 'Root', 1)).toHaveValue('unsaved work');
  await expect(again.getByRole('dialog', { name: 'Restore unsaved changes?' })).toHaveCount(0);
});

test('two pages edit one feed: the second save opens the conflict dialog', async ({
  page,
  context,
}) => {
  await startWithSavedClient(page, 'conflict');
  const other = await context.newPage();
  await other.goto('/campaign-builder');
  await expect(cell(other, 'Root', 1)).toBeVisible();

  await cell(page, 'Root', 1).fill('first');
  await cell(page, 'Root', 1).press('Tab');
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  await cell(other, 'Root', 1).fill('second');
  await cell(other, 'Root', 1).press('Tab');
  await other.getByRole('button', { name: 'Save Feeds' }).click();
  const dialog = other.getByRole('dialog', { name: 'A newer version was saved elsewhere' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Load the newer version' }).click();
  await expect(cell(other, 'Root', 1)).toHaveValue('first');

  await cell(other, 'Root', 1).fill('third');
  await cell(other, 'Root', 1).press('Tab');
  await other.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(other.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  await cell(page, 'Root', 1).fill('fourth');
  await cell(page, 'Root', 1).press('Tab');
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await page
    .getByRole('dialog', { name: 'A newer version was saved elsewhere' })
    .getByRole('button', { name: 'Keep mine and overwrite' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await other.reload();
  await expect(cell(other, 'Root', 1)).toHaveValue('fourth');
});

test('Delete Feed asks first and saves; a feed linked to a sheet carries the marker', async ({
  page,
}) => {
  await startWithSavedClient(page, 'delfeed');
  // The seed boxes are 25 columns by 5 rows (spec section 2).
  const root = page
    .getByRole('region', { name: 'Combiner' })
    .getByRole('textbox', { name: 'Root' });
  await expect(root).toHaveAttribute('cols', '25');
  await expect(root).toHaveAttribute('rows', '5');

  await page.getByRole('button', { name: 'New Feed' }).click();
  await page.getByRole('dialog', { name: 'New Feed' }).getByLabel('Feed name').fill('brands');
  await page
    .getByRole('dialog', { name: 'New Feed' })
    .getByRole('button', { name: 'Add New' })
    .click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands (1)');

  await page.getByRole('button', { name: 'Delete Feed' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Feed' });
  await expect(confirm).toContainText('brands (1)');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands (1)');
  await page.getByRole('button', { name: 'Delete Feed' }).click();
  await confirm.getByRole('button', { name: 'Delete Feed' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Feeds successfully updated' }).first(),
  ).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('');

  // A feed linked to a spreadsheet (linking arrives with the sheets issue: saved through the API).
  const status = await page.evaluate(async () => {
    const response = await fetch('/api/app/feeds', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${localStorage.getItem('adloom.token') ?? ''}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        name: 'delfeed client',
        feeds: [
          { name: 'brands', dataType: 'table', sheetUrl: '', rows: [] },
          {
            name: 'stock',
            dataType: 'table',
            sheetUrl: 'https://docs.google.com/spreadsheets/d/abc',
            rows: [],
          },
        ],
      }),
    });
    return response.status;
  });
  expect(status).toBe(200);
  await page.reload();
  const feedSelect = page.getByLabel('Feed', { exact: true });
  await expect(feedSelect.locator('option')).toHaveText([
    'Select a feed',
    'brands',
    'stock (linked sheet)',
  ]);
});

test('a save the server refuses for its size names the limit and keeps the edits', async ({
  browser,
}) => {
  // A server of its own with a 4 KB body limit, so a small feed meets a real 413.
  const server = await startServer({ env: { BODY_LIMIT_BYTES: '4096' } });
  const context = await browser.newContext({
    baseURL: server.url,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  try {
    const page = await context.newPage();
    await startWithSavedClient(page, 'toobig');
    await cell(page, 'Root', 1).click();
    const url = `https://a.test/${'x'.repeat(400)}`;
    await page.evaluate(
      (text) => navigator.clipboard.writeText(text),
      Array.from({ length: 20 }, (_, i) => `row${i}\t\t\t\t\t${url}`).join('\n'),
    );
    await page.keyboard.press(`${MOD}+V`);
    await expect(page.getByText('20 rows', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Save Feeds' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Unable to save feed:' }).first(),
    ).toContainText('larger than the limit of 4 KiB');
    await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
    await expect(page.getByText('20 rows', { exact: true })).toBeVisible();

    // The edits are kept in the browser too (the marker says so once they are): a reload offers
    // them back.
    await expect(
      page.getByRole('status').filter({ hasText: 'Unsaved changes kept in this browser' }),
    ).toBeVisible();
    await page.reload();
    await page
      .getByRole('dialog', { name: 'Restore unsaved changes?' })
      .getByRole('button', { name: 'Restore my changes' })
      .click();
    await expect(page.getByText('20 rows', { exact: true })).toBeVisible();
    await expect(cell(page, 'Root', 2)).toHaveValue('row1');
  } finally {
    await context.close();
    await server.stop();
  }
});

test('a client deleted elsewhere: saving says so with the spec text and keeps the edits', async ({
  page,
  context,
}) => {
  await startWithSavedClient(page, 'gone');
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('other client');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Client (2)')).toHaveValue('other client');
  await page.getByLabel('Client (2)').selectOption('gone client');
  await page.getByLabel('Feed', { exact: true }).selectOption('brands');

  const other = await context.newPage();
  await other.goto('/campaign-builder');
  await expect(other.getByLabel('Client (2)')).toHaveValue('gone client');
  await other.getByRole('button', { name: 'Delete Client' }).click();
  await other
    .getByRole('dialog', { name: 'Delete Client' })
    .getByRole('button', { name: 'Delete Client' })
    .click();
  await expect(other.getByLabel('Client (1)')).toHaveValue('');
  await other.close();

  await cell(page, 'Root', 1).fill('still here');
  await cell(page, 'Root', 1).press('Tab');
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to save feed:' }).first(),
  ).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await expect(cell(page, 'Root', 1)).toHaveValue('still here');

  // Choosing the client that is gone says so too.
  await page.getByLabel('Client (2)').selectOption('other client');
  await page.getByLabel('Client (2)').selectOption('gone client');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Whoops. Something went wrong' }).first(),
  ).toBeVisible();
});

test('unsaved edits are saved by the autosave after 5 minutes', async ({ page }) => {
  await page.clock.install();
  await startWithSavedClient(page, 'autosave');
  await cell(page, 'Root', 1).fill('autosaved');
  await cell(page, 'Root', 1).press('Tab');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await page.clock.fastForward('04:00');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await page.clock.fastForward('01:05');
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  // Quietly: no success notice for an autosave.
  await expect(
    page.getByRole('status').filter({ hasText: 'Feeds successfully updated' }),
  ).toHaveCount(0);
  await page.reload();
  await expect(cell(page, 'Root', 1)).toHaveValue('autosaved');
  await expect(page.getByRole('dialog', { name: 'Restore unsaved changes?' })).toHaveCount(0);
});

test('an autosave the server refuses says so with the spec text and keeps the edits', async ({
  page,
}) => {
  await page.clock.install();
  await startWithSavedClient(page, 'autosavefail');
  await page.route('**/api/app/feeds', (route) =>
    route.fulfill({
      status: 429,
      json: { error: { code: 'rate_limited', message: 'Slow down' } },
    }),
  );
  await cell(page, 'Root', 1).fill('not yet saved');
  await cell(page, 'Root', 1).press('Tab');
  await page.clock.fastForward('05:05');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to save data: Slow down' }),
  ).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await expect(cell(page, 'Root', 1)).toHaveValue('not yet saved');

  // Save Feeds names the feed save.
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to save feed: Slow down' }),
  ).toHaveCount(1);
});

test('unsaved feed and template edits are offered back one at a time, feeds first', async ({
  page,
}) => {
  await startWithSavedClient(page, 'twooffers');
  await cell(page, 'Root', 1).fill('kept row');
  await cell(page, 'Root', 1).press('Tab');
  await newCampaignTemplate(page, 'Kept', {
    campaign: '{root}',
    adGroup: '{root} {mod}',
    keyword: '{root}',
  });
  await expect(
    page.getByRole('status').filter({ hasText: 'Unsaved changes kept in this browser' }),
  ).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const feeds = page.getByRole('dialog', { name: 'Restore unsaved changes?' });
  const templates = page.getByRole('dialog', { name: 'Restore unsaved template changes?' });
  await expect(feeds).toBeVisible();
  await expect(templates).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(feeds).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await feeds.getByRole('button', { name: 'Restore my changes' }).click();
  // Then the templates' offer, alone.
  await expect(templates).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await templates.getByRole('button', { name: 'Restore my changes' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(cell(page, 'Root', 1)).toHaveValue('kept row');
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
  await expect(page.getByLabel('Campaign template')).toHaveValue('Kept');
});
