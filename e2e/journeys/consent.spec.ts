import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import { startWithClient } from './support.ts';

const CONTAINER_ID = 'GTM-ADL00M1';

/**
 * A stand-in for Google's container host on loopback: `/gtm.js?id=…` answers a script that marks
 * the page, as Google's container is a script the page runs; every request is counted.
 */
async function startContainerStandIn(): Promise<{
  url: string;
  requests: string[];
  close(): Promise<void>;
}> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/javascript' });
    response.end('window.__containerRuns = (window.__containerRuns || 0) + 1;');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/gtm.js`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** A server with the tag manager configured against the stand-in. */
const withTagManager = test.extend<
  object,
  {
    tagged: {
      container: Awaited<ReturnType<typeof startContainerStandIn>>;
      server: RunningServer;
    };
  }
>({
  tagged: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const container = await startContainerStandIn();
      const server = await startServer({
        env: { GTM_ID: CONTAINER_ID, GTM_SCRIPT_URL: container.url },
      });
      try {
        await use({ container, server });
      } finally {
        await server.stop();
        await container.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ tagged }, use) => use(tagged.server.url),
});

function banner(page: Page) {
  return page.getByRole('region', { name: 'Analytics consent' });
}

/** What the page's data layer holds (Google's container reads it). */
function dataLayer(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    () => (window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [],
  );
}

test('without GTM_ID there is no banner and no container', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Third parties' })).toBeVisible();
  await expect(page.getByText('at least 30 days before the change applies')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change your analytics choice' })).toHaveCount(0);
  await expect(banner(page)).toHaveCount(0);
  expect(await dataLayer(page)).toEqual([]);
});

withTagManager(
  'the container loads only after consent, and the spec’s events reach its data layer',
  async ({ page, tagged }) => {
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await expect(banner(page).getByRole('link', { name: 'Privacy Policy' })).toBeVisible();

    // Declined: nothing loads, now or after a reload.
    await banner(page).getByRole('button', { name: 'No thanks' }).click();
    await expect(banner(page)).toHaveCount(0);
    await page.reload();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log In' }),
    ).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
    expect(tagged.container.requests).toEqual([]);

    // The Privacy page asks again; accepting loads the container once, as the policy allows.
    await page.goto('/privacy');
    await page.getByRole('button', { name: 'Change your analytics choice' }).click();
    await banner(page).getByRole('button', { name: 'Allow analytics' }).click();
    await expect(banner(page)).toHaveCount(0);
    await expect
      .poll(() => page.evaluate(() => (window as { __containerRuns?: number }).__containerRuns))
      .toBe(1);
    expect(tagged.container.requests).toEqual([`/gtm.js?id=${CONTAINER_ID}`]);
    expect((await dataLayer(page))[0]).toMatchObject({ event: 'gtm.js' });

    // A list saved from the save-list modal records a create-item event of type feed.
    await startWithClient(page, 'consent');
    await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => (window as { __containerRuns?: number }).__containerRuns))
      .toBe(1);
    const combiner = page.getByRole('region', { name: 'Combiner' });
    await combiner.getByRole('textbox', { name: 'Var 2' }).fill('london\nparis');
    await combiner.getByRole('button', { name: 'Save List: Var 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save List' });
    await dialog.getByLabel('List name').fill('cities');
    await dialog.getByRole('button', { name: 'Save List' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'List saved successfully' }),
    ).toBeVisible();
    expect(await dataLayer(page)).toContainEqual({ event: 'adloom.create-item', type: 'feed' });
  },
);
