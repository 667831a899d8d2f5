import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import type axe from 'axe-core';
import { verifyEmailPath } from '@adloom/contract';
import { expect, uniqueEmail } from '../fixtures.ts';
import type { Mailbox } from '../support/mailbox.ts';
import type { RunningServer } from '../support/server.ts';

/** The platform's shortcut modifier. */
export const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';

/** A feed grid cell by its column label and 1-based row number. */
export function cell(page: Page, column: string, row: number): Locator {
  return page.getByRole('textbox', { name: `${column}, row ${row}`, exact: true });
}

/** Registers through the register screen the login screen links to. */
export async function registerThroughUi(
  page: Page,
  email: string,
  password: string,
): Promise<void> {
  await page.goto('/login');
  await page
    .getByRole('form', { name: 'Log in' })
    .getByRole('link', { name: 'Create an account' })
    .click();
  await expect(page).toHaveURL(/\/register$/);
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm Password').fill(password);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/campaign-builder$/);
  await closeTutorial(page);
}

/**
 * Where a journey's server mails to: the fixtures' SMTP capture (`mailbox`), or, for a server a
 * journey starts without SMTP_URL, its outbox folder (`DATA_DIR/outbox/*.eml`).
 */
export type MailSource = Mailbox | RunningServer;

/** The subject of the address verification mail. */
const VERIFY_SUBJECT = /^Verify your Adloom email address$/;
const VERIFY_LINK = /https?:\/\/[^\s"<>]+\/verify-email\/[A-Za-z0-9_-]+/;

/** The newest verification link an outbox holds for `email`, if any. */
function findOutboxLink(dataDir: string, email: string): string | undefined {
  const outbox = join(dataDir, 'outbox');
  if (!existsSync(outbox)) return undefined;
  return readdirSync(outbox)
    .map((name) => join(outbox, name))
    .map((file) => ({ text: readFileSync(file, 'utf8'), at: statSync(file).mtimeMs }))
    .filter(({ text }) => text.toLowerCase().includes(`\r\nto: ${email.toLowerCase()}\r\n`))
    .sort((a, b) => a.at - b.at)
    .map(({ text }) => VERIFY_LINK.exec(text)?.[0])
    .filter((link) => link !== undefined)
    .at(-1);
}

/**
 * The newest address verification link mailed to `email` (the mail leaves after the sign-up's
 * answer: this waits for it), read the way the reset journeys read theirs.
 */
export async function readVerificationLink(source: MailSource, email: string): Promise<string> {
  if ('waitFor' in source) {
    await source.waitFor(email, { subject: VERIFY_SUBJECT });
    const mails = source.mails.filter(
      (mail) => mail.to.includes(email.toLowerCase()) && VERIFY_SUBJECT.test(mail.subject),
    );
    const link = VERIFY_LINK.exec(mails.at(-1)?.text ?? '')?.[0];
    expect(link, 'a verification link in the mail').toBeTruthy();
    return link ?? '';
  }
  let link: string | undefined;
  await expect
    .poll(() => (link = findOutboxLink(source.dataDir, email)), {
      message: `a verification mail to ${email} in ${source.dataDir}/outbox`,
    })
    .toBeTruthy();
  return link ?? '';
}

/**
 * Verifies `email` with the link mailed to it, through the API (the call the link's page makes):
 * for journeys about the AI helper or the XML tools, which wait for a verified address.
 */
export async function verifyThroughApi(
  page: Page,
  source: MailSource,
  email: string,
): Promise<void> {
  const link = new URL(await readVerificationLink(source, email));
  const token = link.pathname.split('/').at(-1) ?? '';
  const verified = await page.request.post(verifyEmailPath(token), { data: {} });
  expect(verified.ok(), await verified.text()).toBe(true);
}

/** Session values as the app keeps them in local storage (state/session.ts). */
export interface StoredSessionValues {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  user: unknown;
}

/** A stored user no server knows, for journeys about a stored session the server never made. */
export const MADE_UP_USER = {
  _id: 'x',
  email: 'x@example.com',
  role: 'user',
  integrations: [],
  tutorial: { disabled: false, tutorialSteps: [] },
} as const;

/**
 * Writes session values as the app keeps them (state/session.ts) on the app's origin, on a
 * document that runs no app: the favicon, the lightest one there. The app's own pages will not
 * do: a prerendered page ('/', '/login') starts the app after its load event, which is all
 * `page.goto` waits for, so on a busy machine that app starts after the values are written,
 * takes them as its session and may end it (a token the server rejects) before the next page
 * reads them.
 */
export async function storeSession(page: Page, values: StoredSessionValues): Promise<void> {
  await page.goto('/favicon.svg');
  await page.evaluate(({ token, expiresAt, user }) => {
    localStorage.setItem('adloom.token', token);
    localStorage.setItem('adloom.expiresAt', String(expiresAt));
    localStorage.setItem('adloom.user', JSON.stringify(user));
  }, values);
}

/**
 * Signs up through the API (the register call the form makes), closes the first-time tutorial
 * the way its Done button does, and opens the campaign builder signed in: for journeys about
 * what comes after sign-up. `open: false` stores the session and opens nothing, for a journey
 * whose next step opens another page (the builder is the app's heaviest page to load). The sign-up screens are journeys of their own (accounts,
 * first-visit, sessions, public-pages, tutorial); going through them once more per journey cost
 * two page loads and a dialog each. `verifyFrom` also opens the verification link mailed there
 * (journeys of the AI helper and the XML tools, which wait for it).
 */
export async function signUp(
  page: Page,
  email: string,
  password: string,
  options: { verifyFrom?: MailSource; open?: boolean } = {},
): Promise<void> {
  const registered = await page.request.post('/api/users/register', {
    data: { email, password, 'password-confirm': password, recaptchaToken: '' },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const session = (await registered.json()) as {
    token: string;
    expiresIn: number;
    user: unknown;
  };
  if (options.verifyFrom) {
    await verifyThroughApi(page, options.verifyFrom, email);
    const me = await page.request.get('/api/users/me', {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.ok(), await me.text()).toBe(true);
    session.user = ((await me.json()) as { user: unknown }).user;
  }
  const done = await page.request.post('/api/users/set-tutorial-done-status', {
    headers: { authorization: `Bearer ${session.token}` },
    data: { target: 'Intro', isDone: true },
  });
  expect(done.ok(), await done.text()).toBe(true);
  const { tutorial } = (await done.json()) as { tutorial: unknown };
  await storeSession(page, {
    token: session.token,
    expiresAt: Date.now() + session.expiresIn * 1000,
    user: { ...(session.user as object), tutorial },
  });
  if (options.open === false) return;
  await page.goto('/campaign-builder');
  await expect(page.getByRole('button', { name: 'New Client' })).toBeVisible();
}

/** The first-time tutorial a new account meets in the campaign builder. */
export function tutorialDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Welcome to Adloom' });
}

/** Closes the first-time tutorial with Done and waits until the server marked it done. */
export async function closeTutorial(page: Page): Promise<void> {
  const marked = page.waitForResponse((response) =>
    response.url().endsWith('/api/users/set-tutorial-done-status'),
  );
  await tutorialDialog(page).getByRole('button', { name: 'Done' }).click();
  await expect(tutorialDialog(page)).toHaveCount(0);
  expect((await marked).status()).toBe(200);
}

/**
 * Logs in through the login form, typed once as a person types. The page may still be the
 * prerendered HTML: what is typed stays when the app takes over, and the click waits for Log In
 * to be enabled, as it is once the app runs (public-pages.spec.ts, issue 33).
 */
export async function logInThroughUi(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log In' }).click();
}

/** Opens the sidebar on narrow screens, where it hides behind the burger. */
export async function openNavigation(page: Page): Promise<void> {
  // isVisible does not wait: the signed-in frame must be drawn before it is asked.
  await expect(page.getByRole('link', { name: 'Adloom campaign builder' })).toBeVisible();
  const burger = page.getByRole('button', { name: 'Open navigation' });
  if (await burger.isVisible()) await burger.click();
}

/** Clicks Log Out in the sidebar (opening it first on narrow screens). */
export async function logOutThroughUi(page: Page): Promise<void> {
  await openNavigation(page);
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Registers, creates a client (with its default feed 'brands') and shows that feed. */
export async function startWithClient(
  page: Page,
  prefix: string,
  options: { verifyFrom?: MailSource } = {},
): Promise<void> {
  await signUp(page, uniqueEmail(prefix), `${prefix}-password-1`, options);
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill(`${prefix} client`);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
}

/** Registers, creates a client and pastes rows (first line: the header the paste skips). */
export async function startWithRows(page: Page, prefix: string, tsv: string): Promise<void> {
  await startWithClient(page, prefix);
  await cell(page, 'Root', 1).click();
  await page.evaluate((text) => navigator.clipboard.writeText(text), tsv);
  await page.keyboard.press(`${MOD}+V`);
}

/** Makes a template of the open tab with New Template; the dialog closes. */
export async function newTemplate(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New Template' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Template' });
  await dialog.getByLabel('Template name').fill(name);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * Makes a search campaign template on the Campaigns tab (New Template, its name patterns and one
 * Broad keyword, so each row has its ad group) and leaves that tab open; the other tabs use it
 * as the active campaign template.
 */
export async function newCampaignTemplate(
  page: Page,
  name: string,
  patterns: { campaign: string; adGroup: string; keyword: string },
): Promise<void> {
  await page.getByRole('tab', { name: 'Campaigns', exact: true }).first().click();
  await newTemplate(page, name);
  await expect(page.getByLabel('Campaign template')).toHaveValue(name);
  await page.getByLabel('Campaign name pattern').fill(patterns.campaign);
  await page.getByLabel('Ad group name pattern').fill(patterns.adGroup);
  await page.getByRole('button', { name: 'Add Keyword' }).click();
  await page.getByLabel('Keyword 1', { exact: true }).fill(patterns.keyword);
  await page.getByLabel('Match type 1', { exact: true }).selectOption('Broad');
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** One axe rule broken on one element. */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  target: string;
}

/** The impacts a screen may not have. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core on the page as it is once its transitions have ended. The script goes in with
 * `page.evaluate`: the app's CSP (script-src 'self') blocks `addScriptTag`.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { axe: runner } = window as unknown as { axe: typeof axe };
    const { violations } = await runner.run(document, { resultTypes: ['violations'] });
    return violations.flatMap((v) =>
      v.nodes.map((node) => ({
        rule: v.id,
        impact: node.impact ?? v.impact ?? 'minor',
        help: v.help,
        target: node.target.join(' '),
      })),
    );
  });
}

/** The serious and critical findings, one readable line each. */
function blockingAxeFindings(findings: readonly AxeFinding[]): string[] {
  return findings
    .filter((f) => BLOCKING_IMPACTS.has(f.impact))
    .map((f) => `${f.impact} ${f.rule} (${f.help}): ${f.target}`);
}

/**
 * Fails the test, listing every serious or critical axe finding on the page as it is now under
 * `screen`; softly, so a journey goes on to check its next screens. Returns every finding.
 */
export async function expectNoSeriousAxeFindings(
  page: Page,
  screen: string,
): Promise<AxeFinding[]> {
  const findings = await axeFindings(page);
  expect.soft(blockingAxeFindings(findings), screen).toEqual([]);
  return findings;
}
