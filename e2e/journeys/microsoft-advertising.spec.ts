import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Download, Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { expect, test, testOnServer } from '../fixtures.ts';
import { REPO_ROOT } from '../support/server.ts';
import {
  cell,
  expectNoSeriousAxeFindings,
  MOD,
  newTemplate,
  startWithClient,
  startWithRows,
} from './support.ts';

// Issue 40: the same build as Google Ads Editor files and as one Microsoft Advertising bulk file
// (with its report), from a table's own download and from "Download everything".

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(180_000);

const EDITOR_ALL = 'Download everything for Google Ads Editor (zip)';
/** The Microsoft locations file control's label. */
const LOCATIONS_FILE = 'Microsoft locations file';
/** Microsoft's layout with made-up Ids (United States: 700002), as the engine's tests use it. */
const MICROSOFT_SAMPLE = resolve(
  REPO_ROOT,
  'packages/engine/test/fixtures/microsoft-locations/geolocations-sample.csv',
);
/** Google's geo targets for tests: the server suite's extract (apps/server/test/fixtures/geo). */
const GEO_EXTRACT = resolve(REPO_ROOT, 'apps/server/test/fixtures/geo/geotargets-extract.csv');
const MICROSOFT_ALL = 'Download everything for Microsoft Advertising (zip)';

const ROWS =
  'root\tmod\tvar1\tvar2\tvar3\turl\n' +
  'Nike\tShoes\t\t\t\thttps://nike.example/shoes\n' +
  'Puma\tBoots\t\t\t\thttps://puma.example/boots\n';

