import type { Page, Response } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { logInThroughUi, registerThroughUi } from './support.ts';

// Texts only the signed-in app's code holds (the builder workspace's notice, the sidebar's
// signed-in line): a script of a public page that holds one carries the builder's code.
const SIGNED_IN_CODE_MARKERS = ['Feeds successfully updated', 'Signed in as'];

/** `url: marker` for every signed-in marker a script holds (a short failure, not the code). */
async function signedInCodeIn(scripts: Response[]): Promise<string[]> {
  const found: string[] = [];
  for (const response of scripts) {
    const code = await response.text();
    for (const marker of SIGNED_IN_CODE_MARKERS)
      if (code.includes(marker)) found.push(`${new URL(response.url()).pathname}: ${marker}`);
  }
  return found;
}

/**
 * The scripts index.html names (the entry, as a tag or started by the prerendered page's inline
 * script after its first paint, and its modulepreloads): what every page loads.
 */
async function entryScripts(page: Page): Promise<Set<string>> {
  const html = await (await page.request.get('/')).text();
  return new Set(
    [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!),
  );
}

/** Opens `path` and collects the scripts it runs, until the page has loaded and gone quiet. */
async function scriptsRunBy(page: Page, path: string): Promise<Response[]> {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  return scripts;
}

for (const { path, shows } of [
  { path: '/', shows: 'Professional search campaigns in seconds' },
  { path: '/terms', shows: 'Terms of Service' },
]) {
  test(`${path} runs only the scripts index.html names, none of the signed-in app's`, async ({
    page,
  }) => {
    const entry = await entryScripts(page);
    const scripts = await scriptsRunBy(page, path);
    await expect(page.getByRole('heading', { name: shows, level: 1 })).toBeVisible();
    const urls = scripts.map((response) => new URL(response.url()).pathname);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((url) => !entry.has(url))).toEqual([]);
    expect(await signedInCodeIn(scripts)).toEqual([]);
  });
}

test('/login prefetches the signed-in app without running it, and signing in uses it', async ({
  browser,
  baseURL,
  page: registering,
}) => {
  const email = uniqueEmail('prefetch');
  const password = 'prefetch-password-1';
  await registerThroughUi(registering, email, password);
  // A browser of its own, with nothing cached yet.
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();

  const prefetched: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') prefetched.push(new URL(request.url()).pathname);
  });
  const scripts = await scriptsRunBy(page, '/login');
  expect(await signedInCodeIn(scripts)).toEqual([]);
  // The build names the signed-in app's files; the idle page fetches every one of them.
  const listed = (
    (await page.locator('meta[name="adloom-prefetch"]').getAttribute('content')) ?? ''
  ).split(' ');
  expect(listed.some((file) => /SignedInShell-.*\.js$/.test(file))).toBe(true);
  await expect.poll(() => listed.filter((file) => !prefetched.includes(file))).toEqual([]);

  await logInThroughUi(page, email, password);
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
  await expect(page.getByText('Signed in as')).toBeVisible();
  await context.close();
});

test('/ and /login come drawn in their HTML, before any script runs', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page).toHaveTitle('Adloom | Professional search campaigns in seconds');
  await expect(
    page.getByRole('heading', { name: 'Professional search campaigns in seconds', level: 1 }),
  ).toBeVisible();
  await page.goto('/login');
  await expect(page).toHaveTitle('Adloom | Log In');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await expect(
    page.getByRole('form', { name: 'Log in' }).getByRole('textbox', { name: 'Password' }),
  ).toBeVisible();
  await context.close();
});

test('someone signed in who opens / is not shown the landing page while the app loads', async ({
  page,
}) => {
  await registerThroughUi(page, uniqueEmail('prerender'), 'prerender-password-1');
  // The app's scripts never arrive: what shows is what the HTML alone draws.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-stored-session', '');
  await expect(page.getByRole('heading', { level: 1 })).toBeHidden();
  await page.unroute('**/assets/*.js');
  await page.goto('/');
  await expect(page).toHaveURL(/\/campaign-builder$/);
  await expect(page.getByRole('heading', { name: 'Campaign Builder' })).toBeVisible();
});

// The Keyword Combiner is open to visitors: the signed-out bar leads to it beside Log In, on one
// line at both widths. SCREENS_OUT names a folder for the bar's screenshots.
for (const width of [1440, 390]) {
  test(`at ${width} px the signed-out bar leads to the Keyword Combiner beside Log In`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const bar = page.getByRole('navigation', { name: 'Main' });
    const combiner = bar.getByRole('link', { name: 'Keyword Combiner' });
    const logIn = bar.getByRole('link', { name: 'Log In' });
    await expect(combiner).toBeInViewport({ ratio: 1 });
    await expect(logIn).toBeInViewport({ ratio: 1 });
    const [a, b] = [await combiner.boundingBox(), await logIn.boundingBox()];
    expect(a && b && a.x + a.width <= b.x && Math.abs(a.y - b.y) < 8).toBe(true);
    if (process.env.SCREENS_OUT)
      await page.screenshot({ path: `${process.env.SCREENS_OUT}/landing-bar-${width}.png` });
    await combiner.click();
    await expect(page).toHaveURL(/\/combinations$/);
    await expect(page.getByRole('heading', { name: 'Keyword Combiner', level: 1 })).toBeVisible();
  });
}

