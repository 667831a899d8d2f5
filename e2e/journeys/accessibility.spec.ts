import { readFile, writeFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test, testOnServer, uniqueEmail } from '../fixtures.ts';
import {
  axeFindings,
  cell,
  expectNoSeriousAxeFindings,
  logOutThroughUi,
  MOD,
  newCampaignTemplate,
  newTemplate,
  openNavigation,
  readVerificationLink,
  signUp,
} from './support.ts';

// Every screen, signed out and signed in with a client, a feed, templates and outputs, at both
// widths: axe-core finds nothing serious or critical. The counts of findings per impact and
// screen go to axe-findings.json in each test's output folder.
//
// Report only: AXE_REPORT=/path/axe.json npx playwright test journeys/accessibility
// merges every screen's counts per impact into that file ({ "<width> px": { "<screen>":
// { "serious": 2, … } } }, a screen measured again replaces its counts) and fails on nothing
// axe finds: to measure a build that has findings, such as an older one, on the same screens.
const REPORT = process.env.AXE_REPORT;

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
test.setTimeout(400_000);

const ROWS = [
  'Root\tModifier\tVar 1\tVar 2\tVar 3\tFinal URL',
  'Nike\tShoes\t\t\t\thttps://nike.example/shoes',
  'Emporio Armani Collection\tBoots\t\t\t\thttps://armani.example',
  'Puma\tSneakers\t\t\t\thttps://puma.example',
].join('\n');

type ImpactCounts = Record<string, number>;

/** Adds one screen's counts to the AXE_REPORT file (`report`), keeping the other screens'. */
async function addToReport(report: string, width: number, screen: string, counts: ImpactCounts) {
  const all = JSON.parse(await readFile(report, 'utf8').catch(() => '{}')) as Record<
    string,
    Record<string, ImpactCounts>
  >;
  all[`${width} px`] = { ...all[`${width} px`], [screen]: counts };
  await writeFile(report, JSON.stringify(all, null, 2));
}

/** The widths every screen is checked at: a laptop and a phone. */
const WIDTHS = [1440, 390] as const;
/** The width the journeys click through at. */
const FLOW_WIDTH = 1440;

/**
 * Checks the page as a screen at each width (the journey goes on at FLOW_WIDTH): fails
 * (softly) on serious findings, records all per impact and width; with AXE_REPORT, only records
 * them, there too. `widths` narrows it to the widths a screen exists at.
 */
function screenChecker(page: Page, testInfo: TestInfo) {
  const counts: Record<string, Record<string, ImpactCounts>> = {};
  return async (screen: string, widths: readonly number[] = WIDTHS): Promise<void> => {
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      // The layout and the components that follow the width settle before axe reads the page.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      const findings = REPORT
        ? await axeFindings(page)
        : await expectNoSeriousAxeFindings(page, `${screen} at ${width} px`);
      const byImpact: ImpactCounts = {};
      for (const f of findings) byImpact[f.impact] = (byImpact[f.impact] ?? 0) + 1;
      counts[`${width} px`] = { ...counts[`${width} px`], [screen]: byImpact };
      if (REPORT) await addToReport(REPORT, width, screen, byImpact);
    }
    await writeFile(testInfo.outputPath('axe-findings.json'), JSON.stringify(counts, null, 2));
    await page.setViewportSize({ width: FLOW_WIDTH, height: 900 });
  };
}