/** A campaign template with a budget and a Google location, its keywords, RSAs and callouts. */
async function generateBuild(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await newTemplate(page, 'Brands');
  await page.getByLabel('Campaign name pattern').fill('{root} - Search');
  await page.getByLabel('Ad group name pattern').fill('{root} {mod}');
  await page.getByRole('checkbox', { name: 'Include Budget' }).check();
  await page.getByLabel('Budget', { exact: true }).fill('20');
  await page.getByRole('checkbox', { name: 'Include Location' }).check();
  await page.getByLabel('Location', { exact: true }).fill('2840');
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

/** A downloaded zip's entries, by name. */
async function zipEntries(download: Download): Promise<Record<string, Uint8Array>> {
  return unzipSync(new Uint8Array(await readFile(await download.path())));
}

/** A CSV's records (BOM dropped) as objects under its header. */
function records(bytes: Uint8Array | undefined): Record<string, string>[] {
  const text = new TextDecoder('utf-8').decode(bytes);
  expect(text.endsWith('\r\n')).toBe(true);
  const [header, ...lines] = text.split('\r\n').slice(0, -1);
  const names = header!.split(',');
  // The test's build has no comma or quote inside a cell but in the RSA JSON, read apart.
  return lines.map((line) => {
    const cells: string[] = [];
    let rest = line;
    while (rest !== '') {
      if (rest.startsWith('"')) {
        const end = rest.indexOf('"', rest.indexOf(']"'));
        cells.push(rest.slice(1, end).replaceAll('""', '"'));
        rest = rest.slice(end + 2);
      } else {
        const comma = rest.indexOf(',');
        cells.push(comma < 0 ? rest : rest.slice(0, comma));
        rest = comma < 0 ? '' : rest.slice(comma + 1);
        if (comma >= 0 && rest === '') cells.push('');
      }
    }
    return Object.fromEntries(names.map((n, i) => [n, cells[i] ?? '']));
  });
}

test('the same build downloads for Google Ads Editor and for Microsoft Advertising', async ({
  page,
}) => {
  await startWithRows(page, 'msads', ROWS);
  await expect(cell(page, 'Root', 2)).toHaveValue('Puma');
  await generateBuild(page);

  // The keywords table's own Microsoft download: a zip of the bulk file and its report.
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
  const own = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download for Microsoft Advertising: Keywords' }).click();
  const ownZip = await own;
  const date = ownZip
    .suggestedFilename()
    .match(/^msads client - keywords for Microsoft Advertising - (\d{8})\.zip$/)?.[1];
  expect(date).toBeDefined();
  const ownEntries = await zipEntries(ownZip);
  const named = (stem: string) => `msads client - ${stem} - ${date}.csv`;
  expect(Object.keys(ownEntries)).toEqual([
    named('microsoft advertising'),
    named('microsoft advertising report'),
  ]);
  const ownBulk = records(ownEntries[named('microsoft advertising')]);
  expect(ownBulk[0]).toMatchObject({ Type: 'Format Version', Name: '6.0' });
  const ownKeywords = ownBulk.filter((r) => r.Type === 'Keyword');
  expect(ownKeywords.map((r) => `${r.Type}|${r.Campaign}|${r.Keyword}|${r['Match Type']}`)).toEqual(
    [
      'Keyword|Nike - Search|nike shoes|Broad',
      'Keyword|Nike - Search|nike shoes|Exact',
      'Keyword|Puma - Search|puma boots|Broad',
      'Keyword|Puma - Search|puma boots|Exact',
    ],
  );
  // Each keyword carries the client's label: the Label record, then one association per keyword.
  const labelRecord = ownBulk.find((r) => r.Type === 'Label');
  expect(labelRecord).toMatchObject({ Label: 'adloom' });
  const keywordLabels = ownBulk.filter((r) => r.Type === 'Keyword Label');
  expect(keywordLabels.map((r) => r['Parent Id'])).toEqual(ownKeywords.map((r) => r.Id));
  expect(keywordLabels.every((r) => r.Id === labelRecord!.Id)).toBe(true);

  // The Campaigns tab's own zip for Microsoft: its tables as one bulk file and its report.
  const tabDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download all for Microsoft Advertising (zip)' }).click();
  const tabZip = await tabDownload;
  expect(tabZip.suggestedFilename()).toBe(
    `msads client - campaign output for Microsoft Advertising - ${date}.zip`,
  );
  const tabEntries = await zipEntries(tabZip);
  expect(Object.keys(tabEntries)).toEqual([
    named('microsoft advertising'),
    named('microsoft advertising report'),
  ]);
  const tabBulk = records(tabEntries[named('microsoft advertising')]);
  const keyOf = (r: Record<string, string>) =>
    `${r.Type}|${r.Campaign}|${r.Keyword}|${r['Match Type']}`;
  expect(tabBulk.filter((r) => r.Type === 'Keyword').map(keyOf)).toEqual(ownKeywords.map(keyOf));
  expect(tabBulk.filter((r) => r.Type === 'Campaign').map((r) => r.Campaign)).toEqual([
    'Nike - Search',
    'Puma - Search',
  ]);
  // With their ad groups in the same file, keywords name them by the new ad groups' keys.
  const tabGroups = tabBulk.filter((r) => r.Type === 'Ad Group');
  expect(tabGroups.map((r) => r['Ad Group'])).toEqual(['Nike Shoes', 'Puma Boots']);
  expect(
    tabBulk
      .filter((r) => r.Type === 'Keyword')
      .map((r) => tabGroups.find((g) => g.Id === r['Parent Id'])?.['Ad Group']),
  ).toEqual(['Nike Shoes', 'Nike Shoes', 'Puma Boots', 'Puma Boots']);

  await expectNoSeriousAxeFindings(page, 'campaigns tab with the Microsoft download');

  // The responsive search ads tab's own Microsoft download: the ads under their ad groups.
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  const adsDownload = page.waitForEvent('download');
  await page
    .getByRole('button', { name: 'Download for Microsoft Advertising: Responsive Search Ads' })
    .click();
  const adsZip = await adsDownload;
  expect(adsZip.suggestedFilename()).toBe(
    `msads client - responsive search ads for Microsoft Advertising - ${date}.zip`,
  );
  const adsBulk = records((await zipEntries(adsZip))[named('microsoft advertising')]);
  expect(
    adsBulk
      .filter((r) => r.Type === 'Responsive Search Ad')
      .map((r) => [
        r['Ad Group'],
        (JSON.parse(r.Headline!) as { text: string }[]).map((h) => h.text),
      ]),
  ).toEqual([
    ['Nike Shoes', ['Buy Nike', 'Free delivery', 'Official store']],
    ['Puma Boots', ['Buy Puma', 'Free delivery', 'Official store']],
  ]);

  // Both "Download everything" zips.
  const editorDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: EDITOR_ALL }).click();
  const editor = await zipEntries(await editorDownload);
  const microsoftDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: MICROSOFT_ALL }).click();
  const microsoftZip = await microsoftDownload;
  expect(microsoftZip.suggestedFilename()).toBe(
    `msads client - all outputs for Microsoft Advertising - ${date}.zip`,
  );
  const microsoft = await zipEntries(microsoftZip);
  expect(Object.keys(microsoft)).toEqual([
    named('microsoft advertising'),
    named('microsoft advertising report'),
    named('skipped and cleaned'),
  ]);

  const bulk = records(microsoft[named('microsoft advertising')]);
  const of = (type: string) => bulk.filter((r) => r.Type === type);
  // The same campaigns, ad groups, keywords and ads as the Editor files.
  const editorKeywords = records(editor[named('keywords')]).map(
    (r) => `${r.Campaign}|${r['Ad Group']}|${r.Keyword}|${r['Criterion Type']}`,
  );
  expect(
    of('Keyword').map((r) => `${r.Campaign}|${r['Ad Group']}|${r.Keyword}|${r['Match Type']}`),
  ).toEqual(editorKeywords);
  expect(of('Campaign').map((r) => r.Campaign)).toEqual(
    records(editor[named('campaigns')])
      .filter((r) => r['Campaign Type'] !== '')
      .map((r) => r.Campaign),
  );
  const editorAds = records(editor[named('responsive search ads')]);
  expect(
    of('Responsive Search Ad').map((r) => [
      r.Campaign,
      r['Ad Group'],
      (JSON.parse(r.Headline!) as { text: string }[]).map((h) => h.text),
    ]),
  ).toEqual(
    editorAds.map((r) => [
      r.Campaign,
      r['Ad Group'],
      [r['Headline 1'], r['Headline 2'], r['Headline 3']],
    ]),
  );
  expect(of('Ad Group').map((r) => `${r.Campaign}|${r['Ad Group']}|${r.Status}`)).toEqual([
    'Nike - Search|Nike Shoes|Active',
    'Puma - Search|Puma Boots|Active',
  ]);
  // Google's location 2840 is no Microsoft location ID: not written, the campaigns paused.
  expect(of('Campaign').map((r) => [r.Status, r.Budget, r['Budget Type']])).toEqual([
    ['Paused', '20', 'DailyBudgetStandard'],
    ['Paused', '20', 'DailyBudgetStandard'],
  ]);
  expect(of('Campaign Location Criterion')).toEqual([]);
  expect(bulk.some((r) => Object.values(r).includes('2840'))).toBe(false);
  // Each child names its new parent by its negative key.
  const campaignKey = of('Campaign')[0]!.Id;
  expect(Number(campaignKey)).toBeLessThan(0);
  expect(of('Ad Group')[0]!['Parent Id']).toBe(campaignKey);
  expect(of('Keyword')[0]!['Parent Id']).toBe(of('Ad Group')[0]!.Id);
  expect(of('Callout Ad Extension').map((r) => r['Callout Text'])).toEqual([
    'All Nike Shoes',
    'All Puma Boots',
  ]);
  expect(of('Ad Group Callout Ad Extension')).toHaveLength(2);

  const report = records(microsoft[named('microsoft advertising report')]);
  expect(report.map((r) => `${r.Type}|${r.Item}|${r.Outcome}`)).toEqual([
    'Campaign Location Criterion|2840|Not written',
    'Campaign|Nike - Search|Paused',
    'Campaign Location Criterion|2840|Not written',
    'Campaign|Puma - Search|Paused',
    'Ad Group Negative Keyword|cheap shoes|Changed',
    'Ad Group Negative Keyword|cheap boots|Changed',
    'Callout Ad Extension||Changed',
    'Callout Ad Extension||Changed',
  ]);
});

