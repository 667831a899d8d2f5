import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { cell, newTemplate, startWithRows } from './support.ts';

const SCREENS = process.env.SCREENS_OUT;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** The text of every row of an output table (cells joined by ' | '), header excluded. */
async function outputLines(page: Page, name: string): Promise<string[]> {
  const table = page.getByRole('table', { name, exact: true });
  const rows = table.getByRole('rowgroup').nth(1).getByRole('row');
  const count = await rows.count();
  const lines: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const cells = await rows.nth(i).getByRole('cell').allTextContents();
    lines.push(cells.join(' | '));
  }
  return lines;
}

/** Template drafts the browser keeps in IndexedDB (unsaved edits). */
function countTemplateDrafts(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('adloom-template-drafts');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('templateDrafts')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('templateDrafts').objectStore('templateDrafts').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

/** Fills the shown fallback: three headlines (the fourth deleted) and two descriptions. */
async function fillFallback(page: Page, headline1: string): Promise<void> {
  const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
  await fallback.getByRole('button', { name: 'Delete headline 4' }).click();
  await fallback.getByLabel('Headline 1', { exact: true }).fill(headline1);
  await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
  await fallback.getByLabel('Headline 3', { exact: true }).fill('Official store');
  await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} {mod} today.');
  await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
  await fallback.getByLabel('Path 1', { exact: true }).fill('{mod}');
}

test.setTimeout(120_000);

