import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { startBotCheckStandIn, type BotCheckStandIn } from '../support/bot-check.ts';
import { REPO_ROOT, startServer, type RunningServer } from '../support/server.ts';
import { logInThroughUi, logOutThroughUi, registerThroughUi, startWithRows } from './support.ts';

const SCREENS = process.env.SCREENS_OUT;

test('register, log out, log in and reach the campaign builder', async ({ page }) => {
  const email = uniqueEmail('journey');
  const password = 'first-password-1';

  await registerThroughUi(page, email, password);
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
  await expect(page).toHaveTitle('Adloom | Campaign Builder');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }),
  ).toBeVisible();

  await logOutThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('adloom.token'))).toBeNull();
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();

  await logInThroughUi(page, email, password);
  await expect(page).toHaveURL(/\/campaign-builder$/);
  await expect(page.getByRole('status').filter({ hasText: 'Welcome back!' })).toBeVisible();

  // A reload keeps the stored session.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
});

test('forgot password, follow the mailed link, set a new password and log in with it', async ({
  page,
  mailbox,
}) => {
  const email = uniqueEmail('reset');
  const oldPassword = 'old-password-1';
  const newPassword = 'new-password-2';
  await registerThroughUi(page, email, oldPassword);
  await logOutThroughUi(page);

  await page.getByRole('button', { name: 'Forgot Password' }).click();
  const resetForm = page.getByRole('form', { name: 'Reset password' });
  await resetForm.getByLabel('Email').fill(email);
  await resetForm.getByRole('button', { name: 'Reset Password' }).click();
  // After the request the form returns to login with the email cleared, and the server's message shows.
  const loginForm = page.getByRole('form', { name: 'Log in' });
  await expect(loginForm).toBeVisible();
  await expect(loginForm.getByLabel('Email')).toHaveValue('');
  await expect(page.getByRole('status').first()).toBeVisible();

  const mail = await mailbox.waitFor(email, { subject: /^Reset your Adloom password$/ });
  const link = /https?:\/\/\S+\/reset\/[^\s"<>]+/.exec(mail.text)?.[0];
  expect(link, `reset link in: ${mail.text}`).toBeTruthy();
  await page.goto(link!);
  await expect(page.getByRole('heading', { name: 'Almost There' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/campaign-builder$/);

  await logOutThroughUi(page);
  await logInThroughUi(page, email, oldPassword);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'User with that email/password combination not found' }),
  ).toBeVisible();
  await logInThroughUi(page, email, newPassword);
  await expect(page).toHaveURL(/\/campaign-builder$/);

  // The link is single-use. Opened again while signed in, at either width, it says so and
  // leaves the person in the builder: no login form beside the signed-in navigation.
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(link!);
    await expect(page).toHaveURL(/\/campaign-builder$/);
    await expect(page.getByRole('alert').first()).toBeVisible();
    await expect(page.getByRole('form', { name: 'Log in' })).toHaveCount(0);
  }
  // Signed out, it sends the person to login.
  await page.evaluate(() => localStorage.clear());
  await page.goto(link!);
  await expect(page).toHaveURL(/\/login$/);
});

test('a bad login shows the spec message', async ({ page }) => {
  await page.goto('/login');
  await logInThroughUi(page, uniqueEmail('nobody'), 'not-the-password');
  // Spec section 8: the message, and the HTTP status the server answered.
  await expect(page.getByRole('alert')).toContainText(
    'User with that email/password combination not found',
  );
  await expect(page.getByRole('alert')).toContainText('HTTP status 404');
  await expect(page).toHaveURL(/\/login$/);
});