/** Chooses Microsoft's locations file in the Templates section; it shows as kept. */
async function keepLocationsFile(page: Page): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: LOCATIONS_FILE }).click();
  await (await chooser).setFiles(MICROSOFT_SAMPLE);
  await expect(
    page.getByText(/^geolocations-sample\.csv \(1 KB\), kept in this browser/),
  ).toBeVisible();
}

/** The campaigns of "Download everything for Microsoft Advertising", and its report. */
async function microsoftCampaigns(page: Page) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: MICROSOFT_ALL }).click();
  const entries = await zipEntries(await download);
  const name = (stem: string) => Object.keys(entries).find((n) => n.includes(` - ${stem} - `))!;
  const bulk = records(entries[name('microsoft advertising')]);
  return {
    campaigns: bulk
      // The campaigns and their locations (not their label associations).
      .filter((r) => r.Type!.startsWith('Campaign') && !r.Type!.endsWith(' Label'))
      .map((r) => [r.Type, r.Campaign, r.Status, r.Target]),
    report: records(entries[name('microsoft advertising report')]).map(
      (r) => `${r.Type}|${r.Item}|${r.Outcome}`,
    ),
  };
}

/** Against a server with Google's geo targets loaded (the extract), which names 2840. */
const geoTest = testOnServer({ GEO_TARGETS_FILE: GEO_EXTRACT });
geoTest.use({ permissions: ['clipboard-read', 'clipboard-write'] });