test('a notice shows below the header and never covers its Log In link', async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/contact');
    const logIn = page.getByRole('banner').getByRole('link', { name: 'Log In' });
    await expect(logIn).toBeVisible();
    // A notice: the waiting list refuses an address it already holds, or thanks the person.
    const form = page
      .getByRole('form')
      .filter({ has: page.getByRole('button', { name: 'Sign Up' }) });
    await form.getByLabel('Email').fill(uniqueEmail(`notice${width}`));
    await form.getByRole('button', { name: 'Sign Up' }).click();
    const notice = page
      .locator('[role="status"], [role="alert"]')
      .filter({ hasText: /\S/ })
      .first();
    await expect(notice).toBeVisible();
    const link = (await logIn.boundingBox())!;
    const box = (await notice.boundingBox())!;
    const overlaps =
      box.x < link.x + link.width &&
      link.x < box.x + box.width &&
      box.y < link.y + link.height &&
      link.y < box.y + box.height;
    expect(overlaps, `notice ${JSON.stringify(box)} over Log In ${JSON.stringify(link)}`).toBe(
      false,
    );
    await expect(logIn).toBeInViewport();
    if (process.env.SCREENS_OUT)
      await page.screenshot({ path: `${process.env.SCREENS_OUT}/notice-${width}.png` });
  }
});

/**
 * How far `page.goto` waits while the entry is held: the drawn page (its form), not the load
 * event, which never comes when the starter asked for the entry before it (a busy machine paints
 * late; the starter asks after the first paint, or after a second).
 */
const HELD_ENTRY_WAIT = 'domcontentloaded';

/**
 * Holds the app's entry module (the script the prerendered page's inline starter adds after its
 * first paint) until `release` is called, so a journey acts on the page before the app has run,
 * however fast the machine: `held` resolves once the page has asked for it.
 */
async function holdAppEntry(page: Page): Promise<{ held: Promise<void>; release: () => void }> {
  const entry = /s\.src="(\/assets\/[^"]+\.js)"/.exec(await (await page.request.get('/')).text());
  expect(entry, "the prerendered page's inline starter names the entry").toBeTruthy();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const held = new Promise<void>((resolve) => (asked = resolve));
  await page.route(`**${entry![1]}`, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { held, release };
}

// Issue 33: what a person types into a prerendered page before the app takes it over used to be
// emptied when it did (Mantine redraws the fields just after hydration and React wrote the empty
// state over them); a submit before then reloaded the page.
test('what is typed into /login before the app runs stays, and Log In waits for the app and sends it', async ({
  page,
}) => {
  const email = uniqueEmail('early');
  const password = 'early-password-1';
  const registered = await page.request.post('/api/users/register', {
    data: { email, password, 'password-confirm': password, recaptchaToken: '' },
  });
  expect(registered.ok(), await registered.text()).toBe(true);

  const app = await holdAppEntry(page);
  await page.goto('/login', { waitUntil: HELD_ENTRY_WAIT });
  await app.held;
  const form = page.getByRole('form', { name: 'Log in' });
  const waitingList = page.getByRole('form', { name: 'Join the waiting list' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await waitingList.getByLabel('Email').fill('early-waiting@example.com');
  // Until the app runs, Log In is busy and Enter sends nothing (it would reload the page).
  const logIn = form.getByRole('button', { name: 'Log In' });
  await expect(logIn).toBeDisabled();
  await form.getByLabel('Password', { exact: true }).press('Enter');
  await expect(form.getByLabel('Password', { exact: true })).toHaveValue(password);

  app.release();
  // Log In turns on once the app has taken the page over (and redrawn its fields).
  await expect(logIn).toBeEnabled();
  await expect(form.getByLabel('Email')).toHaveValue(email);
  await expect(form.getByLabel('Password', { exact: true })).toHaveValue(password);
  await expect(waitingList.getByLabel('Email')).toHaveValue('early-waiting@example.com');
  // Sign Up turns on only when the app holds the typed address.
  await expect(waitingList.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  await logIn.click();
  await expect(page).toHaveURL(/\/campaign-builder$/);
});

test("what is typed into the landing page's demo form before the app runs stays", async ({
  page,
}) => {
  const app = await holdAppEntry(page);
  await page.goto('/', { waitUntil: HELD_ENTRY_WAIT });
  await app.held;
  const form = page.getByRole('form', { name: 'Join the waiting list' });
  const address = uniqueEmail('early-demo');
  await form.getByLabel('Email').fill(address);
  await expect(form.getByRole('button', { name: 'Sign Up' })).toBeDisabled();
  app.release();
  await expect(form.getByRole('button', { name: 'Sign Up' })).toBeEnabled();
  await expect(form.getByLabel('Email')).toHaveValue(address);
  await form.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Thank you for signing up for our waiting list')).toBeVisible();
});
