import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, uniqueEmail } from '../fixtures.ts';
import { logInThroughUi, logOutThroughUi, registerThroughUi } from './support.ts';

/** The token this tab keeps (read before it is cleared). */
async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('adloom.token'));
  expect(token).toBeTruthy();
  return token!;
}

/** How the API answers a token: the account call and a workspace call. */
async function apiStatuses(request: APIRequestContext, token: string): Promise<number[]> {
  const headers = { authorization: `Bearer ${token}` };
  const me = await request.get('/api/users/me', { headers });
  const clients = await request.get('/api/app/clients', { headers });
  return [me.status(), clients.status()];
}

test('Log Out ends the token on the server: the old token is refused afterwards', async ({
  page,
}) => {
  const email = uniqueEmail('logout');
  const password = 'logout-password-1';
  await registerThroughUi(page, email, password);
  const token = await storedToken(page);
  expect(await apiStatuses(page.request, token)).toEqual([200, 200]);

  await logOutThroughUi(page);
  expect(await page.evaluate(() => localStorage.getItem('adloom.token'))).toBeNull();
  // The server call runs behind the local sign-out: wait for it to land.
  await expect.poll(() => apiStatuses(page.request, token)).toEqual([401, 401]);

  await logInThroughUi(page, email, password);
  await expect(page).toHaveURL(/\/campaign-builder$/);
  const fresh = await storedToken(page);
  expect(fresh).not.toBe(token);
  expect(await apiStatuses(page.request, fresh)).toEqual([200, 200]);
});

test('Log out everywhere, on the account page, also ends a session on another device', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail('everywhere');
  const password = 'everywhere-password-1';
  await registerThroughUi(page, email, password);
  const first = await storedToken(page);

  // A second device: its own browser context, signed in to the same account.
  const other = await browser.newContext({ baseURL });
  try {
    const otherPage = await other.newPage();
    await otherPage.goto('/login');
    await logInThroughUi(otherPage, email, password);
    await expect(otherPage).toHaveURL(/\/campaign-builder$/);
    const second = await storedToken(otherPage);
    expect(await apiStatuses(page.request, second)).toEqual([200, 200]);

    await page.goto('/account');
    await expect(
      page.getByText('Ends every session of this account, on every device, including this one.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Log Out Everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log out everywhere?' });
    await dialog.getByRole('button', { name: 'Log Out Everywhere' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByRole('status').filter({ hasText: 'You have been logged out on every device.' }),
    ).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('adloom.token'))).toBeNull();

    expect(await apiStatuses(page.request, first)).toEqual([401, 401]);
    expect(await apiStatuses(page.request, second)).toEqual([401, 401]);
    // The other device finds out on its next call: opening a page signs it out.
    await otherPage.goto('/account');
    await expect(otherPage).toHaveURL(/\/login$/);
    await expect(otherPage.getByRole('heading', { name: 'Welcome back' })).toBeVisible();

    // A fresh login works.
    await logInThroughUi(page, email, password);
    await expect(page).toHaveURL(/\/campaign-builder$/);
    expect(await apiStatuses(page.request, await storedToken(page))).toEqual([200, 200]);
  } finally {
    await other.close();
  }
});
