import { expect, test } from '../fixtures.ts';
import { cell, signUp, startWithClient } from './support.ts';
import { uniqueEmail } from '../fixtures.ts';

// The clients section's failure notices, with the texts of spec section 8. Statuses above 499
// go to the generic handler (a 500 opens /service-down), so these failures are 4xx answers.

test('New Client refused by the server says so and keeps the dialog open', async ({ page }) => {
  await signUp(page, uniqueEmail('clientfail'), 'clientfail-password-1');
  await expect(page.getByLabel('Client (0)')).toBeVisible();
  // The name reaches the server one character longer than it takes: a real 400.
  await page.route('**/api/app/clients', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    return route.continue({ postData: JSON.stringify({ name: 'n'.repeat(201) }) });
  });
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('acme');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'Unable to create client: ' });
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('200 characters');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Client name')).toHaveValue('acme');
  await expect(page.getByLabel('Client (0)')).toBeVisible();
  await expect(page).toHaveURL(/\/campaign-builder$/);

  // The same name goes through once the server takes it.
  await page.unroute('**/api/app/clients');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Client (1)')).toHaveValue('acme');
});

test('Delete Client of a client already deleted elsewhere says so', async ({ page, context }) => {
  await startWithClient(page, 'deletefail');
  const other = await context.newPage();
  await other.goto('/campaign-builder');
  await expect(other.getByLabel('Client (1)')).toHaveValue('deletefail client');
  await other.getByRole('button', { name: 'Delete Client' }).click();
  await other
    .getByRole('dialog', { name: 'Delete Client' })
    .getByRole('button', { name: 'Delete Client' })
    .click();
  await expect(other.getByLabel('Client (0)')).toHaveValue('');
  await other.close();
  await page.bringToFront();

  await page.getByRole('button', { name: 'Delete Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Client' });
  await dialog.getByRole('button', { name: 'Delete Client' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to delete client: Client not found' }),
  ).toHaveCount(1);
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'successfully deleted' })).toHaveCount(0);
});

test('clients and lists that cannot be loaded say so with the builder texts', async ({ page }) => {
  await signUp(page, uniqueEmail('fetchfail'), 'fetchfail-password-1');
  const refuse = { status: 429, json: { error: { code: 'rate_limited', message: 'Slow down' } } };
  await page.route('**/api/app/clients', (route) =>
    route.request().method() === 'GET' ? route.fulfill(refuse) : route.continue(),
  );
  await page.route('**/api/app/lists', (route) =>
    route.request().method() === 'GET' ? route.fulfill(refuse) : route.continue(),
  );
  await page.reload();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to fetch clients: Slow down' }),
  ).toHaveCount(1);
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unable to fetch feeds: Slow down' }),
  ).toHaveCount(1);
  await expect(page).toHaveURL(/\/campaign-builder$/);
});

test('a clients list answered after New Client made a client leaves that client and its work as they are', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('latelist'), 'latelist-password-1');
  // The builder's first clients list (sent as the page opens) is answered only after New Client
  // has made a client, as a busy server can answer it.
  let created = (): void => undefined;
  const isCreated = new Promise<void>((resolve) => (created = resolve));
  await page.route('**/api/app/clients', async (route) => {
    if (route.request().method() !== 'GET') {
      const answer = await route.fetch();
      await route.fulfill({ response: answer });
      created();
      return;
    }
    await isCreated;
    await route.continue();
  });
  const lateList = page.waitForResponse(
    (r) => r.url().endsWith('/api/app/clients') && r.request().method() === 'GET',
  );
  await page.reload();
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('latelist client');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
  await cell(page, 'Root', 1).fill('Nike');
  await page.getByRole('button', { name: 'New Template' }).click();
  const template = page.getByRole('dialog', { name: 'New Template' });
  await template.getByLabel('Template name').fill('Shoes');
  await template.getByRole('button', { name: 'Add New' }).click();
  await expect(template).toHaveCount(0);
  await expect(page.getByLabel('Campaign template')).toHaveValue('Shoes');

  // The late list neither opens the client again nor hides it: the row and the template stay,
  // and nothing offers to restore them.
  await lateList;
  await expect(page.getByLabel('Client (1)')).toHaveValue('latelist client');
  await expect(cell(page, 'Root', 1)).toHaveValue('Nike');
  await expect(page.getByLabel('Campaign template')).toHaveValue('Shoes');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
