import type { Page } from '@playwright/test';
import { expect, testOnServer, uniqueEmail } from '../fixtures.ts';
import {
  expectNoSeriousAxeFindings,
  openNavigation,
  readVerificationLink,
  signUp,
} from './support.ts';

const SCREENS = process.env.SCREENS_OUT;
/** The AI helper's domain and the XML tools' marker on this journey's server. */
const HELPER_DOMAIN = 'example.org';
const MARKER = 'agency';
const PASSWORD = 'verify-password-1';

/** A server whose addresses of HELPER_DOMAIN holding MARKER open both tools; mail goes to its outbox. */
const test = testOnServer({
  AI_HELPER_EMAIL_DOMAIN: HELPER_DOMAIN,
  XML_TOOLS_EMAIL_MARKER: MARKER,
});

test.setTimeout(120_000);

const toolEmail = (prefix: string) =>
  uniqueEmail(`${prefix}-${MARKER}`).replace('@example.com', `@${HELPER_DOMAIN}`);

/** Makes a client, so the Data Table section (and the XML feed panel) shows. */
async function newClient(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill(name);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
}

/** The AI helper's panel, opened from the mascot. */
async function openAiHelper(page: Page) {
  await page.getByRole('button', { name: 'AI helper' }).click();
  const helper = page.getByRole('dialog', { name: 'AI helper' });
  await expect(helper).toBeVisible();
  return helper;
}

/** Checks the page for serious axe findings at 1440 and 390 px (then goes back to 1440). */
async function checkBothWidths(page: Page, screen: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expectNoSeriousAxeFindings(page, `${screen} at ${width} px`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('the tools wait for the verified address, the link opens them, a new address waits again', async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = toolEmail('verify');
  await signUp(page, email, PASSWORD);
  await newClient(page, 'Verify client');

  // Where the tools would be, the app says what to do.
  const xmlPanel = page.getByRole('group', { name: 'XML feed' });
  await expect(xmlPanel).toContainText('Verify your email address to use the XML feed tools.');
  await expect(xmlPanel.getByRole('textbox', { name: 'Feed URL' })).toHaveCount(0);
  let helper = await openAiHelper(page);
  await expect(helper).toContainText('Verify your email address to use the AI helper.');
  await expect(helper.getByRole('button', { name: 'Get suggestions' })).toHaveCount(0);
  await checkBothWidths(page, 'tools waiting for the verification');

  // Send the link again: a new link, and only it works.
  const firstLink = await readVerificationLink(server, email);
  await helper.getByRole('button', { name: 'Send the link again' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `We have sent a link to ${email}.` }),
  ).toBeVisible();
  await expect.poll(() => readVerificationLink(server, email)).not.toBe(firstLink);
  const link = await readVerificationLink(server, email);

  await page.goto(new URL(link).pathname);
  await expect(page.getByText('Your email address is verified.')).toBeVisible();
  await page.getByRole('link', { name: 'Go to the Campaign Builder' }).click();
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
  await expect(xmlPanel.getByRole('textbox', { name: 'Feed URL' })).toBeVisible();
  helper = page.getByRole('dialog', { name: 'AI helper' });
  if (!(await helper.isVisible())) helper = await openAiHelper(page);
  await expect(helper.getByRole('button', { name: 'Get suggestions' })).toBeVisible();

  // Opened again, the used link finds the address verified.
  await page.goto(new URL(link).pathname);
  await expect(page.getByText('Your email address is already verified.')).toBeVisible();

  // A new address waits for its own link.
  await page.goto('/account');
  const emailSection = page.getByRole('region', { name: 'Email Address' });
  await expect(emailSection.getByText('Verified', { exact: true })).toBeVisible();
  await emailSection.getByRole('button', { name: 'Change Email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your email address' });
  const newEmail = toolEmail('moved');
  await dialog.getByLabel('New email').fill(newEmail);
  await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
  await dialog.getByRole('button', { name: 'Change Email' }).click();
  await expect(dialog.getByText('The password is not correct.')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Change Email' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(emailSection.getByText(newEmail)).toBeVisible();
  await expect(emailSection.getByText('Not verified', { exact: true })).toBeVisible();
  await expect(emailSection).toContainText('The XML feed tools and the AI helper wait for it.');

  await openNavigation(page);
  await page.getByRole('link', { name: 'Adloom campaign builder' }).click();
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
  await expect(xmlPanel).toContainText('Verify your email address to use the XML feed tools.');

  // The old address's used link is refused, and offers a new one.
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole('alert')).toContainText('This verification link is invalid');
  await expect(page.getByRole('button', { name: 'Send the link again' })).toBeVisible();

  // The new address's link opens the tools again.
  await page.goto(new URL(await readVerificationLink(server, newEmail)).pathname);
  await expect(page.getByText('Your email address is verified.')).toBeVisible();
  await page.goto('/account');
  await expect(emailSection.getByText('Verified', { exact: true })).toBeVisible();
});

// Screenshots of the changed screens for a visual review; only with SCREENS_OUT set.
for (const width of [1440, 390]) {
  test(`verification screens at ${width} px`, async ({ page, server }) => {
    test.skip(!SCREENS, 'SCREENS_OUT is not set');
    await page.setViewportSize({ width, height: 900 });
    const email = toolEmail(`shots${width}`);
    await signUp(page, email, PASSWORD);
    await newClient(page, 'Shots client');
    const helper = await openAiHelper(page);
    await expect(helper).toContainText('Verify your email address');
    await page.screenshot({ path: `${SCREENS}/verify-waiting-${width}.png` });
    await helper.screenshot({ path: `${SCREENS}/verify-ai-helper-${width}.png` });
    await page
      .getByRole('group', { name: 'XML feed' })
      .screenshot({ path: `${SCREENS}/verify-xml-panel-${width}.png` });
    await page.goto('/account');
    await expect(page.getByRole('region', { name: 'Email Address' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/verify-account-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Change Email' }).click();
    await expect(page.getByRole('dialog', { name: 'Change your email address' })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/verify-change-email-${width}.png` });
    await page.keyboard.press('Escape');
    const link = await readVerificationLink(server, email);
    await page.goto(`/verify-email/${'x'.repeat(43)}`);
    await expect(page.getByRole('alert')).toContainText('This verification link is invalid');
    await page.screenshot({ path: `${SCREENS}/verify-page-refused-${width}.png` });
    await page.goto(new URL(link).pathname);
    await expect(page.getByText('Your email address is verified.')).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/verify-page-${width}.png` });
  });
}