geoTest(
  "with Microsoft's locations file kept, the campaigns' locations are written and they run",
  async ({ page }) => {
    await startWithClient(page, 'msgeo');
    await keepLocationsFile(page);
    await expectNoSeriousAxeFindings(page, 'Microsoft locations file kept');
    // Kept in this browser for next time.
    await page.reload();
    await expect(page.getByText(/^geolocations-sample\.csv \(1 KB\), kept/)).toBeVisible();

    // The same person's client: its rows pasted.
    await cell(page, 'Root', 1).click();
    await page.evaluate((text) => navigator.clipboard.writeText(text), ROWS);
    await page.keyboard.press(`${MOD}+V`);
    await expect(cell(page, 'Root', 2)).toHaveValue('Puma');
    await generateBuild(page);
    const mapped = await microsoftCampaigns(page);
    expect(mapped.campaigns).toEqual([
      ['Campaign', 'Nike - Search', 'Active', ''],
      ['Campaign Location Criterion', 'Nike - Search', 'Active', '700002'],
      ['Campaign', 'Puma - Search', 'Active', ''],
      ['Campaign Location Criterion', 'Puma - Search', 'Active', '700002'],
    ]);
    expect(mapped.report.filter((r) => r.startsWith('Campaign'))).toEqual([]);
    await expect(
      page.getByText(
        'Microsoft Advertising: 1 of 1 Google location mapped to Microsoft Location Ids.',
      ),
    ).toBeVisible();

    // Removed: as before, the location reported and the campaigns paused.
    await page.getByRole('button', { name: 'Remove Microsoft locations file' }).click();
    await expect(page.getByRole('button', { name: LOCATIONS_FILE })).toBeVisible();
    const unmapped = await microsoftCampaigns(page);
    expect(unmapped.campaigns).toEqual([
      ['Campaign', 'Nike - Search', 'Paused', ''],
      ['Campaign', 'Puma - Search', 'Paused', ''],
    ]);
    expect(unmapped.report.filter((r) => r.startsWith('Campaign'))).toEqual([
      'Campaign Location Criterion|2840|Not written',
      'Campaign|Nike - Search|Paused',
      'Campaign Location Criterion|2840|Not written',
      'Campaign|Puma - Search|Paused',
    ]);
  },
);

// Screenshots of the Templates section and an output table with the Microsoft downloads; only
// when SCREENS_OUT names a folder: SCREENS_OUT=/tmp/screens npx playwright test journeys/microsoft
for (const width of [390, 1440]) {
  test(`Microsoft downloads screens at ${width} px`, async ({ page }) => {
    const out = process.env.SCREENS_OUT;
    test.skip(!out, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await startWithRows(page, `msscreens${width}`, ROWS);
    await generateBuild(page);
    await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
    const section = page.getByRole('region', { name: 'Templates' });
    await section.getByRole('heading', { name: 'Templates' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/microsoft-everything-${width}.png` });
    await page
      .getByRole('button', { name: 'Download for Microsoft Advertising: Keywords' })
      .scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/microsoft-table-${width}.png` });
    await expectNoSeriousAxeFindings(page, `Microsoft downloads at ${width}`);
    // The Microsoft locations file control, empty and with the file kept.
    const control = page.getByRole('button', { name: LOCATIONS_FILE });
    await control.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${out}/microsoft-locations-empty-${width}.png` });
    await keepLocationsFile(page);
    await page.screenshot({ path: `${out}/microsoft-locations-kept-${width}.png` });
    await expectNoSeriousAxeFindings(page, `Microsoft locations file kept at ${width}`);
  });
}
