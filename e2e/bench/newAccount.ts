import type { Page } from '@playwright/test';

/**
 * Signs a new person up through the register form of the server at `serverUrl` (the way a
 * person starts, so its time is the app's), closes the first-time tutorial with Done, and makes
 * a client named `clientName`; returns once the client's feed 'brands' shows.
 */
export async function registerWithClient(
  page: Page,
  serverUrl: string,
  email: string,
  clientName: string,
): Promise<void> {
  const password = 'bench-password-1';
  await page.goto(`${serverUrl}/register`);
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByLabel('Confirm Password').fill(password);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(/\/campaign-builder$/);
  // A new account meets the first-time tutorial in the builder.
  await page
    .getByRole('dialog', { name: 'Welcome to Adloom' })
    .getByRole('button', { name: 'Done' })
    .click();
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill(clientName);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await page.getByRole('grid', { name: 'Rows of brands' }).waitFor();
}
