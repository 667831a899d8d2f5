import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { GUIDE_IDS, type GuideId } from '@adloom/contract';
import { startGoogleStandIn } from '../../apps/server/test/google-stand-in.ts';
import { test as base, expect } from '../fixtures.ts';
import { REPO_ROOT, startServer, type RunningServer } from '../support/server.ts';
import { cell, newCampaignTemplate, newTemplate, startWithRows } from './support.ts';

// Makes the guides' walkthrough screenshots (apps/web/public/guides/<guide>.webp) from the real
// screens, at the size the help overlay declares (GUIDE_SCREENSHOT_WIDTH × _HEIGHT). Runs only
// when GUIDE_SCREENS_OUT names the folder:
// GUIDE_SCREENS_OUT=../apps/web/public/guides npx playwright test journeys/guide-screens
const out = process.env.GUIDE_SCREENS_OUT;
const WIDTH = 1200;
const HEIGHT = 720;
/** WebP quality: small files, text still crisp. */
const QUALITY = 0.8;

/** Google's geo targets for tests, kept beside the repository (as in geo-feeds.spec.ts). */
const GEO_EXTRACT = resolve(REPO_ROOT, 'apps/server/test/fixtures/geo/geotargets-extract.csv');

/** Germany's rows of the extract: enough for the geo feed screen, quick to load. */
function germanGeoTargets(): string {
  const lines = readFileSync(GEO_EXTRACT, 'utf8').split('\n');
  const file = join(mkdtempSync(join(tmpdir(), 'adloom-guide-geo-')), 'geotargets-de.csv');
  writeFileSync(file, [lines[0], ...lines.filter((line) => line.includes(',"DE",'))].join('\n'));
  return file;
}

/** A server with Google Sheets (the stand-in) and geo targets, so every screen is as in use. */
const test = base.extend<object, { guideServer: RunningServer }>({
  guideServer: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const standIn = await startGoogleStandIn();
      const server = await startServer({
        env: { ...standIn.settings, GEO_TARGETS_FILE: germanGeoTargets() },
      });
      try {
        await use(server);
      } finally {
        await server.stop();
        await standIn.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ guideServer }, use) => use(guideServer.url),
});

test.use({
  viewport: { width: WIDTH, height: HEIGHT },
  permissions: ['clipboard-read', 'clipboard-write'],
});
test.setTimeout(300_000);

/** Takes the viewport and has Chromium encode it as WebP (no image tool needed). */
async function shoot(page: Page, id: GuideId): Promise<void> {
  await page.waitForTimeout(400);
  const png = await page.screenshot();
  const dataUrl = await page.evaluate(
    async ({ base64, quality }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      return canvas.toDataURL('image/webp', quality);
    },
    { base64: png.toString('base64'), quality: QUALITY },
  );
  expect(dataUrl.startsWith('data:image/webp;base64,')).toBe(true);
  writeFileSync(`${out}/${id}.webp`, Buffer.from(dataUrl.split(',')[1]!, 'base64'));
}

/** Scrolls the builder so `heading` sits at the top of the view. */
async function showSection(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { name: heading, exact: true }).evaluate((element) => {
    element.scrollIntoView({ block: 'start' });
    // The top bar stays over the page: the section starts just below it, not under it.
    const bar = document.querySelector('header');
    window.scrollBy(0, -((bar?.getBoundingClientRect().height ?? 0) + 12));
  });
}

test('screenshots of the real screens for the guides', async ({ page }) => {
  test.skip(!out, 'GUIDE_SCREENS_OUT is not set');
  mkdirSync(out!, { recursive: true });
  const shot = (id: GuideId) => shoot(page, id);

  await startWithRows(
    page,
    'running',
    'root\tmod\tvar1\tvar2\tvar3\turl\n' +
      'Nike\tRunning Shoes\tPegasus\t\t\thttps://shop.example/nike\n' +
      'Adidas\tRunning Shoes\tUltraboost\t\t\thttps://shop.example/adidas\n' +
      'Asics\tRunning Shoes\tNovablast\t\t\thttps://shop.example/asics\n' +
      'Hoka\tRunning Shoes\tClifton\t\t\thttps://shop.example/hoka\n',
  );
  await expect(cell(page, 'Root', 4)).toHaveValue('Hoka');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  // The save's notice comes after the badge and fades after its 5 s: the picture shows the
  // screen, not the notice (waiting only for its absence passed before it came).
  const notice = page.getByRole('status').filter({ hasText: 'Feeds successfully updated' });
  await expect(notice).toBeVisible();
  await expect(notice).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot('intro');
  await showSection(page, 'Data Table');
  await shot('data-table');

  await newCampaignTemplate(page, 'Running shoes', {
    campaign: '{root}',
    adGroup: '{root} {mod}',
    keyword: '{root} {mod}',
  });
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 2', { exact: true }).fill('{root} {var1}');
  await page.getByLabel('Match type 2', { exact: true }).selectOption('Exact');
  await showSection(page, 'Templates');
  await shot('campaign-template');
  await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
  const output = page.getByRole('tab', { name: 'Keywords' });
  await output.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await shot('campaign-builder');

  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Brand ads');
  const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
  await fallback.getByLabel('Headline 1', { exact: true }).fill('{root} {mod}');
  await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
  await fallback.getByLabel('Headline 3', { exact: true }).fill('{root} {var1}');
  await fallback.getByLabel('Headline 4', { exact: true }).fill('Official store');
  await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} {mod} today.');
  await fallback.getByLabel('Description 2', { exact: true }).fill('Free returns on every pair.');
  await fallback.getByLabel('Path 1', { exact: true }).fill('{root}');
  await showSection(page, 'Templates');
  await shot('rsa-templates');
  await page.getByRole('button', { name: 'Ad Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Responsive Search Ad preview' });
  await preview.getByRole('button', { name: 'Pause' }).click();
  await expect(preview.getByRole('article', { name: 'Ad preview' })).toBeVisible();
  await shot('live-previews');
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);

  await showSection(page, 'Data Table');
  await page.getByRole('button', { name: 'New Geo Feed' }).click();
  const geo = page.getByRole('dialog', { name: 'New Geo Feed' });
  await geo.getByRole('textbox', { name: 'Name', exact: true }).fill('German cities');
  await geo.getByLabel('Target Type').selectOption('City');
  await geo.getByLabel('Country Code').pressSequentially('de');
  await geo.getByLabel('Canonical Name Filter').fill('berlin');
  await expect(geo.getByRole('status')).toHaveText('4 targets match');
  await shot('geo-feeds');
  await page.keyboard.press('Escape');

  await page.goto('/lists');
  await expect(page.getByRole('heading', { name: 'Lists', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: 'Lists' }).click();
  await page.getByRole('button', { name: 'New List' }).click();
  const newList = page.getByRole('dialog', { name: 'New List' });
  await newList.getByLabel('List name').fill('Colours');
  await newList.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('List', { exact: true })).toHaveValue('Colours');
  await cell(page, 'Root', 1).click();
  await page.evaluate(() => navigator.clipboard.writeText('root\nblack\nwhite\nred\nblue'));
  await page.keyboard.press('Control+V');
  await expect(cell(page, 'Root', 4)).toHaveValue('blue');
  await shot('lists-and-feeds');

  await page.goto('/account');
  await expect(page.getByRole('button', { name: 'Link Google Sheets' })).toBeVisible();
  await shot('linking-sheets');

  for (const id of GUIDE_IDS) expect(existsSync(`${out}/${id}.webp`), id).toBe(true);
});
