import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { cell, expectNoSeriousAxeFindings, newTemplate, startWithClient } from './support.ts';

// The browser findings of the export audit (issue 36): Excel's Unicode text imports and says
// so, with a warning about rows that cannot make an ad; the Responsive Search Ads tab says why
// some ad groups have no ad; the Performance Max checker shows the short headline and
// description rules as the person types; Negative Phrase in the keyword table, and notation
// that contradicts a match type shown as the person types.

const SCREENS = process.env.SCREENS_OUT;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

/** Excel's "Unicode text": UTF-16 little-endian with its BOM, tab-separated. */
function unicodeText(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

/** Imports a UTF-16 feed of three rows, the second without a Final URL, and selects them. */
async function importShoeFeed(page: Page): Promise<void> {
  await page.getByLabel('Import CSV').setInputFiles({
    name: 'shoes.txt',
    mimeType: 'text/plain',
    buffer: unicodeText(
      'Root\tModifier\tFinal URL\r\n' +
        'Nike\tShoes\thttps://www.nike.example/shoes\r\n' +
        'Puma\tSneakers\t\r\n' +
        'Adidas\tBoots, tall\thttps://adidas.example/boots\r\n',
    ),
  });
  await expect(cell(page, 'Root', 3)).toHaveValue('Adidas');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
}

for (const width of [1440, 390]) {
  test(`the audit's browser findings at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await startWithClient(page, `audit${width}`);
    await importShoeFeed(page);
    const notice = page.getByRole('status').filter({ hasText: 'Imported 3 rows' }).first();
    await expect(notice).toContainText('Read as UTF-16, tab-separated.');
    await expect(notice).toContainText('1 row has no Final URL, so it makes no ad: row 2.');
    await expect(cell(page, 'Modifier', 3)).toHaveValue('Boots, tall');
    if (SCREENS) await page.screenshot({ path: `${SCREENS}/audit-import-notice-${width}.png` });

    // The keyword table: Negative Phrase, and notation read or refused as the person types.
    await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
    await newTemplate(page, 'Shoes');
    await page.getByLabel('Campaign name pattern').fill('{root}');
    await page.getByLabel('Ad group name pattern').fill('{root} {mod}');
    await page.getByRole('button', { name: 'Add Keyword' }).click();
    await page.getByLabel('Keyword 1', { exact: true }).fill('[{root} {mod}]');
    await expect(page.getByText('Read as Exact: {root} {mod}')).toBeVisible();
    await page.getByLabel('Match type 1', { exact: true }).selectOption('Phrase');
    const keyword1 = page.getByLabel('Keyword 1', { exact: true });
    await expect(keyword1).toHaveAttribute('aria-invalid', 'true');
    await expect(
      page.getByText(
        '[ ] states Exact, but the match type is Phrase: remove the [ ] or choose Exact',
      ),
    ).toBeVisible();
    await page.getByLabel('Match type 1', { exact: true }).selectOption('Exact');
    await expect(keyword1).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Add Keyword' }).click();
    await page.getByLabel('Keyword 2', { exact: true }).fill('second hand');
    await page.getByLabel('Match type 2', { exact: true }).selectOption('Negative Phrase');
    if (SCREENS)
      await page.screenshot({
        path: `${SCREENS}/audit-keyword-table-${width}.png`,
        fullPage: true,
      });
    await expectNoSeriousAxeFindings(page, `keyword table at ${width} px`);
    await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
    await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
    await page.getByRole('tab', { name: 'Negatives' }).click();
    const negatives = page.getByRole('table', { name: 'Negatives', exact: true });
    await expect(negatives).toContainText('second hand');
    await expect(negatives).toContainText('Negative Phrase');

    // The Responsive Search Ads tab: three ad groups, two ads, and why.
    await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
    await newTemplate(page, 'Shoe ads');
    const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
    await fallback.getByRole('button', { name: 'Delete headline 4' }).click();
    await fallback.getByLabel('Headline 1', { exact: true }).fill('{root} {mod}');
    await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
    await fallback.getByLabel('Headline 3', { exact: true }).fill('Official store');
    await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} today.');
    await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
    await page.getByRole('button', { name: 'Generate Ads' }).click();
    await expect(
      page.getByRole('table', { name: 'Responsive Search Ads', exact: true }),
    ).toBeVisible();
    const skipped = page.getByRole('region', { name: 'Skipped and cleaned items' });
    await expect(skipped).toBeVisible();
    await expect(skipped).toContainText('Final URL');
    await expect(
      page.getByText(
        '2 ads for 3 ad groups: 1 ad group has no ad (Skipped and cleaned items says why).',
      ),
    ).toBeVisible();
    if (SCREENS)
      await page.screenshot({ path: `${SCREENS}/audit-rsa-tab-${width}.png`, fullPage: true });
    await expectNoSeriousAxeFindings(page, `RSA tab at ${width} px`);

    // The Performance Max checker: one headline of 15 characters or fewer, one description of
    // 60 or fewer, over the selected rows, as the person types.
    await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
    await newTemplate(page, 'PMax');
    await page.getByText('Performance Max', { exact: true }).click();
    await page.getByLabel('Campaign name pattern').fill('PMax');
    await page.getByLabel('Asset group pattern').fill('{root} {mod}');
    await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
    await newTemplate(page, 'Assets');
    const pmax = page.getByRole('region', { name: /^Fallback \d+$/ });
    await pmax.getByLabel('Headline 1', { exact: true }).fill('{root} {mod} on sale');
    await pmax.getByLabel('Headline 2', { exact: true }).fill('Free delivery today');
    await pmax.getByLabel('Headline 3', { exact: true }).fill('Official store online');
    await pmax.getByLabel('Description 1', { exact: true }).fill('Shop {root} {mod} today.');
    const headlineRule = page.getByRole('status', { name: 'Short headline rule' });
    await expect(headlineRule).toHaveText(
      'Google needs one headline of 15 characters or fewer: none yet (the shortest has 19).',
    );
    await expect(page.getByRole('status', { name: 'Short description rule' })).toHaveText(
      'Google needs one description of 60 characters or fewer: Description 1 has 30 (its longest over the rows).',
    );
    if (SCREENS)
      await page.screenshot({ path: `${SCREENS}/audit-pmax-rule-${width}.png`, fullPage: true });
    await expectNoSeriousAxeFindings(page, `Performance Max checker at ${width} px`);
    await pmax.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
    await expect(headlineRule).toHaveText(
      'Google needs one headline of 15 characters or fewer: Headline 2 has 13.',
    );
  });
}
