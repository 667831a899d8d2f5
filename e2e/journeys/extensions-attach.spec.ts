import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { cell, MOD, newCampaignTemplate, newTemplate, signUp } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

/** Two brands, two rows of Nike: one campaign per brand with the campaign pattern {root}. */
const ROWS = [
  'Nike\tAir Max\t\t\t\thttps://shop.test/nike/air-max',
  'Nike\tPegasus\t\t\t\thttps://shop.test/nike/pegasus',
  'Adidas\tUltraboost\t\t\t\thttps://shop.test/adidas/ultraboost',
];

/** Registers, makes a client whose feed holds ROWS (all selected) and a campaign template. */
async function startWithBrands(page: Page, prefix: string): Promise<void> {
  await signUp(page, uniqueEmail(prefix), `${prefix}-password-1`);
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('Shoe Shop');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
  await cell(page, 'Root', 1).click();
  await page.evaluate(
    (text) => navigator.clipboard.writeText(text),
    ['Root\tModifier\tVar 1\tVar 2\tVar 3\tFinal URL', ...ROWS].join('\n'),
  );
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Root', ROWS.length)).toHaveValue('Adidas');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await newCampaignTemplate(page, 'Brands', {
    campaign: '{root}',
    adGroup: '{root} {mod}',
    keyword: '{root} {mod}',
  });
}

/** A sitelink template on the Extensions tab: its link text and final URL use {root}. */
async function brandSitelinks(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Extensions' }).click();
  await page.getByLabel('Extension type').selectOption('Sitelink');
  await newTemplate(page, 'Brand sitelinks');
  await expect(page.getByLabel('Extension template')).toHaveValue('Brand sitelinks');
  await page.getByRole('textbox', { name: 'Link Text' }).fill('Shop {root}');
  await page
    .getByRole('textbox', { name: 'Final URL', exact: true })
    .fill('https://shop.test/{root}');
}

test('sitelinks of two brands land in their two campaigns, in the output and the Editor file', async ({
  page,
}) => {
  await startWithBrands(page, 'attach');
  await brandSitelinks(page);

  // Automatic: {root} is the whole campaign name, so each sitelink attaches to its campaign.
  const attachTo = page.getByRole('combobox', { name: 'Attach to' });
  await expect(attachTo).toHaveValue('auto');
  await expect(page.getByText(/^Automatic: \{root\} in the campaign name/)).toBeVisible();

  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  const sitelinks = page.getByRole('table', { name: 'Sitelink extensions' });
  await expect(sitelinks.getByRole('columnheader')).toHaveText([
    'Campaign',
    'Ad Group',
    'Link Text',
    'Description Line 1',
    'Description Line 2',
    'Final URL',
  ]);
  // Two Nike rows make one Nike sitelink; each brand's sitelink names its own campaign.
  await expect(sitelinks.getByRole('row')).toHaveCount(3);
  await expect(sitelinks.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    'Nike',
    '',
    'Shop Nike',
    '',
    '',
    'https://shop.test/Nike',
  ]);
  await expect(sitelinks.getByRole('row').nth(2).getByRole('cell')).toHaveText([
    'Adidas',
    '',
    'Shop Adidas',
    '',
    '',
    'https://shop.test/Adidas',
  ]);
  await expect(
    page.getByText('Attached to each campaign of campaign template "Brands".'),
  ).toBeVisible();

  const download = page.waitForEvent('download');
  await page
    .getByRole('button', {
      name: 'Download for Google Ads Editor: Sitelink extensions',
      exact: true,
    })
    .click();
  const file = await readFile(await (await download).path(), 'utf8');
  expect(file.split('\r\n').filter((line) => line !== '')).toEqual([
    '\uFEFFCampaign,Ad Group,Link Text,Description Line 1,Description Line 2,Final URL',
    'Nike,,Shop Nike,,,https://shop.test/Nike',
    'Adidas,,Shop Adidas,,,https://shop.test/Adidas',
  ]);

  // Attached to each ad group instead: one sitelink per ad group, in its campaign.
  await attachTo.selectOption('Ad group');
  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  await expect(
    page.getByText('Attached to each ad group of campaign template "Brands".'),
  ).toBeVisible();
  await expect(sitelinks.getByRole('row')).toHaveCount(4);
  await expect(sitelinks.getByRole('row').nth(2).getByRole('cell').first()).toHaveText('Nike');
  await expect(sitelinks.getByRole('row').nth(2).getByRole('cell').nth(1)).toHaveText(
    'Nike Pegasus',
  );

  // The campaign template that placed them changes: the kept sitelinks say so.
  const placed = page.getByText(/^Placed in the campaigns of campaign template ‘Brands’/);
  await expect(placed).toHaveCount(0);
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
  await page.getByLabel('Campaign name pattern').fill('{root} - Search');
  await page.getByRole('tab', { name: 'Extensions' }).click();
  await expect(placed).toBeVisible();
  await expect(page.getByText('Changed since: template')).toBeVisible();
  await expect(sitelinks.getByRole('row')).toHaveCount(4);
});

// Screenshots of the Extensions tab with its attachment at 390 px and 1440 px for a visual
// review; only when SCREENS_OUT names a folder.
for (const width of [390, 1440]) {
  test(`extensions attach screens at ${width} px`, async ({ page }) => {
    const out = process.env.SCREENS_OUT;
    test.skip(!out, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await startWithBrands(page, `attach-screens${width}`);
    await brandSitelinks(page);
    await page.getByRole('textbox', { name: 'Description Line 1' }).fill('Every {root} model');
    await page.getByRole('button', { name: 'Generate Extensions' }).click();
    await expect(page.getByText(/^Attached to each campaign/)).toBeVisible();
    // Description Line 2 is missing: every row is listed with the reason.
    await expect(
      page.getByRole('table', { name: 'Skipped and cleaned items' }).getByRole('row'),
    ).toHaveCount(4);
    const templates = page.getByRole('region', { name: 'Templates' });
    await templates.screenshot({ path: `${out}/extensions-attach-missing-${width}.png` });
    await page.getByRole('textbox', { name: 'Description Line 2' }).fill('Free returns');
    await page.getByRole('button', { name: 'Generate Extensions' }).click();
    await expect(
      page.getByRole('table', { name: 'Sitelink extensions' }).getByRole('row'),
    ).toHaveCount(3);
    await templates.screenshot({ path: `${out}/extensions-attach-${width}.png` });
  });
}
