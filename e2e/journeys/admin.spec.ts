import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, testOnServer, uniqueEmail } from '../fixtures.ts';
import {
  expectNoSeriousAxeFindings,
  logInThroughUi,
  logOutThroughUi,
  openNavigation,
  readVerificationLink,
  signUp,
} from './support.ts';

// Issue 38, an operator's view: the operator named by ADMIN_EMAILS verifies the address, opens
// Admin, searches the feedback and downloads it as CSV; an ordinary user gets the 404 page.

const SCREENS = process.env.SCREENS_OUT;
const OPERATOR = 'operator-admin@example.com';
const PASSWORD = 'admin-password-1';

/** A server naming OPERATOR in ADMIN_EMAILS; mail goes to its outbox. */
const test = testOnServer({ ADMIN_EMAILS: OPERATOR });

test.setTimeout(120_000);

/** Checks the page for serious axe findings at 1440 and 390 px, with screenshots when asked. */
async function checkBothWidths(page: Page, screen: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expectNoSeriousAxeFindings(page, `${screen} at ${width} px`);
    if (SCREENS)
      await page.screenshot({ path: `${SCREENS}/${screen}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('an operator verifies, opens Admin, searches the feedback and downloads it; others get the 404 page', async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  // An ordinary user sends feedback (one of them a formula) and someone joins the waiting list.
  const customer = uniqueEmail('customer');
  const registered = await page.request.post('/api/users/register', {
    data: { email: customer, password: PASSWORD, 'password-confirm': PASSWORD, recaptchaToken: '' },
  });
  expect(registered.ok()).toBe(true);
  const customerToken = ((await registered.json()) as { token: string }).token;
  for (const [type, message] of [
    ['Issue', 'The grid froze when I pasted rows'],
    ['Idea', '=HYPERLINK("http://evil.example","Click me")'],
    ['Other', 'Lovely preview of the ads'],
  ]) {
    const sent = await page.request.post('/api/feedback', {
      headers: { authorization: `Bearer ${customerToken}` },
      data: { type, message },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
  }
  const joined = await page.request.post('/api/app/waiting-list', {
    data: { email: 'waiting-someone@example.com' },
  });
  expect(joined.ok()).toBe(true);

  // Before the address is verified, Admin does not exist for the operator either.
  await signUp(page, OPERATOR, PASSWORD);
  await openNavigation(page);
  await expect(page.getByRole('link', { name: 'Account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  // The operator opens the mailed link: Admin appears in the sidebar.
  const link = await readVerificationLink(server, OPERATOR);
  await page.goto(new URL(link).pathname);
  await expect(page.getByText('Your email address is verified.')).toBeVisible();
  await openNavigation(page);
  await page.getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
  const entries = page.getByRole('list', { name: 'Feedback entries' });
  await expect(entries.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByText('Showing 3 of 3 entries.')).toBeVisible();
  // Counts: the customer and the operator; settings say what is set, never a secret.
  const counts = page.getByRole('region', { name: 'Counts' });
  await expect(counts).toContainText('Users2');
  const settings = page.getByRole('region', { name: 'Settings Status' });
  await expect(settings.getByRole('listitem').filter({ hasText: 'AI helper' })).toContainText(
    'Not configured',
  );
  await checkBothWidths(page, 'admin');

  // Search, then download what the search finds.
  await page.getByRole('searchbox', { name: 'Search feedback' }).fill('hyperlink');
  await expect(entries.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('Showing 1 of 1 entry matching the search.')).toBeVisible();
  await expect(entries).toContainText('=HYPERLINK("http://evil.example","Click me")');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^adloom-feedback-\d{8}\.csv$/);
  const csv = readFileSync(await download.path(), 'utf8');
  expect(csv.split('\r\n').map((line) => line.replace(/^[^,]*,/, ''))).toEqual([
    'Email,Type,Message',
    `${customer},Idea,"'=HYPERLINK(""http://evil.example"",""Click me"")"`,
    '',
  ]);

  // The waiting list.
  await page.getByRole('tab', { name: 'Waiting List' }).click();
  await expect(page.getByRole('list', { name: 'Waiting-list entries' })).toContainText(
    'waiting-someone@example.com',
  );
  await checkBothWidths(page, 'admin-waiting-list');

  // An ordinary user gets the 404 page, and no Admin link.
  await logOutThroughUi(page);
  await logInThroughUi(page, customer, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/404$/);
  await openNavigation(page);
  await expect(page.getByRole('link', { name: 'Account' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  const refused = await page.request.get('/api/admin/feedback', {
    headers: { authorization: `Bearer ${customerToken}` },
  });
  expect(refused.status()).toBe(404);
});
