import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { XML_MESSAGES } from '@adloom/contract';
import { startFeedStandIn, type FeedStandIn } from '../../apps/server/test/feed-stand-in.ts';
import { test as base, expect } from '../fixtures.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { cell, startWithClient } from './support.ts';

/** The text an email must hold for the XML tools on the journeys' server. */
const MARKER = 'agency';

/** The feed stand-in on loopback and a server that may fetch from it and opens the XML tools. */
interface XmlStack {
  feeds: FeedStandIn;
  server: RunningServer;
}

const test = base.extend<object, { xml: XmlStack }>({
  xml: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const feeds = await startFeedStandIn();
      const server = await startServer({
        env: { XML_TOOLS_EMAIL_MARKER: MARKER, FETCH_ALLOW_LOOPBACK: 'true' },
      });
      try {
        await use({ feeds, server });
      } finally {
        await server.stop();
        await feeds.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ xml }, use) => use(xml.server.url),
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

const SCREENS = process.env.SCREENS_OUT;

function notice(page: Page, text: string | RegExp): Locator {
  return page.getByRole('status').filter({ hasText: text });
}

function failure(page: Page, text: string | RegExp): Locator {
  return page.getByRole('alert').filter({ hasText: text });
}

function xmlPanel(page: Page): Locator {
  return page.getByRole('group', { name: 'XML feed' });
}

/** Types the feed URL and picks where the values come from. */
async function chooseFeed(panel: Locator, url: string, source: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Feed URL' }).fill(url);
  await panel
    .getByRole('radiogroup', { name: 'Values from' })
    .getByRole('radio', { name: source, exact: true })
    .check();
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

test('XML feed: Add XML makes brand and category rows once, Generate Snippets makes snippet templates that generate an Editor file', async ({
  page,
  xml,
}) => {
  await startWithClient(page, MARKER, { verifyFrom: xml.server });
  const panel = xmlPanel(page);
  await chooseFeed(panel, xml.feeds.url('/rss.xml'), 'Brand + Category');

  // Add XML: each brand with each of its categories, most products first.
  await panel.getByRole('button', { name: 'Add XML' }).click();
  await expect(notice(page, XML_MESSAGES.rowsAdded(4))).toBeVisible();
  const rows = [
    ['Acme', 'Shoes'],
    ['Acme', 'Apparel & Accessories'],
    ["Ben & Jerry's", 'Food'],
    ['Café Noir', ''],
  ];
  for (const [i, [root, mod]] of rows.entries()) {
    await expect(cell(page, 'Root', i + 1)).toHaveValue(root!);
    await expect(cell(page, 'Modifier', i + 1)).toHaveValue(mod!);
  }
  await expect(cell(page, 'Root', 5)).toHaveCount(0);

  // Again: every pair is there already, none is added twice.
  await panel.getByRole('button', { name: 'Add XML' }).click();
  await expect(notice(page, 'No rows added')).toBeVisible();
  await expect(cell(page, 'Root', 5)).toHaveCount(0);
  await page.getByRole('button', { name: 'Save Feeds' }).click();
  await expect(notice(page, 'Feeds successfully updated')).toBeVisible();

  // Generate Snippets: a Brands and a Types template, saved.
  await panel.getByRole('button', { name: 'Generate Snippets' }).click();
  await expect(notice(page, XML_MESSAGES.snippetsMade('brandCategory'))).toBeVisible();
  await expect(notice(page, 'Templates successfully updated').first()).toBeVisible();

  // The snippets attach to the account (the default of a new template): no campaign template.
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('tab', { name: 'Extensions', exact: true }).click();
  await expect(page.getByLabel('Extension type')).toHaveValue('Structured Snippet');
  const template = page.getByLabel('Extension template');
  await expect(template.getByRole('option')).toHaveText(['Select a template', 'Brands', 'Types']);
  await template.selectOption('Brands');
  await expect(page.getByRole('combobox', { name: 'Header' })).toHaveValue('Brands');
  await expect(page.getByRole('textbox', { name: 'Snippet Values' })).toHaveValue(
    "Acme; Ben & Jerry's; Café Noir",
  );

  await page.getByRole('button', { name: 'Generate Extensions' }).click();
  const snippets = page.getByRole('table', { name: 'Structured Snippet extensions' });
  await expect(snippets.getByRole('row')).toHaveCount(2);
  expect(await editorFile(page, 'Structured Snippet extensions')).toEqual([
    '\uFEFFCampaign,Ad Group,Header,Snippet Values',
    "<Account-level>,,Brands,Acme;Ben & Jerry's;Café Noir",
  ]);

  await template.selectOption('Types');
  await expect(page.getByRole('combobox', { name: 'Header' })).toHaveValue('Types');
  await expect(page.getByRole('textbox', { name: 'Snippet Values' })).toHaveValue(
    'Shoes; 1604; Apparel & Accessories; Food',
  );
});

test('XML feed: a broken feed says where, and adds nothing', async ({ page, xml }) => {
  await startWithClient(page, `${MARKER}-broken`, { verifyFrom: xml.server });
  const panel = xmlPanel(page);
  await chooseFeed(panel, xml.feeds.url('/malformed.xml'), 'Brand');
  await panel.getByRole('button', { name: 'Add XML' }).click();
  await expect(
    failure(page, `${XML_MESSAGES.rowsFailed}. The feed is not well-formed XML: line 4, column 36`),
  ).toBeVisible();
  await expect(cell(page, 'Root', 1)).toHaveValue('');

  await chooseFeed(panel, xml.feeds.url('/page.html'), 'Category');
  await panel.getByRole('button', { name: 'Generate Snippets' }).click();
  await expect(
    failure(page, `${XML_MESSAGES.snippetsFailed}. The URL does not lead`),
  ).toBeVisible();
});

test('XML feed: a slow feed shows its fetch running and keeps the other button until it ends', async ({
  page,
  xml,
}) => {
  await startWithClient(page, `${MARKER}-slow`, { verifyFrom: xml.server });
  const panel = xmlPanel(page);
  await chooseFeed(panel, xml.feeds.url('/slow.xml'), 'Brand');
  const add = panel.getByRole('button', { name: 'Add XML' });
  await add.click();
  await expect(add).toHaveAttribute('data-loading', 'true');
  await expect(panel.getByRole('button', { name: 'Generate Snippets' })).toBeDisabled();
  await expect(panel.getByRole('textbox', { name: 'Feed URL' })).toBeDisabled();
  await expect(panel.getByText('Reading the feed…')).toBeVisible();
  if (SCREENS) await panel.screenshot({ path: `${SCREENS}/xml-panel-loading.png` });
  xml.feeds.releaseSlow();
  // The rest of the feed is read and its rows added: longer on a busy machine.
  await expect(add).not.toHaveAttribute('data-loading', 'true', { timeout: 30_000 });
  await expect(panel.getByRole('button', { name: 'Generate Snippets' })).toBeEnabled();
  await expect(page.getByRole('status').or(page.getByRole('alert')).first()).toBeVisible();
});

test('XML feed: a user without the agency marker has no XML panel', async ({ page }) => {
  await startWithClient(page, 'plain');
  await expect(page.getByRole('button', { name: 'New Geo Feed' })).toBeVisible();
  await expect(xmlPanel(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add XML' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Generate Snippets' })).toHaveCount(0);
});

// Screenshots of the panel for a visual review; only with SCREENS_OUT set.
for (const width of [390, 1400]) {
  test(`XML feed panel at ${width} px`, async ({ page, xml }) => {
    test.skip(!SCREENS, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 1000 });
    await startWithClient(page, `${MARKER}${width}`, { verifyFrom: xml.server });
    const panel = xmlPanel(page);
    await panel.screenshot({ path: `${SCREENS}/xml-panel-empty-${width}.png` });
    await chooseFeed(panel, xml.feeds.url('/atom.xml'), 'Brand + Category');
    await panel.getByRole('button', { name: 'Generate Snippets' }).click();
    await panel.getByText(/left out of the snippets$/).click();
    await expect(panel.getByRole('listitem').first()).toBeVisible();
    await panel.screenshot({ path: `${SCREENS}/xml-panel-skipped-${width}.png` });
    await page
      .getByRole('region', { name: 'Data Table' })
      .screenshot({ path: `${SCREENS}/xml-data-table-${width}.png` });
  });
}
