import type { Page } from '@playwright/test';
import { AI_MESSAGES } from '@adloom/contract';
import { expect, test as base, uniqueEmail } from '../fixtures.ts';
import { startAiStandIn, type AiStandIn } from '../../apps/server/test/ai-stand-in.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { cell, MOD, newTemplate, signUp } from './support.ts';

const SCREENS = process.env.SCREENS_OUT;
/** The email domain whose users see the helper (AI_HELPER_EMAIL_DOMAIN). */
const HELPER_DOMAIN = 'example.org';

/**
 * A server pointed at the AI stand-in, which writes slowly enough (a piece every 150 ms) for the
 * journey to see the text arrive before the answer is complete.
 */
const test = base.extend<object, { ai: { standIn: AiStandIn; server: RunningServer } }>({
  ai: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const standIn = await startAiStandIn({ chunkDelayMs: 150 });
      const server = await startServer({
        env: { ...standIn.settings, AI_HELPER_EMAIL_DOMAIN: HELPER_DOMAIN },
      });
      try {
        await use({ standIn, server });
      } finally {
        await server.stop();
        await standIn.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ ai }, use) => use(ai.server.url),
});

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(120_000);

/**
 * A user of the helper's domain with a client, two rows (both selected) and an RSA template
 * whose first fallback has its first headline written.
 */
async function startWithRsaFallback(
  page: Page,
  prefix: string,
  server: RunningServer,
): Promise<void> {
  const email = uniqueEmail(prefix).replace('@example.com', `@${HELPER_DOMAIN}`);
  await signUp(page, email, `${prefix}-password-1`, { verifyFrom: server });
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill(`${prefix} client`);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await cell(page, 'Root', 1).click();
  await page.evaluate(
    (text) => navigator.clipboard.writeText(text),
    'root\tmod\tvar1\tvar2\tvar3\turl\nNike\tShoes\t\t\t\thttps://nike.example\nPuma\tSneakers\t\t\t\thttps://puma.example\n',
  );
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Root', 2)).toHaveValue('Puma');
  await page.getByRole('checkbox', { name: 'Select all rows' }).check();
  await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
  await newTemplate(page, 'Brand ads');
  const fallback = page.getByRole('region', { name: 'Fallback 1' });
  await fallback.getByLabel('Headline 1', { exact: true }).fill('Official store');
}

/** Opens the helper, fills USPs from the rows' Root column and asks for headlines. */
async function askForHeadlines(page: Page) {
  await page.getByRole('button', { name: 'AI helper' }).click();
  const helper = page.getByRole('dialog', { name: 'AI helper' });
  await helper
    .getByRole('textbox', { name: 'Description', exact: true })
    .fill('Sports shoes from the big brands');
  await helper.getByRole('checkbox', { name: 'USPs' }).check();
  await helper.getByRole('combobox', { name: 'Values from the selected rows' }).click();
  await helper.getByRole('option', { name: 'Root' }).click();
  await expect(helper.getByRole('textbox', { name: 'Values', exact: true })).toHaveValue(
    'Nike, Puma',
  );
  await helper.getByRole('button', { name: 'Get suggestions' }).click();
  return helper;
}

test('a user of the helper domain streams headlines and adds one to the RSA fallback', async ({
  page,
  ai,
}) => {
  await startWithRsaFallback(page, 'aihelper', ai.server);
  const helper = await askForHeadlines(page);
  const description = helper.getByRole('textbox', { name: 'Description', exact: true });

  // The text arrives piece by piece: seen while the answer is still coming. Polled every 50 ms
  // (expect's own back-off can first look after the last piece).
  let partial = '';
  await expect
    .poll(
      async () => {
        partial = await description.inputValue();
        return /--- Suggestions[^\n]*\nHandmade/.test(partial);
      },
      { intervals: [50] },
    )
    .toBe(true);
  expect(partial).not.toContain('Shoes Built To Last For Years');
  await expect(helper.getByRole('button', { name: 'Stop' })).toBeVisible();

  await expect(page.getByText(/^Response generated with \d+ tokens\.$/)).toBeVisible();
  await expect(description).toHaveValue(/Shoes Built To Last For Years$/);
  const suggestions = helper.getByRole('region', { name: 'Suggestions' });
  await expect(suggestions.getByRole('listitem')).toHaveCount(3);
  await expect(suggestions.getByText('22/30')).toBeVisible();

  // The prompt the model got holds the values taken from the rows.
  const prompt = JSON.stringify(ai.standIn.requests.at(-1)?.body);
  expect(prompt).toContain('Nike, Puma');

  await suggestions.getByRole('button', { name: 'Add Handmade Leather Shoes' }).click();
  const fallback = page.getByRole('region', { name: 'Fallback 1' });
  await expect(fallback.getByLabel('Headline 2', { exact: true })).toHaveValue(
    'Handmade Leather Shoes',
  );
  await expect(fallback.getByLabel('Headline 1', { exact: true })).toHaveValue('Official store');

  // With the Performance Max tab open, Add goes into its open fallback instead.
  await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
  await expect(
    suggestions.getByRole('button', { name: 'Add Free Shipping On All Orders' }),
  ).toBeDisabled();
  await newTemplate(page, 'Brand assets');
  await suggestions.getByRole('button', { name: 'Add Free Shipping On All Orders' }).click();
  await expect(fallback.getByLabel('Headline 1', { exact: true })).toHaveValue(
    'Free Shipping On All Orders',
  );

  // The header moves the panel with the arrow keys as well as by dragging.
  const before = await helper.boundingBox();
  await helper.getByRole('group', { name: /^AI helper: drag/ }).focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await helper.boundingBox())?.y).toBe((before?.y ?? 0) + 16);

  // Asking again with the suggestions still in the description is refused before any call.
  const calls = ai.standIn.requests.length;
  await helper.getByRole('button', { name: 'Get suggestions' }).click();
  await expect(helper.getByRole('alert')).toHaveText(
    'Have you remembered to delete your previous suggestions?',
  );
  expect(ai.standIn.requests.length).toBe(calls);
});