test('an RSA template falls back for a row too long for its first fallback, the validators count it, the preview steps through the rows, and it survives a reload', async ({
  page,
}) => {
  await startWithRows(
    page,
    'rsa',
    'root\tmod\tvar1\tvar2\tvar3\turl\n' +
      'Nike\tShoes\t\t\t\thttps://www.nike.example/shoes\n' +
      'Emporio Armani Collection\tShoes\t\t\t\thttps://armani.example\n' +
      'Puma\tShoes\t\t\t\thttps://puma.example\n',
  );
  await expect(cell(page, 'Root', 3)).toHaveValue('Puma');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();

  // Keywords first: the ads go to their ad groups.
  await newTemplate(page, 'Brands');
  await expect(page.getByLabel('Campaign template')).toHaveValue('Brands');
  await page.getByLabel('Campaign name pattern').fill('{root}');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod}');
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 1', { exact: true }).fill('{root} {mod}');

  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Brand ads');
  await expect(page.getByLabel('RSA template')).toHaveValue('Brand ads');
  const generateAds = page.getByRole('button', { name: 'Generate Ads' });
  await expect(generateAds).toBeDisabled();
  await expect(page.getByText('Generate keywords before generating ads')).toBeVisible();
  await generateAds.hover({ force: true });
  await expect(page.getByRole('tooltip')).toHaveText('Generate keywords before generating ads');

  await fillFallback(page, 'Buy {root} Running Shoes');
  // The counter shows the typed length and the longest after substitution, over the limit.
  await expect(page.getByText('24/30 · longest 43/30 (row 2) over the limit')).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Fallback 1 validator: 2/3 (66%) 😐' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Fallback 1 validator: 2/3 (66%) 😐' }).click();
  const failing = page.getByRole('dialog', { name: 'Fallback 1: rows without a valid fallback' });
  await expect(failing.getByRole('row')).toHaveCount(2);
  await expect(failing.getByRole('row').nth(1)).toContainText('Emporio Armani Collection');
  await expect(failing.getByRole('row').nth(1)).toContainText(
    'Headline 1 has 43 characters (max 30)',
  );
  await page.keyboard.press('Escape');
  await expect(failing).toHaveCount(0);

  // The preview starts on the first row with a valid fallback and shows FALLBACK NEEDED where due.
  await page.getByRole('button', { name: 'Ad Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Responsive Search Ad preview' });
  const ad = preview.getByRole('article', { name: 'Ad preview' });
  await expect(ad.getByRole('heading')).toHaveText(
    'Buy Nike Running Shoes | Free delivery | Official store',
  );
  await expect(ad).toContainText('nike.example/Shoes');
  await expect(preview.getByText('Row 1 (1 of 3 selected)')).toBeVisible();
  await expect(preview.getByRole('tab', { name: 'FB 1' })).toBeVisible();
  await preview.getByRole('button', { name: 'Pause' }).click();
  await preview.getByRole('button', { name: 'Step forward' }).click();
  await expect(preview.getByText('Row 2 (2 of 3 selected)')).toBeVisible();
  await expect(preview.getByRole('status')).toHaveText(
    'FALLBACK NEEDED! Make sure that no variables are 0% and click play again',
  );
  await preview.getByRole('button', { name: 'Step forward' }).click();
  const puma = 'Buy Puma Running Shoes | Free delivery | Official store';
  await expect(ad.getByRole('heading')).toHaveText(puma);
  await expect(preview.getByText('Row 3 (3 of 3 selected)')).toBeVisible();
  // Step back moves to the previous row, step forward from the last row to the first.
  await preview.getByRole('button', { name: 'Step back' }).click();
  await expect(preview.getByText('Row 2 (2 of 3 selected)')).toBeVisible();
  await expect(preview.getByRole('status')).toContainText('FALLBACK NEEDED!');
  await preview.getByRole('button', { name: 'Step forward' }).click();
  await preview.getByRole('button', { name: 'Step forward' }).click();
  await expect(preview.getByText('Row 1 (1 of 3 selected)')).toBeVisible();
  await preview.getByRole('button', { name: 'Step back' }).click();
  await expect(preview.getByText('Row 3 (3 of 3 selected)')).toBeVisible();
  // Shuffle puts the free headlines in another order (a shuffle may keep it: try again).
  const heading = ad.getByRole('heading');
  await expect(async () => {
    await preview.getByRole('button', { name: 'Shuffle' }).click();
    await expect(heading).not.toHaveText(puma, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const shuffled = (await heading.textContent()) ?? '';
  expect(shuffled.split(' | ').sort()).toEqual(puma.split(' | ').sort());
  await expect(preview.getByText('Row 3 (3 of 3 selected)')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);

  // A second fallback serves the long row.
  await page.getByRole('button', { name: 'Add Fallback' }).click();
  await expect(page.getByText('Fallback 2 of 2')).toBeVisible();
  await fillFallback(page, '{root}');
  await expect(
    page.getByRole('button', { name: 'Fallback 2 validator: 3/3 (100%) 🤩' }),
  ).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'All fallbacks validator: 3/3 (100%) 🤩' }),
  ).toBeVisible();

  // The add-fallback arrow at the end adds a default fallback; Delete Fallback removes it; the
  // arrows move between fallbacks, and the first has no Delete Fallback.
  const headline1 = page.getByLabel('Headline 1', { exact: true });
  await page.getByRole('button', { name: 'Add another fallback' }).click();
  await expect(page.getByText('Fallback 3 of 3')).toBeVisible();
  await expect(headline1).toHaveValue('');
  await expect(page.getByLabel('Headline 4', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Description 2', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Description 3', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete Fallback' }).click();
  await expect(page.getByText('Fallback 2 of 2')).toBeVisible();
  await expect(headline1).toHaveValue('{root}');
  await page.getByRole('button', { name: 'Previous fallback' }).click();
  await expect(page.getByText('Fallback 1 of 2')).toBeVisible();
  await expect(headline1).toHaveValue('Buy {root} Running Shoes');
  await expect(page.getByRole('button', { name: 'Previous fallback' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete Fallback' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Next fallback' }).click();
  await expect(page.getByText('Fallback 2 of 2')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add another fallback' })).toBeVisible();

  // Generate keywords, then the ads.
  await page.getByRole('tab', { name: 'Campaigns' }).click();
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await expect(generateAds).toBeEnabled();
  await generateAds.click();
  await expect(
    page.getByRole('table', { name: 'Responsive Search Ads', exact: true }),
  ).toBeVisible();
  if (SCREENS) await page.screenshot({ path: `${SCREENS}/rsa-output-1280.png`, fullPage: true });
  const lines = await outputLines(page, 'Responsive Search Ads');
  expect(lines).toEqual([
    'Nike | Nike Shoes | Buy Nike Running Shoes |  | Free delivery |  | Official store |  | Shop Nike Shoes today. |  | Great prices. |  | Shoes |  |  | https://www.nike.example/shoes | Responsive Search Ad',
    'Emporio Armani Collection | Emporio Armani Collection Shoes | Emporio Armani Collection |  | Free delivery |  | Official store |  | Shop Emporio Armani Collection Shoes today. |  | Great prices. |  | Shoes |  |  | https://armani.example | Responsive Search Ad',
    'Puma | Puma Shoes | Buy Puma Running Shoes |  | Free delivery |  | Official store |  | Shop Puma Shoes today. |  | Great prices. |  | Shoes |  |  | https://puma.example | Responsive Search Ad',
  ]);

  // The Editor file has Editor's own columns.
  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: 'Download for Google Ads Editor: Responsive Search Ads' })
    .click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^rsa client - responsive search ads - \d{8}\.csv$/);
  const csv = (await readFile(await file.path(), 'utf8')).split('\r\n');
  expect(csv[0]).toMatch(/^\uFEFFCampaign,Ad Group,Ad type,Headline 1,Headline 2,/);
  expect(csv[2]).toMatch(
    /^Emporio Armani Collection,Emporio Armani Collection Shoes,Responsive search ad,Emporio Armani Collection,Free delivery,Official store,/,
  );
  expect(csv).toHaveLength(5);

  // In the preview the long row now shows the second fallback's ad.
  await page.getByRole('button', { name: 'Ad Preview' }).click();
  await preview.getByRole('button', { name: 'Pause' }).click();
  await preview.getByRole('button', { name: 'Step forward' }).click();
  await expect(ad.getByRole('heading')).toHaveText(
    'Emporio Armani Collection | Free delivery | Official store',
  );
  await expect(preview.getByRole('tab', { name: 'FB 2', selected: true })).toBeVisible();
  if (SCREENS) await page.screenshot({ path: `${SCREENS}/rsa-preview-1280.png` });
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await page.getByRole('button', { name: 'Save Template' }).click();
  await page.getByRole('tab', { name: 'Campaigns' }).click();
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  // The browser's draft of unsaved template edits goes once everything is saved.
  await expect.poll(() => countTemplateDrafts(page)).toBe(0);
  await page.reload();
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await expect(page.getByLabel('RSA template')).toHaveValue('Brand ads');
  await expect(page.getByText('Fallback 1 of 2')).toBeVisible();
  await expect(page.getByLabel('Headline 1', { exact: true })).toHaveValue(
    'Buy {root} Running Shoes',
  );
  await page.getByRole('button', { name: 'Next fallback' }).click();
  await expect(page.getByLabel('Headline 1', { exact: true })).toHaveValue('{root}');
});

