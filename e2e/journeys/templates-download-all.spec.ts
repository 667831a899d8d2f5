import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { expect, test } from '../fixtures.ts';
import { cell, newTemplate, startWithRows } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

const LABEL = 'Download everything for Google Ads Editor (zip)';
const NOTHING_YET = 'Have you remembered to generate keywords, ads or extensions?';

const ROWS =
  'root\tmod\tvar1\tvar2\tvar3\turl\n' +
  'Nike\tShoes\t\t\t\thttps://nike.example/shoes\n' +
  'Puma\tBoots\t\t\t\thttps://puma.example/boots\n';

/** The Editor headers of packages/engine/src/export.ts, as the CSV's first line. */
const numbered = (name: string, n: number, suffix = '') =>
  Array.from({ length: n }, (_, i) => `${name} ${i + 1}${suffix}`);
const KEYWORDS_HEADER = 'Campaign,Ad Group,Keyword,Criterion Type';
const RSA_HEADER = [
  'Campaign',
  'Ad Group',
  'Ad type',
  ...numbered('Headline', 15),
  ...numbered('Headline', 15, ' position'),
  ...numbered('Description', 4),
  ...numbered('Description', 4, ' position'),
  'Path 1',
  'Path 2',
  'Final URL',
  'Labels',
].join(',');

/** Keywords (Broad and Exact, a Negative Broad), 2 RSAs and 2 callouts from the 2 rows. */
async function generateEverything(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await newTemplate(page, 'Brands');
  await page.getByLabel('Campaign name pattern').fill('{root} - Search');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod}');
  for (const [i, [keyword, matchType]] of [
    ['{root} {mod}', 'Broad'],
    ['{root} {mod}', 'Exact'],
    ['cheap {mod}', 'Negative Broad'],
  ].entries()) {
    await page.getByRole('button', { name: 'Add Keyword' }).click();
    await page.getByLabel(`Keyword ${i + 1}`, { exact: true }).fill(keyword!);
    await page.getByLabel(`Match type ${i + 1}`, { exact: true }).selectOption(matchType!);
  }
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Brand ads');
  const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
  await fallback.getByRole('button', { name: 'Delete headline 4' }).click();
  await fallback.getByLabel('Headline 1', { exact: true }).fill('Buy {root}');
  await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
  await fallback.getByLabel('Headline 3', { exact: true }).fill('Official store');
  await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} {mod} today.');
  await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
  await page.getByRole('button', { name: 'Generate Ads' }).click();
  const ads = page.getByRole('table', { name: 'Responsive Search Ads', exact: true });
  await expect(ads.getByRole('rowgroup').nth(1).getByRole('row')).toHaveCount(2);

  await page.getByRole('tab', { name: 'Extensions' }).click();
  await expect(page.getByLabel('Extension type')).toHaveValue('Callout');
  await newTemplate(page, 'Callouts');
  await page.getByRole('textbox', { name: 'Callout text' }).fill('All {root} {mod}');
  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  const callouts = page.getByRole('table', { name: 'Callout extensions' });
  await expect(callouts.getByRole('rowgroup').nth(1).getByRole('row')).toHaveCount(2);
}

