import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { cell, MOD, newCampaignTemplate, newTemplate, signUp } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

function notice(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text });
}

/** A new client whose default feed holds the given rows, all selected. */
async function clientWithRows(page: Page, client: string, rows: string[]): Promise<void> {
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill(client);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
  await cell(page, 'Root', 1).click();
  await page.evaluate(
    (text) => navigator.clipboard.writeText(text),
    ['Root\tModifier\tVar 1\tVar 2\tVar 3\tFinal URL', ...rows].join('\n'),
  );
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Root', rows.length)).not.toHaveValue('');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(notice(page, 'Feeds successfully updated')).toBeVisible();
  // The campaigns and ad groups the assets attach to: a campaign per root.
  await newCampaignTemplate(page, 'Brands', {
    campaign: '{root}',
    adGroup: '{root} {mod}',
    keyword: '{root} {mod}',
  });
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(notice(page, 'Templates successfully updated').first()).toBeVisible();
}

async function newExtensionTemplate(page: Page, name: string): Promise<void> {
  await newTemplate(page, name);
  await expect(page.getByLabel('Extension template')).toHaveValue(name);
}

async function copiedText(page: Page, table: string): Promise<string> {
  // An earlier copy's notice may still show: empty the clipboard and wait for this copy.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.getByRole('button', { name: `Copy ${table}`, exact: true }).click();
  await expect(notice(page, 'Table contents copied to clipboard!').first()).toBeVisible();
  const read = () => page.evaluate(() => navigator.clipboard.readText());
  await expect.poll(read).not.toBe('');
  return read();
}

/** The lines of the Google Ads Editor file an output table downloads (BOM kept on line 1). */
async function editorFile(page: Page, table: string): Promise<string[]> {
  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: `Download for Google Ads Editor: ${table}`, exact: true })
    .click();
  const text = await readFile(await (await download).path(), 'utf8');
  return text.split('\r\n').filter((line) => line !== '');
}