test('Performance Max ads need asset groups, fall back for a long row, preview row by row, download for Editor and survive a reload', async ({
  page,
}) => {
  // A clock the test can stop, for the slideshow's 5 seconds.
  await page.clock.install();
  await startWithRows(
    page,
    'pmaxads',
    'root\tmod\tvar1\tvar2\tvar3\turl\n' +
      'Nike\tShoes\t\t\t\thttps://nike.example\n' +
      'Emporio Armani Collection\tBoots\t\t\t\thttps://armani.example\n',
  );
  await expect(cell(page, 'Root', 2)).toHaveValue('Emporio Armani Collection');
  // A third row left empty.
  await page.getByRole('button', { name: 'Add Row' }).click();
  await expect(cell(page, 'Root', 3)).toHaveValue('');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await newTemplate(page, 'PMax');
  await page.getByText('Performance Max', { exact: true }).click();
  await page.getByLabel('Campaign name pattern').fill('PMax');
  await page.getByLabel('Asset group pattern').fill('{root} {mod}');

  // An RSA template cannot be generated for a Performance Max campaign.
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Search ads');
  await expect(page.getByRole('button', { name: 'Generate Ads' })).toBeDisabled();
  await expect(page.getByText('RSAs cannot be generated for performance campaigns')).toBeVisible();

  await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
  await newTemplate(page, 'Assets');
  await expect(page.getByLabel('Performance Max template')).toHaveValue('Assets');
  const generateAds = page.getByRole('button', { name: 'Generate Ads' });
  await expect(generateAds).toBeDisabled();
  await expect(page.getByText('Generate assets before generating ads')).toBeVisible();
  const fill = async (headline1: string) => {
    const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
    await fallback.getByLabel('Headline 1', { exact: true }).fill(headline1);
    await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
    await fallback.getByLabel('Headline 3', { exact: true }).fill('Official store');
    await fallback.getByLabel('Long Headline 1', { exact: true }).fill('Buy {root} {mod} online');
    await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {mod} today.');
    await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
    await fallback.getByLabel('Business Name', { exact: true }).fill('Shoe Shop');
    await fallback.getByLabel('Call To Action').selectOption('Shop now');
  };
  await fill('{root} {mod} on sale');
  // The empty row fails every fallback: its placeholders resolve to nothing, it has no final URL.
  await expect(
    page.getByRole('button', { name: 'Fallback 1 validator: 1/3 (33%) 😱' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Add Fallback' }).click();
  await fill('{root}');
  await expect(
    page.getByRole('button', { name: 'All fallbacks validator: 2/3 (66%) 😐' }),
  ).toBeVisible();

  // The preview needs rows.
  const selectAll = page.getByRole('checkbox', { name: 'Select all rows' });
  await selectAll.uncheck();
  await page.getByRole('button', { name: 'Ad Preview' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'No rows found. Please select a feed' }),
  ).toBeVisible();
  const preview = page.getByRole('dialog', { name: 'Performance Max ad preview' });
  await expect(preview).toHaveCount(0);
  await selectAll.check();

  // It opens on the first row and plays: the bar fills in 5 seconds, then the next row shows.
  await page.getByRole('button', { name: 'Ad Preview' }).click();
  const ad = preview.getByRole('article', { name: 'Ad preview' });
  await expect(ad.getByRole('heading')).toHaveText(
    'Nike Shoes on sale | Free delivery | Official store',
  );
  await expect(preview.getByText('Row 1 (1 of 3 selected)')).toBeVisible();
  await preview.getByRole('button', { name: 'Pause' }).click();
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await preview.getByRole('button', { name: 'Play' }).click();
  await expect(preview.getByRole('button', { name: 'Pause' })).toBeVisible();
  const bar = preview.getByRole('progressbar', { name: 'Time to the next row' });
  await expect(bar).toHaveAttribute('aria-valuemax', '5000');
  // React's effects start the slideshow's timer, on a busy machine after any fixed wait (a task
  // posted after the click ran first, and the bar read 0 after four seconds): the clock moves a
  // tenth of a second at a time until the first tick shows, and the test counts from there.
  await expect
    .poll(async () => {
      await page.clock.runFor(100);
      return bar.getAttribute('aria-valuenow');
    })
    .toBe('1000');
  await page.clock.runFor(3000);
  await expect(bar).toHaveAttribute('aria-valuenow', '4000');
  await expect(preview.getByText('Row 1 (1 of 3 selected)')).toBeVisible();
  await page.clock.runFor(1000);
  await expect(preview.getByText('Row 2 (2 of 3 selected)')).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', '0');
  await expect(ad.getByRole('heading')).toHaveText(
    'Emporio Armani Collection | Free delivery | Official store',
  );
  await expect(preview.getByRole('tab', { name: 'FB 2', selected: true })).toBeVisible();
  await preview.getByRole('button', { name: 'Pause' }).click();
  await page.clock.resume();
  // An empty row says so.
  await preview.getByRole('button', { name: 'Step forward' }).click();
  await expect(preview.getByText('Row 3 (3 of 3 selected)')).toBeVisible();
  await expect(preview.getByRole('status')).toHaveText('EMPTY ROW!');
  await preview.getByRole('button', { name: 'Step back' }).click();
  await expect(preview.getByText('Row 2 (2 of 3 selected)')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);

  await page.getByRole('tab', { name: 'Campaigns' }).click();
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Asset Groups', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
  await expect(generateAds).toBeEnabled();
  await generateAds.click();
  const pmaxAds = page.getByRole('table', { name: 'Performance Max Ads', exact: true });
  await expect(pmaxAds.getByRole('rowgroup').nth(1).getByRole('row')).toHaveCount(2);
  expect(await outputLines(page, 'Performance Max Ads')).toEqual([
    'PMax | Nike Shoes | Nike Shoes on sale | Free delivery | Official store | Buy Nike Shoes online | Shop Shoes today. | Great prices. |  |  | Shoe Shop | Shop now | https://nike.example',
    'PMax | Emporio Armani Collection Boots | Emporio Armani Collection | Free delivery | Official store | Buy Emporio Armani Collection Boots online | Shop Boots today. | Great prices. |  |  | Shoe Shop | Shop now | https://armani.example',
  ]);
  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: 'Download for Google Ads Editor: Performance Max Ads' })
    .click();
  const csv = (await readFile(await (await download).path(), 'utf8')).split('\r\n');
  expect(csv[0]).toMatch(/^\uFEFFCampaign,Asset Group,Headline 1,/);
  expect(csv[0]).toContain('Business name,Call to action,Path 1,Path 2,Final URL');
  expect(csv[1]).toContain('PMax,Nike Shoes,Nike Shoes on sale,Free delivery,Official store,');

  // Saved, the Performance Max template is still there after a reload.
  await page.getByRole('button', { name: 'Save Template' }).click();
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await page.getByRole('button', { name: 'Save Template' }).click();
  await page.getByRole('tab', { name: 'Campaigns' }).click();
  await page.getByRole('button', { name: 'Save Template' }).click();
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await page.reload();
  await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
  await expect(page.getByLabel('Performance Max template')).toHaveValue('Assets');
  await expect(page.getByText('Fallback 1 of 2')).toBeVisible();
  await expect(page.getByLabel('Headline 1', { exact: true })).toHaveValue('{root} {mod} on sale');
  await expect(page.getByLabel('Long Headline 1', { exact: true })).toHaveValue(
    'Buy {root} {mod} online',
  );
  await expect(page.getByLabel('Business Name', { exact: true })).toHaveValue('Shoe Shop');
  await expect(page.getByLabel('Call To Action')).toHaveValue('Shop now');
  await page.getByRole('button', { name: 'Next fallback' }).click();
  await expect(page.getByLabel('Headline 1', { exact: true })).toHaveValue('{root}');
});

