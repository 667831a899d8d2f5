import type { Page } from '@playwright/test';
import { expect } from '../fixtures.ts';

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
}

/** Logs in through the login form. */
export async function logInThroughUi(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log In' }).click();
}

/** Clicks Log Out in the sidebar (opening it first on narrow screens). */
export async function logOutThroughUi(page: Page): Promise<void> {
  const burger = page.getByRole('button', { name: 'Open navigation' });
  if (await burger.isVisible()) await burger.click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
