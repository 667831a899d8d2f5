import { expect, test } from '../fixtures.ts';
import { MADE_UP_USER, storeSession } from './support.ts';

test('a guarded route visited signed out lands on /login', async ({ page }) => {
  for (const path of ['/campaign-builder', '/account', '/lists']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  }
});

test('an unknown path shows the 404 page with a link home', async ({ page }) => {
  await page.goto('/this/does/not/exist');
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle('Adloom | Page Not Found');
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Yes, so ready!' })).toBeVisible();
});

test('an expired stored session is cleared on load and the person goes to /login', async ({
  page,
}) => {
  await storeSession(page, {
    token: 'stale',
    expiresAt: Date.now() - 1000,
    user: MADE_UP_USER,
  });
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('adloom.token'))).toBeNull();
});

test('the waiting list on /contact enables Sign Up only for a valid email', async ({ page }) => {
  await page.goto('/contact');
  await expect(page).toHaveTitle('Adloom | Contact');
  const signUp = page.getByRole('button', { name: 'Sign Up' });
  await expect(signUp).toBeDisabled();
  await page.getByLabel('Email').fill('not-an-email');
  await expect(signUp).toBeDisabled();
  await page.getByLabel('Email').fill('waiting@example.com');
  await expect(signUp).toBeEnabled();
  await signUp.click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Thank you for signing up for our waiting list' }),
  ).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('');
});

test('the landing page scrolls to the booking section', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Yes, so ready!' }).click();
  await expect(page.getByRole('heading', { name: 'Book a free demo' })).toBeInViewport();
});