test('an RSA output wider than its frame draws the columns in view, and scrolling right shows the rest', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await startWithRows(
    page,
    'wide',
    'root\tmod\tvar1\tvar2\tvar3\turl\n' +
      'Nike\tShoes\t\t\t\thttps://nike.example\n' +
      'Puma\tSneakers\t\t\t\thttps://puma.example\n',
  );
  await expect(cell(page, 'Root', 2)).toHaveValue('Puma');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await newTemplate(page, 'Brands');
  await page.getByLabel('Campaign name pattern').fill('{root}');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod}');
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 1', { exact: true }).fill('{root} {mod}');
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();

  // Eight headlines: 2 + 8 x 2 + 2 x 2 + 5 = 27 columns, more than the 20 drawn in full.
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Wide ads');
  const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
  for (let i = 0; i < 4; i += 1)
    await fallback.getByRole('button', { name: 'Add headline' }).click();
  for (let i = 1; i <= 8; i += 1)
    await fallback.getByLabel(`Headline ${i}`, { exact: true }).fill(`{root} offer ${i}`);
  await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} {mod} today.');
  await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
  await page.getByRole('button', { name: 'Generate Ads' }).click();
  const table = page.getByRole('table', { name: 'Responsive Search Ads', exact: true });
  await expect(table).toBeVisible();
  const columnCount = Number(await table.getAttribute('aria-colcount'));
  expect(columnCount).toBeGreaterThan(20);
  await expect(table.getByRole('columnheader')).toHaveCount(columnCount);
  const firstLine = table.getByRole('rowgroup').nth(1).getByRole('row').first();
  await expect(firstLine.getByRole('cell').first()).toHaveText('Nike');
  const drawn = await firstLine.getByRole('cell').count();
  expect(drawn).toBeGreaterThan(3);
  expect(drawn).toBeLessThan(columnCount);
  await expect(firstLine.getByRole('cell', { name: 'Responsive Search Ad' })).toHaveCount(0);
  if (SCREENS) await table.screenshot({ path: `${SCREENS}/rsa-wide-output-1440.png` });

  // Scrolled to the far right (the table is its own scroller): the last columns are drawn, the
  // first ones are not.
  await table.evaluate((scroller) => {
    scroller.scrollLeft = scroller.scrollWidth;
  });
  await expect(firstLine.getByRole('cell').last()).toHaveText('Responsive Search Ad');
  await expect(firstLine.getByRole('cell').last()).toHaveAttribute(
    'aria-colindex',
    String(columnCount),
  );
  await expect(firstLine.getByRole('cell', { name: 'Nike', exact: true })).toHaveCount(0);
  if (SCREENS) await table.screenshot({ path: `${SCREENS}/rsa-wide-output-1440-right.png` });

  // A narrow screen draws fewer columns still, and the same lines.
  await page.setViewportSize({ width: 390, height: 900 });
  await table.evaluate((scroller) => {
    scroller.scrollLeft = 0;
  });
  await expect(firstLine.getByRole('cell').first()).toHaveText('Nike');
  await expect.poll(() => firstLine.getByRole('cell').count()).toBeLessThan(drawn);
  if (SCREENS) await table.screenshot({ path: `${SCREENS}/rsa-wide-output-390.png` });
});

