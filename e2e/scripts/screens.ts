// Takes screenshots of every shell screen at 390 px and 1440 px wide, for a visual review.
// Usage (after `npm run build -w @adloom/web`): OUT=/tmp/screens npx tsx e2e/scripts/screens.ts
// Starts its own server on a fresh data folder unless BASE_URL points at a running one.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { startServer, type RunningServer } from '../support/server.ts';

const ownServer: RunningServer | undefined = process.env.BASE_URL ? undefined : await startServer();
const baseUrl = process.env.BASE_URL ?? ownServer!.url;
const out = process.env.OUT ?? '/tmp/adloom-screens';
const only = process.env.ONLY?.split(',');
mkdirSync(out, { recursive: true });

type Shot = {
  name: string;
  path: string;
  signedIn?: boolean;
  full?: boolean;
  act?: (page: Page) => Promise<void>;
};

const shots: Shot[] = [
  { name: 'landing', path: '/', full: true },
  { name: 'contact', path: '/contact' },
  { name: 'terms', path: '/terms', full: true },
  { name: 'privacy', path: '/privacy' },
  { name: 'sandbox', path: '/sandbox' },
  { name: 'login', path: '/login', full: true },
  {
    name: 'forgot',
    path: '/login',
    act: (p) => p.getByRole('button', { name: 'Forgot Password' }).click(),
  },
  { name: 'register', path: '/register' },
  { name: 'not-found', path: '/nope' },
  { name: 'service-down', path: '/service-down?service=mongo' },
  { name: 'builder', path: '/campaign-builder', signedIn: true },
  { name: 'account', path: '/account', signedIn: true, full: true },
  { name: 'guides', path: '/account', signedIn: true, act: (p) => openGuides(p) },
  {
    name: 'guides-feature',
    path: '/account',
    signedIn: true,
    act: async (p) => {
      await openGuides(p);
      await p.getByRole('button', { name: 'RSA Templates' }).click();
      await p.waitForTimeout(900);
    },
  },
  {
    name: 'feedback',
    path: '/account',
    signedIn: true,
    act: async (p) => {
      await openNavigation(p);
      await p.getByRole('button', { name: 'Feedback' }).click();
      await p.waitForTimeout(400);
    },
  },
  { name: 'navigation', path: '/account', signedIn: true, act: (p) => openNavigation(p) },
  {
    name: 'delete',
    path: '/account',
    signedIn: true,
    act: (p) =>
      p
        .getByRole('button', { name: 'Delete Account' })
        .click()
        .then(() => p.waitForTimeout(400)),
  },
  {
    name: 'log-out-everywhere',
    path: '/account',
    signedIn: true,
    act: (p) =>
      p
        .getByRole('button', { name: 'Log Out Everywhere' })
        .click()
        .then(() => p.waitForTimeout(400)),
  },
  {
    name: 'toasts',
    path: '/login',
    act: async (p) => {
      const form = p.getByRole('form', { name: 'Log in' });
      await form.getByLabel('Email').fill('nobody@example.com');
      await form.getByLabel('Password', { exact: true }).fill('wrong-password');
      await form.getByRole('button', { name: 'Log In' }).click();
      await p.waitForTimeout(600);
    },
  },
];

async function openNavigation(page: Page) {
  const burger = page.getByRole('button', { name: 'Open navigation' });
  if (await burger.isVisible()) await burger.click();
  await page.waitForTimeout(300);
}

async function openGuides(page: Page) {
  await openNavigation(page);
  await page.getByRole('button', { name: 'Guides' }).click();
  await page.waitForTimeout(700);
}

try {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const email = `screens-${Date.now()}@example.com`;
  const password = 'correct-horse-9';
  const registered = await fetch(`${baseUrl}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, 'password-confirm': password, recaptchaToken: '' }),
  });
  const answer = (await registered.json()) as { token: string; expiresIn: number; user: unknown };
  // The screens are taken without the first-time tutorial over the builder.
  await fetch(`${baseUrl}/api/users/toggle-tutorials`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${answer.token}` },
    body: JSON.stringify({ shouldDisable: true }),
  });

  for (const width of [390, 1440]) {
    for (const shot of shots) {
      if (only && !only.includes(shot.name)) continue;
      const context = await browser.newContext({
        viewport: { width, height: width < 600 ? 844 : 900 },
      });
      if (shot.signedIn) {
        await context.addInitScript((s) => {
          localStorage.setItem('adloom.token', s.token);
          localStorage.setItem('adloom.expiresAt', String(Date.now() + s.expiresIn * 1000));
          localStorage.setItem('adloom.user', JSON.stringify(s.user));
        }, answer);
      }
      const page = await context.newPage();
      await page.goto(`${baseUrl}${shot.path}`);
      await page.waitForLoadState('networkidle');
      if (shot.act) await shot.act(page);
      await page.screenshot({
        path: join(out, `${shot.name}-${width}.png`),
        fullPage: shot.full ?? false,
      });
      await context.close();
    }
  }
  await browser.close();
} finally {
  await ownServer?.stop();
}
console.log(`screenshots in ${out}`);
