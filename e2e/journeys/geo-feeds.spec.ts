import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { GEO_MESSAGES } from '@adloom/contract';
import { test as base, expect, testOnServer, uniqueEmail } from '../fixtures.ts';
import { REPO_ROOT } from '../support/server.ts';
import { cell, newCampaignTemplate, signUp, startWithClient } from './support.ts';

/** Google's geo targets for tests: the server suite's extract (apps/server/test/fixtures/geo). */
const GEO_EXTRACT = resolve(REPO_ROOT, 'apps/server/test/fixtures/geo/geotargets-extract.csv');
/** The DE cities of the extract whose canonical name contains 'berlin', by criteria ID. */
const BERLIN_CITIES = [
  ['1003854', 'Berlin'],
  ['1004063', 'Uberlingen'],
  ['9048216', 'Bernau bei Berlin'],
  ['9198313', 'Mitte'],
];

/**
 * Journeys against a server that loads the 7,557-row extract at start (GEO_TARGETS_FILE, before
 * it listens): one per worker.
 */
const test = testOnServer({ GEO_TARGETS_FILE: GEO_EXTRACT });

test.setTimeout(120_000);

function geoDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'New Geo Feed' });
}

/** A CSV line's cells (Editor CSVs quote only cells that need it). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  const pattern = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (const match of line.matchAll(pattern)) {
    const value = match[1] ?? '';
    cells.push(value.startsWith('"') ? value.slice(1, -1).replace(/""/g, '"') : value);
    if (match[2] === '') break;
  }
  return cells;
}

test('DE + City + berlin: a geo feed of criteria IDs becomes a location campaign, and the Editor CSV carries the IDs', async ({
  page,
}) => {
  await startWithClient(page, 'geo');
  await page.getByRole('button', { name: 'New Geo Feed' }).click();
  const dialog = geoDialog(page);
  // The extract's file name carries no release date: the file's own date is the release.
  await expect(
    dialog.getByText(/^Google geo targets of \d{4}-\d{2}-\d{2} \(7,557 targets\)$/),
  ).toBeVisible();
  await expect(dialog.getByText(GEO_MESSAGES.footnotes)).toBeVisible();
  const create = dialog.getByRole('button', { name: 'Create Feed' });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription(GEO_MESSAGES.required);

  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Berlin cities');
  await dialog.getByLabel('Target Type').selectOption('City');
  await dialog.getByLabel('Country Code').pressSequentially('de');
  await expect(dialog.getByLabel('Country Code')).toHaveValue('DE');
  await dialog.getByLabel('Canonical Name Filter').fill('berlin');
  await expect(dialog.getByRole('status')).toHaveText('4 targets match');
  const preview = dialog.getByRole('table', { name: 'First matching geo targets' });
  await expect(preview.getByRole('row').nth(1).getByRole('cell')).toHaveText([
    '1003854',
    'Berlin',
    'Berlin, Berlin, Germany',
    'City',
    '',
  ]);
  await expect(preview.getByRole('row')).toHaveCount(1 + BERLIN_CITIES.length);

  await expect(create).toBeEnabled();
  await create.click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: GEO_MESSAGES.creating(4) })
      .first(),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('Berlin cities');
  for (const [i, [id, name]] of BERLIN_CITIES.entries()) {
    await expect(cell(page, 'Root', i + 1)).toHaveValue(id!);
    await expect(cell(page, 'Modifier', i + 1)).toHaveValue(name!);
  }
  await expect(cell(page, 'Var 1', 1)).toHaveValue('');
  await expect(page.getByRole('status').filter({ hasText: 'Unsaved changes' })).toBeVisible();
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();

  // A location campaign: Location ID is {root}, so each campaign targets its criteria ID.
  await newCampaignTemplate(page, 'Geo', {
    campaign: '{mod} - Geo',
    adGroup: '{mod} - {mt}',
    keyword: 'hotel {mod}',
  });
  await page.getByRole('switch', { name: 'Location Campaign' }).click();
  await expect(page.getByRole('textbox', { name: 'Location ID' })).toHaveValue('{root}');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).last().click();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download for Google Ads Editor: Campaigns' }).click();
  const csv = (await readFile(await (await download).path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header, ...lines] = csv.split('\r\n').filter((line) => line !== '');
  const columns = csvCells(header!);
  const campaignAt = columns.indexOf('Campaign');
  const locationAt = columns.indexOf('Location ID');
  expect(locationAt).toBeGreaterThan(0);
  const locations = lines
    .map(csvCells)
    .filter((cells) => cells[locationAt] !== '')
    .map((cells) => [cells[campaignAt], cells[locationAt]]);
  expect(locations).toEqual(BERLIN_CITIES.map(([id, name]) => [`${name} - Geo`, id]));
});

test('New Geo Data Table on the Lists tab of /lists makes a data table of countries', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('geolists'), 'geolists-password-1', { open: false });
  await page.goto('/lists');
  await page.getByRole('tab', { name: 'Lists' }).click();
  await page.getByRole('button', { name: 'New Geo Data Table' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Geo Data Table' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Germany');
  await dialog.getByLabel('Target Type').selectOption('Country');
  // Country needs no country code (spec section 5).
  await dialog.getByLabel('Canonical Name Filter').fill('GERMANY');
  await expect(dialog.getByRole('status')).toHaveText('1 target matches');
  await dialog.getByRole('button', { name: 'Create Data Table' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Data Tables' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByLabel('Data Table', { exact: true })).toHaveValue('Germany');
  await expect(cell(page, 'Root', 1)).toHaveValue('2276');
  await expect(cell(page, 'Modifier', 1)).toHaveValue('Germany');
});

base(
  'a server without geo targets says how an operator loads them, with no dead button',
  async ({ page }) => {
    await startWithClient(page, 'geonone');
    await page.getByRole('button', { name: 'New Geo Feed' }).click();
    const dialog = geoDialog(page);
    await expect(dialog.getByRole('alert')).toContainText(GEO_MESSAGES.notLoaded);
    await expect(dialog.getByRole('button', { name: 'Create Feed' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog).toHaveCount(0);
  },
);