// Screenshots of the ad tabs and previews for a visual review; only with SCREENS_OUT set.
for (const width of [390, 1440, 1700]) {
  test(`ad tabs and previews at ${width} px`, async ({ page }) => {
    test.skip(!SCREENS, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 1000 });
    await startWithRows(
      page,
      `adshots${width}`,
      'root\tmod\tvar1\tvar2\tvar3\turl\nNike\tShoes\t\t\t\thttps://nike.example\n\t\t\t\t\t\nPuma\tSneakers\t\t\t\thttps://puma.example\n',
    );
    await expect(cell(page, 'Root', 3)).toHaveValue('Puma');
    await page.getByRole('checkbox', { name: 'Select all rows' }).check();
    const templates = page.getByRole('region', { name: 'Templates' });
    await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
    await newTemplate(page, 'Brand ads');
    await fillFallback(page, 'Buy {root} Running Shoes Online');
    await page
      .getByRole('radiogroup', { name: 'Headline 1 position' })
      .getByRole('radio', { name: '1', exact: true })
      .check();
    await expect(page.getByRole('button', { name: /^Fallback 1 validator: \d/ })).toBeVisible();
    await templates.screenshot({ path: `${SCREENS}/rsa-tab-${width}.png` });
    await page.getByRole('button', { name: 'Add Fallback' }).click();
    await page.getByRole('button', { name: 'Ad Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'Responsive Search Ad preview' });
    await expect(preview.getByRole('status')).toBeVisible();
    await preview.getByRole('button', { name: 'Pause' }).click();
    await page.screenshot({ path: `${SCREENS}/rsa-preview-${width}.png` });
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
    await newTemplate(page, 'PMax ads');
    await page.getByLabel('Headline 1', { exact: true }).fill('{root} {mod}');
    await page.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
    await page.getByLabel('Headline 3', { exact: true }).fill('Official store');
    await page.getByLabel('Long Headline 1', { exact: true }).fill('Buy {root} {mod} online');
    await page.getByLabel('Description 1', { exact: true }).fill('Shop {root} now.');
    await page.getByLabel('Description 2', { exact: true }).fill('Great prices every day.');
    await page.getByLabel('Business Name', { exact: true }).fill('Shoe Shop');
    await page.getByLabel('Call To Action').selectOption('Shop now');
    await expect(page.getByRole('button', { name: /^Fallback 1 validator: \d/ })).toBeVisible();
    await templates.screenshot({ path: `${SCREENS}/pmax-tab-${width}.png` });
    await page.getByRole('button', { name: 'Ad Preview' }).click();
    const pmax = page.getByRole('dialog', { name: 'Performance Max ad preview' });
    await expect(pmax.getByRole('article', { name: 'Ad preview' })).toBeVisible();
    await pmax.getByRole('button', { name: 'Pause' }).click();
    await page.screenshot({ path: `${SCREENS}/pmax-preview-${width}.png` });
  });
}