test('a refusal and a failure midway reach the person as messages, the text kept', async ({
  page,
  ai,
}) => {
  const email = uniqueEmail('aifail').replace('@example.com', `@${HELPER_DOMAIN}`);
  await signUp(page, email, 'aifail-password-1', { verifyFrom: ai.server });
  await page.getByRole('button', { name: 'AI helper' }).click();
  const helper = page.getByRole('dialog', { name: 'AI helper' });
  const description = helper.getByRole('textbox', { name: 'Description', exact: true });

  // Submitting without a description asks for one, before any call.
  await helper.getByRole('button', { name: 'Get suggestions' }).click();
  await expect(helper.getByRole('alert')).toHaveText(AI_MESSAGES.noDescription);

  await description.fill('Garden tools');
  ai.standIn.answerNext({ kind: 'refusal', refusal: 'I cannot help with that.' });
  await helper.getByRole('button', { name: 'Get suggestions' }).click();
  await expect(helper.getByRole('alert')).toHaveText(AI_MESSAGES.refused);
  await expect(description).toHaveValue('Garden tools');

  ai.standIn.answerNext({
    kind: 'failAfterChunks',
    text: 'Sharp Garden Shears\nTools For Every Garden',
    chunks: 1,
    status: 500,
  });
  await helper.getByRole('button', { name: 'Get suggestions' }).click();
  await expect(helper.getByRole('alert')).toHaveText(AI_MESSAGES.modelFailed);
  await expect(description).toHaveValue(/^Garden tools\n\n--- Suggestions[^\n]*\nSharp Ga/);
  await expect(helper.getByRole('button', { name: 'Get suggestions' })).toBeEnabled();
});

test('a server without a model says so in the panel', async ({ browser }) => {
  const server = await startServer({ env: { AI_HELPER_EMAIL_DOMAIN: HELPER_DOMAIN } });
  try {
    const context = await browser.newContext({ baseURL: server.url });
    const other = await context.newPage();
    const email = uniqueEmail('ainone').replace('@example.com', `@${HELPER_DOMAIN}`);
    await signUp(other, email, 'ainone-password-1', { verifyFrom: server });
    await other.getByRole('button', { name: 'AI helper' }).click();
    const helper = other.getByRole('dialog', { name: 'AI helper' });
    await helper.getByRole('textbox', { name: 'Description', exact: true }).fill('Garden tools');
    await helper.getByRole('button', { name: 'Get suggestions' }).click();
    await expect(helper.getByRole('status')).toHaveText(AI_MESSAGES.notConfigured);
    await expect(helper.getByRole('button', { name: 'Get suggestions' })).toHaveCount(0);
    await context.close();
  } finally {
    await server.stop();
  }
});

test('a user of another domain sees neither the mascot nor the helper', async ({ page }) => {
  await signUp(page, uniqueEmail('aiother'), 'aiother-password-1');
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'AI helper' })).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'AI helper' })).toHaveCount(0);
});

// Screenshots of the helper for a visual review; only with SCREENS_OUT set.
for (const width of [390, 1400]) {
  test(`AI helper at ${width} px`, async ({ page, ai }) => {
    test.skip(!SCREENS, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    await startWithRsaFallback(page, `aishots${width}`, ai.server);
    const helper = await askForHeadlines(page);
    await expect(page.getByText(/^Response generated with \d+ tokens\.$/)).toBeVisible();
    await helper.screenshot({ path: `${SCREENS}/ai-helper-${width}.png` });
    await page.screenshot({ path: `${SCREENS}/ai-helper-page-${width}.png` });
  });
}
