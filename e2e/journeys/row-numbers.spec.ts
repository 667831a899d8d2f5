import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { cell, newTemplate, startWithClient } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

/** The windows-1252 bytes of `text` (Latin-1, plus the 0x80-0x9F characters used here). */
function windows1252(text: string): Buffer {
  const high: Record<string, number> = {
    '€': 0x80,
    '–': 0x96,
    '—': 0x97,
    '“': 0x93,
    '”': 0x94,
    '™': 0x99,
  };
  return Buffer.from([...text].map((c) => high[c] ?? c.charCodeAt(0)));
}

/** The text of every body row of an output table (cells joined by ' | '). */
async function outputLines(page: Page, name: string): Promise<string[]> {
  const rows = page.getByRole('table', { name, exact: true }).getByRole('rowgroup').nth(1);
  const lines: string[] = [];
  for (const row of await rows.getByRole('row').all())
    lines.push((await row.getByRole('cell').allTextContents()).join(' | '));
  return lines;
}

const SALE = '€5 – — “Sale” ™';
const LONG = 'Emporio Armani Collection Long';

test('a failure list, the skipped-and-cleaned items, a counter and the preview name the grid row a person sees', async ({
  page,
}) => {
  await startWithClient(page, 'rows');
  // Sixty rows saved by Excel on Windows (windows-1252); grid row 53 is too long for the ad.
  const lines = ['Root,Modifier,Final URL'];
  for (let i = 1; i <= 60; i += 1) {
    const root = i === 17 ? '@home' : i === 53 ? LONG : `Brand ${i}`;
    lines.push(`${root},${i === 2 ? SALE : 'Shoes'},https://shop.example/${i}`);
  }
  await page.getByLabel('Import CSV').setInputFiles({
    name: 'excel.csv',
    mimeType: 'text/csv',
    buffer: windows1252(`${lines.join('\r\n')}\r\n`),
  });
  await expect(page.getByRole('status').filter({ hasText: 'Imported 60 rows' })).toBeVisible();
  await expect(cell(page, 'Modifier', 2)).toHaveValue(SALE);

  // Three selected rows: grid rows 5, 17 and 53.
  await page.getByRole('checkbox', { name: 'Select row 5', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Select row 17', exact: true }).check();
  const row53 = page.getByRole('checkbox', { name: 'Select row 53', exact: true });
  await cell(page, 'Root', 17).hover();
  await expect(async () => {
    if ((await row53.count()) === 0) await page.mouse.wheel(0, 400);
    await expect(row53).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await row53.check();
  await expect(cell(page, 'Root', 53)).toHaveValue(LONG);

  await newTemplate(page, 'Brands');
  await page.getByLabel('Campaign name pattern').fill('{root}');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod}');
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 1', { exact: true }).fill('{root} {mod}');
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
  // The cell starting with @ is listed under its grid row; the Editor lines keep it as typed.
  const skipped = page.getByRole('table', { name: 'Skipped and cleaned items' });
  await expect(
    skipped.getByRole('row').filter({ hasText: 'Root "@home" starts with "@"' }),
  ).toContainText(/^17\s*Warning/);
  expect(await outputLines(page, 'Keywords')).toContainEqual(
    expect.stringMatching(/^@home \| @home Shoes \| /),
  );

  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Brand ads');
  const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
  await fallback.getByRole('button', { name: 'Delete headline 4' }).click();
  await fallback.getByLabel('Headline 1', { exact: true }).fill('{root} Running Shoes');
  await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
  await fallback.getByLabel('Headline 3', { exact: true }).fill('Official store');
  await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} today.');
  await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
  await expect(page.getByText('20/30 · longest 44/30 (row 53) over the limit')).toBeVisible();

  const validator = page.getByRole('button', { name: 'Fallback 1 validator: 2/3 (66%) 😐' });
  await validator.click();
  const failing = page.getByRole('dialog', { name: 'Fallback 1: rows without a valid fallback' });
  await expect(failing.getByRole('row')).toHaveCount(2);
  await expect(failing.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('53');
  await expect(failing.getByRole('row').nth(1)).toContainText(LONG);
  await page.keyboard.press('Escape');
  await expect(failing).toHaveCount(0);

  await page.getByRole('button', { name: 'Generate Ads' }).click();
  await expect(
    page.getByRole('table', { name: 'Responsive Search Ads', exact: true }),
  ).toBeVisible();
  const adIssues = await outputLines(page, 'Skipped and cleaned items');
  expect(adIssues.filter((l) => l.includes('no valid fallback'))).toEqual([
    expect.stringMatching(/^53 \| Skipped \| Ad group "Emporio Armani Collection Long Shoes"/),
  ]);

  // The preview says which grid row it shows, and where that is among the selected rows.
  await page.getByRole('button', { name: 'Ad Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Responsive Search Ad preview' });
  await expect(preview.getByText('Row 5 (1 of 3 selected)')).toBeVisible();
  await preview.getByRole('button', { name: 'Pause' }).click();
  await preview.getByRole('button', { name: 'Step back' }).click();
  await expect(preview.getByText('Row 53 (3 of 3 selected)')).toBeVisible();
  await expect(preview.getByRole('status')).toContainText('FALLBACK NEEDED!');
});
