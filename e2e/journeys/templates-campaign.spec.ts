import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import {
  cell,
  expectNoSeriousAxeFindings,
  newCampaignTemplate,
  startWithClient,
  startWithRows,
} from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

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

test('a campaign template with {root}, {mod} and {mt} generates keywords and negatives, downloads for Editor and survives a reload', async ({
  page,
}) => {
  await startWithRows(page, 'kw', 'root\tmod\nNike\tRunning Shoes\nPuma\tSneakers\n');
  await expect(cell(page, 'Modifier', 2)).toHaveValue('Sneakers');

  const generate = page.getByRole('button', { name: 'Generate Keywords or Output' });
  await expect(generate).toBeDisabled();
  await generate.hover({ force: true });
  await expect(page.getByRole('tooltip')).toHaveText(
    'Have you remembered to select a feed and rows?',
  );

  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Template' });
  await dialog.getByLabel('Template name').fill('Brands');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Campaign template')).toHaveValue('Brands');

  await page.getByLabel('Campaign name pattern').fill('{root} - Search');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod} - {mt}');
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 1', { exact: true }).fill('{root} {mod}');
  await page.getByLabel('Match type 1', { exact: true }).selectOption('Broad');
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 2', { exact: true }).fill('{root} {mod}');
  await page.getByLabel('Match type 2', { exact: true }).selectOption('Exact');
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 3', { exact: true }).fill('cheap {mod}');
  await page.getByLabel('Match type 3', { exact: true }).selectOption('Negative Broad');
  // A line added by mistake goes again, by selection.
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByRole('checkbox', { name: 'Select keyword 4' }).check();
  await page.getByRole('button', { name: 'Delete (1)' }).click();
  await expect(page.getByLabel('Keyword 4', { exact: true })).toHaveCount(0);

  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await expect(generate).toBeEnabled();
  await generate.click();

  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
  expect(await outputLines(page, 'Keywords')).toEqual([
    'Nike - Search | Nike Running Shoes - Broad | nike running shoes | Broad',
    'Nike - Search | Nike Running Shoes - Exact | nike running shoes | Exact',
    'Puma - Search | Puma Sneakers - Broad | puma sneakers | Broad',
    'Puma - Search | Puma Sneakers - Exact | puma sneakers | Exact',
  ]);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download for Google Ads Editor: Keywords' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^kw client - keywords - \d{8}\.csv$/);
  const csv = await readFile(await file.path(), 'utf8');
  // Every download marks what Adloom makes with the client's label (issue 35).
  expect(csv.split('\r\n')[0]).toBe('\uFEFFCampaign,Ad Group,Keyword,Criterion Type,Labels');
  expect(csv).toContain(
    'Nike - Search,Nike Running Shoes - Exact,nike running shoes,Exact,adloom\r\n',
  );

  const zipDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download all for Google Ads Editor (zip)' }).click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toMatch(/^kw client - campaign output - \d{8}\.zip$/);
  const zipped = await readFile(await zip.path());
  expect(zipped.subarray(0, 2).toString('latin1')).toBe('PK');
  expect(zipped.includes(Buffer.from('negatives.csv'))).toBe(true);
  expect(zipped.includes(Buffer.from('ad groups.csv'))).toBe(true);

  // The ad groups: a table of their own, downloaded as Editor's ad groups file (Campaign, Ad
  // Group, Labels), as the command's ad-groups.csv.
  await page.getByRole('tab', { name: 'Ad Groups' }).click();
  expect(await outputLines(page, 'Ad Groups')).toEqual([
    'Nike - Search | Nike Running Shoes - Broad',
    'Nike - Search | Nike Running Shoes - Exact',
    'Puma - Search | Puma Sneakers - Broad',
    'Puma - Search | Puma Sneakers - Exact',
  ]);
  const adGroupsDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download for Google Ads Editor: Ad Groups' }).click();
  const adGroupsFile = await adGroupsDownload;
  expect(adGroupsFile.suggestedFilename()).toMatch(/^kw client - ad groups - \d{8}\.csv$/);
  expect((await readFile(await adGroupsFile.path(), 'utf8')).split('\r\n')).toEqual([
    '\uFEFFCampaign,Ad Group,Labels',
    'Nike - Search,Nike Running Shoes - Broad,adloom',
    'Nike - Search,Nike Running Shoes - Exact,adloom',
    'Puma - Search,Puma Sneakers - Broad,adloom',
    'Puma - Search,Puma Sneakers - Exact,adloom',
    '',
  ]);
  await expectNoSeriousAxeFindings(page, 'the Ad Groups table');
  if (process.env.SCREENS_OUT) {
    const output = page.getByRole('region', { name: 'Campaign output' });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await output.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.SCREENS_OUT}/ad-groups-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  }

  await page.getByRole('tab', { name: 'Negatives' }).click();
  expect(await outputLines(page, 'Negatives')).toEqual([
    'Nike - Search | Nike Running Shoes - Broad | cheap running shoes | Negative Broad',
    'Nike - Search | Nike Running Shoes - Exact | cheap running shoes | Negative Broad',
    'Puma - Search | Puma Sneakers - Broad | cheap sneakers | Negative Broad',
    'Puma - Search | Puma Sneakers - Exact | cheap sneakers | Negative Broad',
    'Nike - Search | Nike Running Shoes - Broad | nike running shoes | Negative Exact',
    'Puma - Search | Puma Sneakers - Broad | puma sneakers | Negative Exact',
  ]);
  // The clipboard still holds the pasted rows: empty it and wait for the copy.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.getByRole('button', { name: 'Copy Negatives' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Table contents copied to clipboard!' }).first(),
  ).toBeVisible();
  const readClipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await expect.poll(readClipboard).not.toBe('');
  const copied = await readClipboard();
  expect(copied.split('\n')[0]).toBe('Campaign\tAd Group\tKeyword\tCriterion Type');
  expect(copied.split('\n')).toHaveLength(7);

  // Changing the template keeps the output, marked as changed since (issue 14: a build stays).
  await page.getByLabel('Constant value').fill('x');
  await expect(page.getByRole('table', { name: 'Negatives', exact: true })).toBeVisible();
  await expect(page.getByText('Changed since: template')).toBeVisible();

  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Campaign template')).toHaveValue('Brands');
  await expect(page.getByLabel('Ad group name pattern')).toHaveValue('{root} {mod} - {mt}');
  await expect(page.getByLabel('Keyword 3', { exact: true })).toHaveValue('cheap {mod}');
  await expect(page.getByLabel('Match type 2', { exact: true })).toHaveValue('Exact');
});