test('extensions: callouts, sitelinks and a structured snippet generate, copy and download with their columns, and stay after a reload', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('extensions'), 'extensions-password-1');
  await clientWithRows(page, 'Acme Shoes', [
    'nike\trunning\t\t\t\thttps://shop.test/nike',
    'puma\tsuede\t\t\t\thttps://shop.test/puma',
    'emporio armani collection\tclassic\t\t\t\thttps://shop.test/ea',
  ]);

  await page.getByRole('tab', { name: 'Extensions' }).click();
  const type = page.getByLabel('Extension type');
  await expect(type).toHaveValue('Callout');
  await expect(page.getByText('No Callout templates yet: New Template makes one.')).toBeVisible();
  await newExtensionTemplate(page, 'Callouts');

  const callout = page.getByRole('textbox', { name: 'Callout text' });
  await callout.fill('All {root} shoes');
  // The limit and the longest after substitution over the three selected rows (row 3 is over).
  const calloutHelp = page.getByText(/^Max 25 characters/);
  await expect(calloutHelp).toContainText('16/25');
  await expect(calloutHelp).toContainText('longest 35/25 (row 3) over the limit');

  // The validator: two of the three rows get a valid callout; the failing row is listed.
  const score = page.getByRole('button', { name: /^Extension validator: / });
  await expect(score).toHaveAccessibleName(/^Extension validator: 2\/3 \(66%\)/);
  await score.click();
  const failing = page.getByRole('dialog', { name: 'Extension: rows without a valid fallback' });
  await expect(
    failing.getByRole('cell', { name: 'emporio armani collection · classic' }),
  ).toBeVisible();
  await expect(failing.getByRole('cell', { name: 'Callout text', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(failing).toHaveCount(0);

  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  const callouts = page.getByRole('table', { name: 'Callout extensions' });
  // {root} is the campaign name: each callout attaches to its row's campaign.
  await expect(callouts.getByRole('columnheader')).toHaveText([
    'Campaign',
    'Ad Group',
    'Callout text',
  ]);
  await expect(callouts.getByRole('row')).toHaveCount(3);
  await expect(callouts.getByRole('cell', { name: 'All nike shoes' })).toBeVisible();
  await expect(callouts.getByRole('cell', { name: 'All puma shoes' })).toBeVisible();
  // The third row is too long: listed beside the output with its reason, not dropped silently.
  const skipped = page.getByRole('table', { name: 'Skipped and cleaned items' });
  await expect(skipped.getByRole('cell', { name: /Callout text has 35 characters/ })).toBeVisible();

  const calloutCopy = await copiedText(page, 'Callout extensions');
  expect(calloutCopy.split(/\r?\n/).slice(0, 3)).toEqual([
    'Campaign\tAd Group\tCallout text\tUpgraded extension',
    'nike\t\tAll nike shoes\t',
    'puma\t\tAll puma shoes\t',
  ]);
  // The Editor file carries Editor's own header.
  expect(await editorFile(page, 'Callout extensions')).toEqual([
    '\uFEFFCampaign,Ad Group,Callout text',
    'nike,,All nike shoes',
    'puma,,All puma shoes',
  ]);

  // A fallback serves the row the first callout is too long for.
  await page.getByRole('button', { name: 'Add Fallback' }).click();
  await page
    .getByRole('group', { name: 'Fallback 2' })
    .getByRole('textbox', { name: 'Callout text' })
    .fill('Free returns');
  await expect(score).toHaveAccessibleName(/^Extension validator: 3\/3 \(100%\)/);
  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  await expect(callouts.getByRole('cell', { name: 'Free returns' })).toBeVisible();
  await expect(callouts.getByRole('row')).toHaveCount(4);

  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(notice(page, 'Templates successfully updated').first()).toBeVisible();

  // Sitelinks: an empty Final URL takes each row's Final URL, so they attach to its ad group.
  await type.selectOption('Sitelink');
  await newExtensionTemplate(page, 'Sitelinks');
  await expect(type).toHaveValue('Sitelink');
  await page.getByRole('textbox', { name: 'Link Text' }).fill('{root} Sale');
  await page.getByRole('textbox', { name: 'Description Line 1' }).fill('Up to 50% off {mod}');
  await page.getByRole('textbox', { name: 'Description Line 2' }).fill('Free returns');
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
  await expect(sitelinks.getByRole('cell', { name: 'puma Sale' })).toBeVisible();
  // 'emporio armani collection Sale' is over 25 characters: listed, not generated.
  await expect(sitelinks.getByRole('row')).toHaveCount(3);
  expect(await editorFile(page, 'Sitelink extensions')).toEqual([
    '\uFEFFCampaign,Ad Group,Link Text,Description Line 1,Description Line 2,Final URL',
    'nike,nike running,nike Sale,Up to 50% off running,Free returns,https://shop.test/nike',
    'puma,puma suede,puma Sale,Up to 50% off suede,Free returns,https://shop.test/puma',
  ]);

  // A structured snippet: its own type, the header dropdown, values separated by ';'.
  await type.selectOption('Structured Snippet');
  await expect(page.getByLabel('Extension template')).toHaveValue('');
  await newExtensionTemplate(page, 'Brands snippet');
  await expect(type).toHaveValue('Structured Snippet');
  await page.getByRole('combobox', { name: 'Header' }).selectOption('Brands');
  await page.getByRole('textbox', { name: 'Snippet Values' }).fill('{root};Adidas;Asics');
  await expect(page.getByText(/^3 to 10 values separated by ;/)).toContainText('3 values');

  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  const snippets = page.getByRole('table', { name: 'Structured Snippet extensions' });
  await expect(snippets.getByRole('columnheader')).toHaveText([
    'Campaign',
    'Ad Group',
    'Header',
    'Snippet Values',
  ]);
  await expect(snippets.getByRole('cell', { name: 'nike;Adidas;Asics' })).toBeVisible();
  const snippetCopy = await copiedText(page, 'Structured Snippet extensions');
  expect(snippetCopy.split(/\r?\n/).slice(0, 4)).toEqual([
    'Campaign\tAd Group\tHeader\tSnippet Values\tUpgraded extension',
    'nike\t\tBrands\tnike; Adidas; Asics\t',
    'puma\t\tBrands\tpuma; Adidas; Asics\t',
    'emporio armani collection\t\tBrands\temporio armani collection; Adidas; Asics\t',
  ]);
  const snippetFile = await editorFile(page, 'Structured Snippet extensions');
  expect(snippetFile.slice(0, 2)).toEqual([
    '\uFEFFCampaign,Ad Group,Header,Snippet Values',
    'nike,,Brands,nike;Adidas;Asics',
  ]);
  expect(snippetFile).toHaveLength(4);

  // Clear empties the output: no rows (not even headers) and the empty text beside the table.
  await page.getByRole('button', { name: 'Clear Structured Snippet extensions' }).click();
  await expect(snippets.getByRole('row')).toHaveCount(0);
  await expect(page.getByText('No extensions generated yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  // Reload: both templates are there with their types and values.
  await page.reload();
  await expect(page.getByLabel('Client (1)')).toHaveValue('Acme Shoes');
  await page.getByRole('tab', { name: 'Extensions' }).click();
  const template = page.getByLabel('Extension template');
  // The template dropdown lists the templates of the chosen type only.
  await type.selectOption('Callout');
  await expect(template.getByRole('option', { name: 'Brands snippet' })).toHaveCount(0);
  await template.selectOption('Callouts');
  await expect(
    page.getByRole('group', { name: 'Fallback 1' }).getByRole('textbox', { name: 'Callout text' }),
  ).toHaveValue('All {root} shoes');
  await expect(
    page.getByRole('group', { name: 'Fallback 2' }).getByRole('textbox', { name: 'Callout text' }),
  ).toHaveValue('Free returns');
  // Choosing the type opens its first template.
  await type.selectOption('Structured Snippet');
  await expect(template).toHaveValue('Brands snippet');
  await expect(template.getByRole('option', { name: 'Callouts' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Header' })).toHaveValue('Brands');
  await expect(page.getByRole('textbox', { name: 'Snippet Values' })).toHaveValue(
    '{root};Adidas;Asics',
  );
});

test('a legacy expanded text ad template is listed under the RSAs and converted to an RSA template in one step', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('legacy'), 'legacy-password-1');
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('Old Client');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');

  // The client already has a legacy template (saved the way the old app saved it).
  const token = await page.evaluate(() => localStorage.getItem('adloom.token'));
  const legacy = {
    name: 'Shoes ETA',
    templates: [
      [
        {
          h1: '{root} Shoes',
          h2: 'Free Delivery',
          h3: '',
          dl1: 'Buy {root} online today.',
          dl2: 'Returns within 30 days.',
          p1: '{root}',
          p2: 'sale',
          adType: 'Expanded text ad',
          label: 'eta',
        },
      ],
    ],
  };
  const saved = await page.request.post('/api/app/save-ad-templates', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Old Client', templates: [legacy] },
  });
  expect(saved.status()).toBe(200);
  await page.reload();
  await expect(page.getByLabel('Client (1)')).toHaveValue('Old Client');

  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  const panel = page.getByRole('region', { name: 'Expanded text ads (legacy)' });
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  await expect(panel.getByText('Shoes ETA', { exact: true })).toBeVisible();
  await panel.getByRole('button', { name: 'Convert to RSA template: Shoes ETA' }).click();
  await expect(
    notice(page, '"Shoes ETA" converted to the RSA template "Shoes ETA"').first(),
  ).toBeVisible();
  // What is left to fill in: the empty third headline.
  await expect(panel.getByText(/Headline 3 is empty/)).toBeVisible();
  if (process.env.SCREENS_OUT)
    await panel.screenshot({ path: `${process.env.SCREENS_OUT}/legacy-ads.png` });
  await expect(page.getByLabel('RSA template', { exact: true })).toHaveValue('Shoes ETA');
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  // Saved: after a reload the RSA template holds the legacy texts, and the legacy one is still there.
  await page.reload();
  await expect(page.getByLabel('Client (1)')).toHaveValue('Old Client');
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await page.getByLabel('RSA template', { exact: true }).selectOption('Shoes ETA');
  await expect(page.getByRole('textbox', { name: /Headline 1/ }).first()).toHaveValue(
    '{root} Shoes',
  );
  await expect(page.getByRole('textbox', { name: /Headline 2/ }).first()).toHaveValue(
    'Free Delivery',
  );
  await expect(page.getByRole('textbox', { name: /Description 1/ }).first()).toHaveValue(
    'Buy {root} online today.',
  );
  await expect(
    page
      .getByRole('region', { name: 'Expanded text ads (legacy)' })
      .getByText('Shoes ETA', { exact: true }),
  ).toBeVisible();
  const bundle = await page.request.get('/api/app/clients/Old%20Client', {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await bundle.json()) as { adTemplates: Record<string, unknown>[] };
  expect(body.adTemplates).toHaveLength(1);
  expect({ ...body.adTemplates[0], _id: undefined }).toEqual({ ...legacy, _id: undefined });
});

// Screenshots of the Extensions tab at 390 px and 1440 px for a visual review; runs only when
// SCREENS_OUT names a folder: SCREENS_OUT=/tmp/screens npx playwright test journeys/templates-extensions
for (const width of [390, 1440]) {
  test(`extensions tab screens at ${width} px`, async ({ page }) => {
    const out = process.env.SCREENS_OUT;
    test.skip(!out, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await signUp(page, uniqueEmail(`ext-screens${width}`), 'screens-password-1');
    await clientWithRows(page, 'Acme', [
      'nike\trunning\t\t\t\thttps://shop.test/nike',
      'puma\tsuede\t\t\t\thttps://shop.test/puma',
      'emporio armani collection\tclassic\t\t\t\thttps://shop.test/ea',
    ]);
    await page.getByRole('tab', { name: 'Extensions' }).click();
    await page.getByLabel('Extension type').selectOption('Sitelink');
    await newExtensionTemplate(page, 'Sitelinks');
    await page.getByRole('textbox', { name: 'Link Text' }).fill('{root} Sale');
    await page.getByRole('textbox', { name: 'Description Line 1' }).fill('Up to 50% off {root}');
    await page.getByRole('textbox', { name: 'Description Line 2' }).fill('Free returns');
    await page.getByRole('button', { name: 'Add Fallback' }).click();
    await page
      .getByRole('group', { name: 'Fallback 2' })
      .getByRole('textbox', { name: 'Link Text' })
      .fill('Sale');
    await page.getByRole('button', { name: 'Generate Extensions' }).click();
    await expect(
      page
        .getByRole('table', { name: 'Sitelink extensions' })
        .getByRole('cell', { name: 'nike Sale' }),
    ).toBeVisible();
    const templates = page.getByRole('region', { name: 'Templates' });
    await templates.screenshot({ path: `${out}/extensions-sitelink-${width}.png` });
    await page.getByLabel('Extension type').selectOption('Structured Snippet');
    await newExtensionTemplate(page, 'Snippet');
    await page.getByRole('combobox', { name: 'Header' }).selectOption('Brands');
    await page.getByRole('textbox', { name: 'Snippet Values' }).fill('{root};Adidas');
    await templates.screenshot({ path: `${out}/extensions-snippet-${width}.png` });
  });
}
