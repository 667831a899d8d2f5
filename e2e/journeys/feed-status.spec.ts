import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { expect, test } from '../fixtures.ts';
import { cell, newCampaignTemplate, startWithRows } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

// Issue 35, row status from the feed: a row marked paused in the grid's Status column makes
// Paused keywords, ad groups and campaigns in the Editor files; set active again, they go out
// Enabled. (A header line is skipped by paste: the cells map by position, Status last.)
const ROWS =
  'root\tmod\tvar1\tvar2\tvar3\turl\tstatus\n' +
  'Nike\tShoes\t\t\t\thttps://nike.example/shoes\t\n' +
  'Puma\tBoots\t\t\t\thttps://puma.example/boots\tpaused\n' +
  'Asics\tSocks\t\t\t\thttps://asics.example/socks\tout of stock\n';

const LABEL = 'Download everything for Google Ads Editor (zip)';

/** Generates the keywords again and downloads everything: the zip's files by output name. */
async function downloadEverything(page: Page): Promise<(output: string) => string[]> {
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: LABEL }).click();
  const zip = await download;
  const entries = unzipSync(new Uint8Array(await readFile(await zip.path())));
  return (output) => {
    const name = Object.keys(entries).find((n) => n.includes(` - ${output} - `));
    expect(name, output).toBeDefined();
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(entries[name!]);
    return text
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(0, -1);
  };
}

/** The cell of `header` in each line after the header, by the line's first cells. */
function column(lines: string[], header: string): string[] {
  const at = lines[0]!.split(',').indexOf(header);
  expect(at, `${header} in ${lines[0]}`).toBeGreaterThanOrEqual(0);
  return lines
    .slice(1)
    .map((line) => `${line.split(',').slice(0, 3).join(',')}: ${line.split(',')[at]}`);
}

test('a feed row marked paused makes Paused items in the Editor files, Enabled again once active', async ({
  page,
}) => {
  await startWithRows(page, 'status', ROWS);
  await expect(cell(page, 'Status', 2)).toHaveValue('paused');
  await expect(cell(page, 'Status', 3)).toHaveValue('out of stock');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await newCampaignTemplate(page, 'Brands', {
    campaign: '{root}',
    adGroup: '{root} {mod}',
    keyword: '{root} {mod}',
  });

  let file = await downloadEverything(page);
  expect(column(file('keywords'), 'Status')).toEqual([
    'Nike,Nike Shoes,nike shoes: Enabled',
    'Puma,Puma Boots,puma boots: Paused',
    'Asics,Asics Socks,asics socks: Paused',
  ]);
  expect(column(file('campaigns'), 'Campaign Status').map((c) => c.split(': ')[1])).toEqual([
    'Enabled',
    'Paused',
    'Paused',
  ]);

  // Puma is back in stock: its row is set active in the grid.
  await cell(page, 'Status', 2).click();
  await page.keyboard.type('active');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'Status', 2)).toHaveValue('active');
  file = await downloadEverything(page);
  expect(column(file('keywords'), 'Status')).toEqual([
    'Nike,Nike Shoes,nike shoes: Enabled',
    'Puma,Puma Boots,puma boots: Enabled',
    'Asics,Asics Socks,asics socks: Paused',
  ]);
});

// Screenshots of the feed grid with its Status column, for a visual review; only when
// SCREENS_OUT names a folder: SCREENS_OUT=/tmp/screens npx playwright test journeys/feed-status
for (const width of [390, 1440]) {
  test(`feed grid with the Status column at ${width} px`, async ({ page }) => {
    const out = process.env.SCREENS_OUT;
    test.skip(!out, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await startWithRows(page, `statusscreens${width}`, ROWS);
    await expect(cell(page, 'Status', 2)).toHaveValue('paused');
    await cell(page, 'Root', 1).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/feed-status-${width}.png` });
    // The Status cell scrolled into view (at 390 px the grid scrolls sideways).
    await cell(page, 'Status', 2).click();
    await page.screenshot({ path: `${out}/feed-status-cell-${width}.png` });
  });
}