test('Download everything saves one zip with the Editor CSV of the keywords, negatives, campaigns, RSAs and callouts', async ({
  page,
}) => {
  await startWithRows(page, 'zipall', ROWS);
  await expect(cell(page, 'Root', 2)).toHaveValue('Puma');

  // Nothing generated yet: the button says why it waits.
  const downloadAll = page.getByRole('button', { name: LABEL });
  await expect(downloadAll).toBeDisabled();
  await expect(downloadAll).toHaveAccessibleDescription(NOTHING_YET);
  await downloadAll.hover({ force: true });
  await expect(page.getByRole('tooltip')).toHaveText(NOTHING_YET);

  await generateEverything(page);
  await expect(downloadAll).toBeEnabled();
  // The 6 Editor files and the skipped-and-cleaned report.
  await expect(page.getByText('7 files', { exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
  await page.getByRole('tab', { name: 'Negatives' }).click();
  const negativeCount =
    Number(
      await page
        .getByRole('table', { name: 'Negatives', exact: true })
        .getAttribute('aria-rowcount'),
    ) - 1;
  // The Negative Broad keyword in each of the 2 ad groups.
  expect(negativeCount).toBe(2);

  // The Ad Groups table's and the RSA tab's own downloads, to compare with the zip's copies
  // byte for byte: every download carries the client's label (issue 35).
  const ownDownload = async (button: string): Promise<Buffer> => {
    const saved = page.waitForEvent('download');
    await page.getByRole('button', { name: `Download for Google Ads Editor: ${button}` }).click();
    return readFile(await (await saved).path());
  };
  await page.getByRole('tab', { name: 'Ad Groups' }).click();
  const ownAdGroups = await ownDownload('Ad Groups');
  await page.getByRole('tab', { name: 'Keywords', exact: true }).click();
  const ownKeywords = await ownDownload('Keywords');
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  const ownRsa = await ownDownload('Responsive Search Ads');

  const download = page.waitForEvent('download');
  await downloadAll.click();
  const zip = await download;
  const date = zip.suggestedFilename().match(/^zipall client - all outputs - (\d{8})\.zip$/)?.[1];
  expect(date).toBeDefined();
  const entries = unzipSync(new Uint8Array(await readFile(await zip.path())));
  const name = (output: string) => `zipall client - ${output} - ${date}.csv`;
  expect(Object.keys(entries)).toEqual([
    name('keywords'),
    name('negatives'),
    name('ad groups'),
    name('campaigns'),
    name('responsive search ads'),
    name('callouts'),
    name('skipped and cleaned'),
  ]);

  /** The file's lines (BOM kept on the first), without the empty one after the last CRLF. */
  const lines = (output: string): string[] => {
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(entries[name(output)]);
    expect(text.endsWith('\r\n')).toBe(true);
    return text.split('\r\n').slice(0, -1);
  };
  const keywords = lines('keywords');
  // The client's label marks what Adloom makes (issue 35): keywords carry it, negatives do not.
  expect(keywords[0]).toBe(`\uFEFF${KEYWORDS_HEADER},Labels`);
  // 2 rows x (Broad, Exact).
  expect(keywords).toHaveLength(1 + 4);
  expect(keywords).toContain('Nike - Search,Nike Shoes,nike shoes,Exact,adloom');
  // Editor's ad groups file, as the command writes it, with the label.
  expect(lines('ad groups')).toEqual([
    '\uFEFFCampaign,Ad Group,Labels',
    'Nike - Search,Nike Shoes,adloom',
    'Puma - Search,Puma Boots,adloom',
  ]);
  const negatives = lines('negatives');
  expect(negatives[0]).toBe(`\uFEFF${KEYWORDS_HEADER}`);
  // As many lines as the Negatives table shows.
  expect(negatives).toHaveLength(1 + negativeCount);
  const campaigns = lines('campaigns');
  expect(campaigns[0]).toMatch(/^\uFEFFCampaign,Campaign Type(,|$)/);
  expect(campaigns).toHaveLength(1 + 2);
  const rsas = lines('responsive search ads');
  expect(rsas[0]).toBe(`\uFEFF${RSA_HEADER}`);
  expect(rsas).toHaveLength(1 + 2);
  expect(rsas[1]).toMatch(/^Nike - Search,Nike Shoes,Responsive search ad,Buy Nike,/);
  // A table's own download is the zip's copy byte for byte, the client's label included.
  expect(rsas.slice(1).every((line) => line.endsWith(',adloom'))).toBe(true);
  expect(ownRsa.equals(Buffer.from(entries[name('responsive search ads')]!))).toBe(true);
  expect(ownKeywords.equals(Buffer.from(entries[name('keywords')]!))).toBe(true);
  expect(ownAdGroups.equals(Buffer.from(entries[name('ad groups')]!))).toBe(true);
  // {mod} is not in the campaign name: each callout attaches to its row's ad group.
  expect(lines('callouts')).toEqual([
    '\uFEFFCampaign,Ad Group,Callout text',
    'Nike - Search,Nike Shoes,All Nike Shoes',
    'Puma - Search,Puma Boots,All Puma Boots',
  ]);
});

// Screenshots of the Templates section with the control, for a visual review; only when
// SCREENS_OUT names a folder: SCREENS_OUT=/tmp/screens npx playwright test journeys/templates-download-all
for (const width of [390, 1440]) {
  test(`Download everything screens at ${width} px`, async ({ page }) => {
    const out = process.env.SCREENS_OUT;
    test.skip(!out, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await startWithRows(page, `zipscreens${width}`, ROWS);
    const section = page.getByRole('region', { name: 'Templates' });
    await section.getByRole('heading', { name: 'Templates' }).scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: LABEL }).hover({ force: true });
    await expect(page.getByRole('tooltip')).toHaveText(NOTHING_YET);
    await page.screenshot({ path: `${out}/download-everything-empty-${width}.png` });
    await page.mouse.move(0, 0);
    await generateEverything(page);
    await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
    await expect(page.getByRole('button', { name: LABEL })).toBeEnabled();
    await section.getByRole('heading', { name: 'Templates' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/download-everything-${width}.png` });
  });
}