test('two pages edit the campaign templates: the second save opens the conflict dialog; a duplicate setting is refused', async ({
  page,
  context,
}) => {
  await startWithRows(page, 'tplconflict', 'root\nNike\n');
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Template' });
  await dialog.getByLabel('Template name').fill('Brands');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  // A second new template of the same name gets ' (1)'.
  await page.getByRole('button', { name: 'New Template' }).click();
  await dialog.getByLabel('Template name').fill('Brands');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Campaign template')).toHaveValue('Brands (1)');
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  const other = await context.newPage();
  await other.goto('/campaign-builder');
  await expect(other.getByLabel('Campaign template')).toHaveValue('Brands');

  await page.getByLabel('Campaign template').selectOption('Brands');
  await page.getByLabel('Campaign name pattern').fill('{root} first');
  await page.getByRole('button', { name: 'Save Template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  await other.getByLabel('Campaign name pattern').fill('{root} second');
  await other.getByRole('button', { name: 'Save Template' }).click();
  const conflict = other.getByRole('dialog', { name: 'A newer version was saved elsewhere' });
  await expect(conflict).toContainText("This client's campaign templates changed");
  await conflict.getByRole('button', { name: 'Load the newer version' }).click();
  await expect(other.getByLabel('Campaign name pattern')).toHaveValue('{root} first');

  await other.getByRole('button', { name: 'Add Setting' }).click();
  const setting = other.getByRole('dialog', { name: 'New Setting' });
  await setting.getByLabel('Setting name').fill('Networks');
  await setting.getByRole('button', { name: 'Add New' }).click();
  await other.getByRole('button', { name: 'Add Setting' }).click();
  await setting.getByLabel('Setting name').fill('networks');
  await setting.getByRole('button', { name: 'Add New' }).click();
  await expect(setting).toContainText('Setting already exists on template');
  await setting.getByRole('button', { name: 'Cancel' }).click();
  await expect(other.getByRole('checkbox', { name: /^Include / })).toHaveCount(3);
});

test('a Performance Max template generates asset groups and campaigns with its settings, a setting is renamed, a copy is deleted, and it survives a reload', async ({
  page,
}) => {
  await startWithRows(page, 'pmax', 'root\tmod\n1023191\tShoes\n1023191\tBoots\n');
  await expect(cell(page, 'Modifier', 2)).toHaveValue('Boots');
  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Template' });
  await dialog.getByLabel('Template name').fill('PMax');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await page.getByText('Performance Max', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Performance Max' })).toBeChecked();
  await expect(page.getByLabel('Ad group name pattern')).toHaveCount(0);
  await page.getByLabel('Campaign name pattern').fill('PMax {root}');
  await page.getByLabel('Asset group pattern').fill('{mod}');
  await page.getByRole('textbox', { name: 'Budget' }).fill('25');
  await page.getByRole('switch', { name: 'Location Campaign' }).click();
  await expect(page.getByRole('switch', { name: 'Location Campaign' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Location ID' })).toHaveValue('{root}');
  await page.getByRole('button', { name: 'Add Setting' }).click();
  const setting = page.getByRole('dialog', { name: 'New Setting' });
  await setting.getByLabel('Setting name').fill('Campaign Status');
  await setting.getByRole('button', { name: 'Add New' }).click();
  await page.getByRole('textbox', { name: 'Value of Campaign Status' }).fill('Paused');
  // Renamed with the rename modal: the value stays, the output column takes the new name.
  await page.getByRole('button', { name: 'Rename Campaign Status' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename Setting' });
  await expect(rename.getByLabel('Setting name')).toHaveValue('Campaign Status');
  await rename.getByLabel('Setting name').fill('Status');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Value of Status' })).toHaveValue('Paused');
  await expect(page.getByRole('checkbox', { name: 'Include Campaign Status' })).toHaveCount(0);

  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Asset Groups', exact: true })).toBeVisible();
  expect(await outputLines(page, 'Asset Groups')).toEqual([
    'PMax 1023191 | Shoes | Performance Max',
    'PMax 1023191 | Boots | Performance Max',
  ]);
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).last().click();
  await expect(
    page.getByRole('table', { name: 'Campaigns', exact: true }).getByRole('columnheader'),
  ).toHaveText(['Campaign', 'Campaign Type', 'Budget', 'Location ID', 'Status']);
  // Editor takes one location per row: the campaign's row, then its location's.
  expect(await outputLines(page, 'Campaigns')).toEqual([
    'PMax 1023191 | Performance Max | 25 |  | Paused',
    'PMax 1023191 |  |  | 1023191 | ',
  ]);

  // Copy Template makes 'PMax (1)' with the same settings; Delete Template asks first.
  const template = page.getByLabel('Campaign template');
  await page.getByRole('button', { name: 'Copy Template' }).click();
  await expect(template).toHaveValue('PMax (1)');
  await expect(page.getByLabel('Asset group pattern')).toHaveValue('{mod}');
  await expect(page.getByRole('textbox', { name: 'Value of Status' })).toHaveValue('Paused');
  await page.getByRole('button', { name: 'Delete Template' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete Template' });
  await expect(confirm).toContainText('Delete the template "PMax (1)"?');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(template).toHaveValue('PMax (1)');
  await page.getByRole('button', { name: 'Delete Template' }).click();
  await confirm.getByRole('button', { name: 'Delete Template' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(template).toHaveValue('PMax');
  await expect(template.getByRole('option', { name: 'PMax (1)' })).toHaveCount(0);
  // Deleting saves: after a reload only 'PMax' is there, a Performance Max template still.
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  await page.reload();
  await expect(template).toHaveValue('PMax');
  await expect(template.getByRole('option', { name: 'PMax (1)' })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Performance Max' })).toBeChecked();
  await expect(page.getByLabel('Asset group pattern')).toHaveValue('{mod}');
  await expect(page.getByRole('textbox', { name: 'Value of Status' })).toHaveValue('Paused');
});

// Screenshots of the Campaigns tab for a visual review; only when SCREENS_OUT names a folder:
// SCREENS_OUT=/tmp/screens npx playwright test journeys/templates-campaign
for (const width of [390, 1440]) {
  test(`Campaigns tab screens at ${width} px`, async ({ page }) => {
    const out = process.env.SCREENS_OUT;
    test.skip(!out, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await startWithRows(
      page,
      `screens${width}`,
      'root\tmod\tvar1\nNike\tRunning Shoes\tred\nPuma\tSneakers\tblue\nAdidas\t!!!\tgreen\n',
    );
    await page.getByRole('button', { name: 'New Template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Template' });
    await dialog.getByLabel('Template name').fill('Brands');
    await dialog.getByRole('button', { name: 'Add New' }).click();
    await page.getByLabel('Campaign name pattern').fill('{root} - Search');
    await page.getByLabel('Ad group name pattern').fill('{root} {mod} - {mt}');
    for (const [i, [keyword, matchType]] of [
      ['{root} {mod}', 'Broad'],
      ['{root} {mod}', 'Exact'],
      ['{mod} {var1}', 'Phrase'],
    ].entries()) {
      await page.getByRole('button', { name: 'Add Keyword' }).click();
      await page.getByLabel(`Keyword ${i + 1}`, { exact: true }).fill(keyword!);
      await page.getByLabel(`Match type ${i + 1}`, { exact: true }).selectOption(matchType!);
    }
    await page.getByRole('button', { name: 'Add Setting' }).click();
    const setting = page.getByRole('dialog', { name: 'New Setting' });
    await setting.getByLabel('Setting name').fill('Networks and a very long setting name');
    await setting.getByRole('button', { name: 'Add New' }).click();
    await page.getByRole('checkbox', { name: 'Select all rows' }).check();
    await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
    await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
    await page
      .getByRole('region', { name: 'Campaign output' })
      .screenshot({ path: `${out}/campaigns-output-${width}.png` });
    await page
      .getByRole('region', { name: 'Templates' })
      .screenshot({ path: `${out}/templates-section-${width}.png` });
    await page.screenshot({ path: `${out}/campaigns-tab-${width}.png`, fullPage: true });
  });
}

test('a template save that cannot reach the server says so in plain words, not the browser’s', async ({
  page,
}) => {
  await startWithClient(page, 'offline');
  await newCampaignTemplate(page, 'Brands', {
    campaign: '{root}',
    adGroup: '{root} {mod}',
    keyword: '{root} {mod}',
  });
  // The connection drops: every save fails before it reaches the server, as with the server down.
  await page.route('**/api/app/**', (route) =>
    route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
  );
  await page.getByRole('button', { name: 'Save Template' }).click();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const alert = page.getByRole('alert').filter({ hasText: 'Unable to save templates:' }).first();
    await expect(alert).toContainText('Could not reach the server. Check your connection');
    await expect(alert).not.toContainText('Failed to fetch');
    await expect(alert).toBeInViewport();
  }
});