test('register errors sit beside their fields, the first of them focused', async ({ page }) => {
  const email = uniqueEmail('twice');
  await registerThroughUi(page, email, 'some-password-1');
  await logOutThroughUi(page);
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Create an account' });
  const emailField = form.getByLabel('Email');
  const password = form.getByLabel('Password', { exact: true });
  const confirm = form.getByLabel('Confirm Password');
  await emailField.fill(email);
  await password.fill('abc');
  await confirm.fill('abcd');
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription(/Password must be at least 6 characters/);
  await expect(confirm).toHaveAccessibleDescription(/Passwords do not match/);
  await expect(password).toBeFocused();
  await expect(emailField).not.toHaveAttribute('aria-invalid', 'true');
  if (SCREENS) {
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SCREENS}/register-errors-${width}.png`, fullPage: true });
    }
  }

  // Typing in a field takes its error away; the taken email is then said beside Email.
  await password.fill('long-enough-1');
  await expect(password).not.toHaveAttribute('aria-invalid', 'true');
  await confirm.fill('long-enough-1');
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(emailField).toHaveAccessibleDescription(/An account with that email already exists/);
  await expect(emailField).toBeFocused();
  await expect(page).toHaveURL(/\/register$/);
});

test('the account page deletes the account after asking for the password', async ({ page }) => {
  const email = uniqueEmail('delete');
  const password = 'delete-me-please';
  await registerThroughUi(page, email, password);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  await expect(
    page.getByText('Google Sheets is not set up on this server.', { exact: false }),
  ).toBeVisible();

  await page.getByRole('checkbox', { name: 'Disable tutorials' }).check();
  await expect(page.getByRole('checkbox', { name: 'Disable tutorials' })).toBeChecked();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Disable tutorials' })).toBeChecked();

  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  const confirm = dialog.getByRole('button', { name: 'Delete Account' });
  await expect(confirm).toBeDisabled();
  // A wrong password is said beside the field; the dialog stays for another try.
  const field = dialog.getByLabel('Password', { exact: true });
  await field.fill('not-my-password');
  await confirm.click();
  await expect(field).toHaveAccessibleDescription(/The password is not correct/);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  if (SCREENS) await dialog.screenshot({ path: `${SCREENS}/delete-wrong-password.png` });
  await field.fill(password);
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await confirm.click();
  await expect(page).toHaveURL(/\/register$/);
  await page.goto('/login');
  await logInThroughUi(page, email, password);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'User with that email/password combination not found' }),
  ).toBeVisible();
});

/** Microsoft's locations file in Microsoft's layout (made-up Ids), as the engine's tests use it. */
const MICROSOFT_SAMPLE = resolve(
  REPO_ROOT,
  'packages/engine/test/fixtures/microsoft-locations/geolocations-sample.csv',
);

/** The keys of one IndexedDB store of this origin ([] when the database or store is missing). */
function storedKeys(page: Page, database: string, store: string): Promise<string[]> {
  return page.evaluate(
    ([name, storeName]) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(storeName)) {
            db.close();
            resolve([]);
            return;
          }
          const keys = db.transaction(storeName).objectStore(storeName).getAllKeys();
          keys.onsuccess = () => {
            db.close();
            resolve(keys.result.map(String).sort());
          };
          keys.onerror = () => reject(keys.error);
        };
      }),
    [database, store] as const,
  );
}

/** Puts one record into an existing IndexedDB store of this origin. */
function putRecord(page: Page, database: string, store: string, record: object): Promise<void> {
  return page.evaluate(
    ([name, storeName, value]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(storeName, 'readwrite');
          tx.objectStore(storeName).put(value);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [database, store, record] as const,
  );
}

test('deleting the account also forgets what this browser keeps of it: drafts, Microsoft file, app settings', async ({
  page,
}) => {
  await startWithRows(page, 'forget', 'root\tmod\nNike\tRunning Shoes\n');
  await expect(page.getByRole('status').filter({ hasText: 'kept in this browser' })).toBeVisible();
  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Template' });
  await dialog.getByLabel('Template name').fill('Brands');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await page.getByLabel('Campaign name pattern').fill('{root} - Search');

  const userId = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('adloom.user') ?? '{}') as { _id?: string })._id ?? '',
  );
  expect(userId).not.toBe('');
  const mine = `${userId}|client|forget client`;
  await expect.poll(() => storedKeys(page, 'adloom-drafts', 'feedDrafts')).toEqual([mine]);
  await expect
    .poll(() => storedKeys(page, 'adloom-template-drafts', 'templateDrafts'))
    .toEqual([mine]);
  // Microsoft's locations file, kept for this person.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Microsoft locations file' }).click();
  await (await chooser).setFiles(MICROSOFT_SAMPLE);
  await expect
    .poll(() => storedKeys(page, 'adloom-microsoft-locations', 'files'))
    .toEqual([userId]);
  // Another account's drafts in the same browser, and another site's setting, stay.
  const theirs = 'someone-else|client|theirs';
  await putRecord(page, 'adloom-drafts', 'feedDrafts', {
    key: theirs,
    userId: 'someone-else',
    name: 'theirs',
    baseRevision: null,
    savedAt: 1,
    feeds: [],
    activeFeed: null,
  });
  await putRecord(page, 'adloom-template-drafts', 'templateDrafts', {
    key: theirs,
    savedAt: 1,
    kinds: {},
  });
  await page.evaluate(() => localStorage.setItem('elsewhere.setting', 'kept'));
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('adloom.'))),
  ).toContain('adloom.builder.client');

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Account' })
    .click();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
  await confirm.getByLabel('Password', { exact: true }).fill('forget-password-1');
  await confirm.getByRole('button', { name: 'Delete Account' }).click();
  await expect(page).toHaveURL(/\/register$/);

  expect(await storedKeys(page, 'adloom-drafts', 'feedDrafts')).toEqual([theirs]);
  expect(await storedKeys(page, 'adloom-drafts', 'feedDraftParts')).toEqual([]);
  expect(await storedKeys(page, 'adloom-template-drafts', 'templateDrafts')).toEqual([theirs]);
  expect(await storedKeys(page, 'adloom-microsoft-locations', 'files')).toEqual([]);
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('adloom.'))),
  ).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('elsewhere.setting'))).toBe('kept');
});

/** A server whose register bot check is on, against a reCAPTCHA stand-in on loopback. */
const withBotCheck = test.extend<
  object,
  { botCheck: { standIn: BotCheckStandIn; server: RunningServer } }
>({
  botCheck: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const standIn = await startBotCheckStandIn();
      const server = await startServer({ env: standIn.serverEnv() });
      try {
        await use({ standIn, server });
      } finally {
        await server.stop();
        await standIn.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ botCheck }, use) => use(botCheck.server.url),
});

/** Fills and sends the register form. */
async function submitRegisterForm(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm Password').fill(password);
  await form.getByRole('button', { name: 'Create Account' }).click();
}

withBotCheck.describe('register with the bot check on', () => {
  withBotCheck(
    'a sign-up sends the token the bot check issued and passes',
    async ({ page, botCheck }) => {
      const config = await page.request.get(`${botCheck.server.url}/api/config`);
      expect((await config.json()).botCheck).toEqual({
        enabled: true,
        siteKey: botCheck.standIn.siteKey,
        scriptUrl: botCheck.standIn.scriptUrl,
      });
      const before = botCheck.standIn.verifications.length;
      await registerThroughUi(page, uniqueEmail('human'), 'human-password-1');
      await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
      const checked = botCheck.standIn.verifications.slice(before);
      expect(checked).toHaveLength(1);
      expect(checked[0]).toMatchObject({ secret: botCheck.standIn.secret, success: true });
      expect(checked[0]?.token).toMatch(/^tok-/);
    },
  );

  withBotCheck(
    'a token the bot check did not issue is refused with the server message',
    async ({ page, botCheck }) => {
      botCheck.standIn.forgeTokens = true;
      try {
        const before = botCheck.standIn.verifications.length;
        await page.goto('/register');
        await submitRegisterForm(page, uniqueEmail('robot'), 'robot-password-1');
        await expect(
          page.getByRole('alert').filter({ hasText: 'The bot check failed. Please try again.' }),
        ).toBeVisible();
        await expect(page).toHaveURL(/\/register$/);
        expect(await page.evaluate(() => localStorage.getItem('adloom.token'))).toBeNull();
        const checked = botCheck.standIn.verifications.slice(before);
        expect(checked.map((v) => v.success)).toEqual([false]);
      } finally {
        botCheck.standIn.forgeTokens = false;
      }
    },
  );

  withBotCheck(
    'a bot check that cannot load is named plainly, and a later attempt signs up',
    async ({ page, botCheck }) => {
      const blocked = (url: URL) => url.href === botCheck.standIn.scriptUrl;
      await page.route(blocked, (route) => route.abort('blockedbyclient'));
      const before = botCheck.standIn.verifications.length;
      await page.goto('/register');
      const problem = page.getByRole('alert').filter({
        hasText: 'The bot check could not be loaded, so we cannot sign you up right now.',
      });
      await expect(problem).toBeVisible();
      await submitRegisterForm(page, uniqueEmail('blocked'), 'blocked-password-1');
      await expect(problem).toBeVisible();
      await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled();
      await expect(page).toHaveURL(/\/register$/);
      expect(botCheck.standIn.verifications.length).toBe(before);

      await page.unroute(blocked);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page).toHaveURL(/\/campaign-builder$/);
      expect(botCheck.standIn.verifications.slice(before).map((v) => v.success)).toEqual([true]);
    },
  );
});