// Each journey walks its screens once at FLOW_WIDTH and checks every screen at both widths:
// walking them again at the other width took as long again and checked the same screens.
test.describe('at 1440 and 390 px, no serious or critical axe finding', () => {
  test.beforeEach(async ({ page }) => page.setViewportSize({ width: FLOW_WIDTH, height: 900 }));

  test('on the signed-out screens', async ({ page }, testInfo) => {
    const check = screenChecker(page, testInfo);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Yes, so ready!' })).toBeVisible();
    await check('landing');
    // The first Tab stop skips to the content; 'Yes, so ready!' leaves the focus on the form.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.getByRole('button', { name: 'Yes, so ready!' }).click();
    await expect(
      page.getByRole('region', { name: 'Book a free demo' }).getByLabel('Email'),
    ).toBeFocused();
    for (const path of ['/contact', '/terms', '/privacy', '/sandbox', '/404', '/service-down']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check(path);
    }
    await page.goto('/combinations');
    await page.getByRole('textbox', { name: 'Root' }).fill('shoes\nboots');
    await page.getByRole('textbox', { name: 'Modifier' }).fill('red\nblue');
    await page.getByRole('button', { name: 'Combine', exact: true }).click();
    await check('/combinations with combinations');
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await check('/login');
    // The password's eye is the Tab stop after the password.
    const logIn = page.getByRole('form', { name: 'Log in' });
    await logIn.getByLabel('Password', { exact: true }).fill('secret');
    await logIn.getByLabel('Password', { exact: true }).focus();
    await page.keyboard.press('Tab');
    const eye = logIn.getByRole('button', { name: 'Toggle password visibility' });
    await expect(eye).toBeFocused();
    await page.keyboard.press('Space');
    await expect(logIn.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await expect(page.getByRole('form', { name: 'Reset password' })).toBeVisible();
    await check('/login: reset request');
    await page.goto('/register');
    await expect(page.getByRole('form', { name: 'Create an account' })).toBeVisible();
    await check('/register');
  });

  test('in the builder with a client, a feed, templates and outputs', async ({
    page,
  }, testInfo) => {
    const check = screenChecker(page, testInfo);
    await signUp(page, uniqueEmail('axe'), 'axe-password-1');
    await check('builder without a client');
    await page.getByRole('button', { name: 'New Client' }).click();
    const newClient = page.getByRole('dialog', { name: 'New Client' });
    await newClient.getByLabel('Client name').fill('Acme');
    await check('new client dialog');
    await newClient.getByRole('button', { name: 'Add New' }).click();
    await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
    await cell(page, 'Root', 1).click();
    await page.evaluate((text) => navigator.clipboard.writeText(text), ROWS);
    await page.keyboard.press(`${MOD}+V`);
    await expect(cell(page, 'Root', 3)).toHaveValue('Puma');
    await page.getByRole('checkbox', { name: 'Select all rows' }).check();
    await page.getByRole('button', { name: 'Save Feeds' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Feeds successfully updated' }),
    ).toBeVisible();
    await check('builder with a feed and a notification');

    await page.getByRole('button', { name: 'Delete Client' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete Client' })).toBeVisible();
    await check('delete client dialog');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
    await page.getByRole('button', { name: 'New Template' }).click();
    await expect(page.getByRole('dialog', { name: 'New Template' })).toBeVisible();
    await check('new template dialog');
    await page.keyboard.press('Escape');
    await newCampaignTemplate(page, 'Brands', {
      campaign: '{root}',
      adGroup: '{root} {mod}',
      keyword: '{root} {mod}',
    });
    await check('campaign template editor');
    // Each Generate leaves the focus on the output it made.
    await page.getByRole('button', { name: 'Generate Keywords or Output' }).click();
    await expect(page.getByRole('table', { name: 'Keywords', exact: true })).toBeFocused();
    await check('campaign output: keywords');
    await page.getByRole('tab', { name: 'Negatives' }).click();
    await check('campaign output: negatives');
    await page.getByRole('tab', { name: 'Campaigns', exact: true }).last().click();
    await check('campaign output: campaigns');

    await page.getByRole('tab', { name: 'Responsive Search Ads' }).click();
    await newTemplate(page, 'Brand ads');
    const fallback = page.getByRole('region', { name: /^Fallback \d+$/ });
    await fallback.getByLabel('Headline 1', { exact: true }).fill('Buy {root} {mod}');
    await fallback.getByLabel('Headline 2', { exact: true }).fill('Free delivery');
    await fallback.getByLabel('Headline 3', { exact: true }).fill('Official store');
    await fallback.getByLabel('Description 1', { exact: true }).fill('Shop {root} {mod} today.');
    await fallback.getByLabel('Description 2', { exact: true }).fill('Great prices.');
    await check('responsive search ad template editor');
    await page.getByRole('button', { name: /^Fallback 1 validator: / }).click();
    await expect(page.getByRole('dialog', { name: /^Fallback 1: rows without/ })).toBeVisible();
    await check('validator dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Ad Preview' }).click();
    const preview = page.getByRole('dialog', { name: 'Responsive Search Ad preview' });
    await expect(preview.getByText('Row 1 (1 of 3 selected)')).toBeVisible();
    await check('responsive search ad preview');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Generate Ads' }).click();
    await expect(
      page.getByRole('table', { name: 'Responsive Search Ads', exact: true }),
    ).toBeFocused();
    await check('responsive search ad output');

    await page.getByRole('tab', { name: 'Performance Max Ads' }).click();
    await newTemplate(page, 'Assets');
    await check('Performance Max template editor');

    await page.getByRole('tab', { name: 'Extensions' }).click();
    for (const type of ['Callout', 'Sitelink', 'Structured Snippet']) {
      await page.getByLabel('Extension type').selectOption(type);
      await newTemplate(page, `${type} template`);
      await check(`${type} template editor`);
    }
    await page.getByLabel('Extension type').selectOption('Callout');
    await page.getByRole('textbox', { name: 'Callout text' }).fill('All {root} shoes');
    await page.getByRole('button', { name: 'Generate Extensions' }).click();
    await expect(page.getByRole('table', { name: 'Callout extensions' })).toBeFocused();
    await check('extension output');
  });

  test('on the lists, account, verification and reset screens, the guides and the dialogs', async ({
    page,
    mailbox,
  }, testInfo) => {
    const check = screenChecker(page, testInfo);
    const email = uniqueEmail('axe');
    await signUp(page, email, 'axe-password-1');
    await check('navigation', [FLOW_WIDTH]);
    // On a phone the navigation is a drawer the burger opens.
    await page.setViewportSize({ width: 390, height: 900 });
    await openNavigation(page);
    await expect(page.getByRole('button', { name: 'Log Out' })).toBeVisible();
    await check('navigation', [390]);
    await page.getByRole('button', { name: 'Guides' }).click();
    const guides = page.getByRole('dialog', { name: 'Guides' });
    await expect(guides).toBeVisible();
    await check('guides');
    await guides.getByRole('button', { name: 'Geo Feeds' }).click();
    await expect(page.getByRole('dialog', { name: 'Geo Feeds' })).toBeVisible();
    await check('guide');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await openNavigation(page);
    await page.getByRole('button', { name: 'Feedback' }).click();
    await expect(page.getByRole('dialog', { name: 'Send Feedback' })).toBeVisible();
    await check('feedback dialog');
    await page.keyboard.press('Escape');

    await openNavigation(page);
    await page.getByRole('link', { name: 'Lists' }).click();
    await expect(page.getByRole('heading', { name: 'Lists', level: 1 })).toBeVisible();
    await check('/lists');
    await page.getByRole('button', { name: 'New Data Table' }).click();
    const newFeed = page.getByRole('dialog', { name: 'New Data Table' });
    await newFeed.getByLabel('Data Table name').fill('stock');
    await newFeed.getByRole('button', { name: 'Add New' }).click();
    await expect(cell(page, 'Root', 1)).toBeVisible();
    await check('/lists: data table');
    await page.getByRole('tab', { name: 'Lists' }).click();
    await page.getByRole('button', { name: 'New List' }).click();
    const newList = page.getByRole('dialog', { name: 'New List' });
    await newList.getByLabel('List name').fill('cities');
    await newList.getByRole('button', { name: 'Add New' }).click();
    await expect(cell(page, 'Root', 1)).toBeVisible();
    await check('/lists: list');

    await page.goto('/combinations');
    // Checked once drawn: before its code arrives the screen is a blank frame.
    await expect(page.getByRole('heading', { name: 'Keyword Combiner', level: 1 })).toBeVisible();
    await check('/combinations signed in');
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await check('/account');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
    await check('delete account dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Change Email' }).click();
    await expect(page.getByRole('dialog', { name: 'Change your email address' })).toBeVisible();
    await check('change email dialog');
    await page.keyboard.press('Escape');

    // The verification screen, from the real verification mail.
    await page.goto(new URL(await readVerificationLink(mailbox, email)).pathname);
    await expect(page.getByText('Your email address is verified.')).toBeVisible();
    await check('/verify-email');

    // The reset screen, from a real reset mail.
    await page.goto('/campaign-builder');
    await logOutThroughUi(page);
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    const resetForm = page.getByRole('form', { name: 'Reset password' });
    await resetForm.getByLabel('Email').fill(email);
    await resetForm.getByRole('button', { name: 'Reset Password' }).click();
    const mail = await mailbox.waitFor(email, { subject: /^Reset your Adloom password$/ });
    const link = /https?:\/\/\S+(\/reset\/[^\s"<>]+)/.exec(mail.text)?.[1];
    expect(link, `reset link in: ${mail.text}`).toBeTruthy();
    await page.goto(link ?? '');
    await expect(page.getByRole('heading', { name: 'Almost There' })).toBeVisible();
    await check('/reset');
  });
});

/** The operator of the Admin screens' server (ADMIN_EMAILS), verified through its outbox. */
const OPERATOR = 'operator-axe@example.com';
const operatorTest = testOnServer({ ADMIN_EMAILS: OPERATOR });

operatorTest.describe(
  'on the Admin page, at 1440 and 390 px, no serious or critical axe finding',
  () => {
    operatorTest.beforeEach(async ({ page }) =>
      page.setViewportSize({ width: FLOW_WIDTH, height: 900 }),
    );

    operatorTest(
      'with feedback and waiting-list entries, a search, and the navigation',
      async ({ page, server }, testInfo) => {
        const check = screenChecker(page, testInfo);
        // Entries to list: feedback from a customer (a long message too) and a waiting-list address.
        const password = 'operator-axe-password-1';
        const customer = uniqueEmail('axecustomer');
        const registered = await page.request.post('/api/users/register', {
          data: { email: customer, password, 'password-confirm': password, recaptchaToken: '' },
        });
        expect(registered.ok(), await registered.text()).toBe(true);
        const { token } = (await registered.json()) as { token: string };
        for (const [type, message] of [
          ['Issue', 'The grid froze when I pasted rows'],
          ['Idea', `A longer idea: ${'keep the columns I chose between visits, '.repeat(8)}`],
        ]) {
          const sent = await page.request.post('/api/feedback', {
            headers: { authorization: `Bearer ${token}` },
            data: { type, message },
          });
          expect(sent.ok(), await sent.text()).toBe(true);
        }
        const joined = await page.request.post('/api/app/waiting-list', {
          data: { email: uniqueEmail('axewaiting') },
        });
        expect(joined.ok(), await joined.text()).toBe(true);

        await signUp(page, OPERATOR, password, { verifyFrom: server });
        // On a phone, Admin is a link of the navigation drawer.
        await page.setViewportSize({ width: 390, height: 900 });
        await openNavigation(page);
        await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
        await check('navigation with Admin', [390]);
        await page.getByRole('link', { name: 'Admin' }).click();
        await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
        await expect(page.getByText('Showing 2 of 2 entries.')).toBeVisible();
        await expect(page.getByRole('region', { name: 'Counts' })).toContainText('Users');
        await expect(
          page.getByRole('region', { name: 'Settings Status' }).getByRole('listitem').first(),
        ).toBeVisible();
        await check('/admin: feedback');
        await page.getByRole('searchbox', { name: 'Search feedback' }).fill('no such words');
        await expect(page.getByText('No entry matches this search.')).toBeVisible();
        await check('/admin: a search without matches');
        await page.getByRole('tab', { name: 'Waiting List' }).click();
        await expect(
          page.getByRole('list', { name: 'Waiting-list entries' }).getByRole('listitem'),
        ).toHaveCount(1);
        await check('/admin: waiting list');
      },
    );
  },
);
