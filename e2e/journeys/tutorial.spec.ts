import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { expect, test as plainTest, uniqueEmail } from '../fixtures.ts';
import { findFreePort, startServer, type RunningServer } from '../support/server.ts';
import { logOutThroughUi, tutorialDialog } from './support.ts';

const SCREENS = process.env.SCREENS_OUT;
const DEFAULT_VIEWPORT = { width: 1280, height: 860 };

// Each journey walks several screens; a busy machine needs more than the default minute.
plainTest.setTimeout(240_000);

/** With SCREENS_OUT set, takes the page at 390 and 1440 px wide for a visual review. */
async function screens(page: Page, name: string): Promise<void> {
  if (!SCREENS) return;
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png` });
  }
  await page.setViewportSize(DEFAULT_VIEWPORT);
}

/** Registers through the register screen and lands in the builder, the tutorial still open. */
async function registerKeepingTutorial(page: Page, prefix: string): Promise<void> {
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Create an account' });
  await form.getByLabel('Email').fill(uniqueEmail(prefix));
  await form.getByLabel('Password', { exact: true }).fill(`${prefix}-password-1`);
  await form.getByLabel('Confirm Password').fill(`${prefix}-password-1`);
  await form.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/campaign-builder$/);
}

async function openAccount(page: Page): Promise<void> {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
}

async function openBuilder(page: Page): Promise<void> {
  await page.goto('/campaign-builder');
  await expect(page.getByRole('heading', { name: 'Campaign Builder', level: 1 })).toBeVisible();
  // Give the modal its moment: it would show with the page.
  await expect(page.getByRole('button', { name: 'New Client' })).toBeVisible();
}

/** Answers the tutorial call `path` and returns its status. */
async function answerOf(page: Page, path: string, act: () => Promise<void>): Promise<number> {
  const answer = page.waitForResponse((response) => response.url().endsWith(path));
  await act();
  return (await answer).status();
}

plainTest(
  'the tutorial shows once, stays closed after Done, is disabled and reset from the account page, and shows again',
  async ({ page }) => {
    await registerKeepingTutorial(page, 'tutorial');
    const tutorial = tutorialDialog(page);
    await expect(tutorial).toBeVisible();
    // No video configured: the intro guide's walkthrough, with its screenshot, and no frame.
    await expect(
      tutorial.getByRole('img', { name: /^The Campaign Builder with a client/ }),
    ).toBeVisible();
    await expect(tutorial.getByRole('listitem')).toHaveCount(4);
    await expect(tutorial.locator('iframe')).toHaveCount(0);
    await expect(tutorial.getByRole('checkbox', { name: 'No more tutorials' })).not.toBeChecked();
    await screens(page, 'tutorial');

    // Done marks the Intro step done: the tutorial does not come back.
    expect(
      await answerOf(page, '/api/users/set-tutorial-done-status', () =>
        tutorial.getByRole('button', { name: 'Done' }).click(),
      ),
    ).toBe(200);
    await expect(tutorial).toHaveCount(0);
    await page.reload();
    await openBuilder(page);
    await expect(tutorial).toHaveCount(0);

    // Reset Tutorials on the account page brings it back.
    await openAccount(page);
    expect(
      await answerOf(page, '/api/users/reset-tutorials', () =>
        page.getByRole('button', { name: 'Reset Tutorials' }).click(),
      ),
    ).toBe(200);
    await expect(
      page.getByRole('status').filter({ hasText: 'Tutorials have been reset' }),
    ).toBeVisible();
    await openBuilder(page);
    await expect(tutorial).toBeVisible();

    // 'No more tutorials' and X: the tutorials are disabled, and the account page says so.
    await tutorial.getByRole('checkbox', { name: 'No more tutorials' }).check();
    expect(
      await answerOf(page, '/api/users/toggle-tutorials', () =>
        tutorial.getByRole('button', { name: 'Close tutorial' }).click(),
      ),
    ).toBe(200);
    await expect(tutorial).toHaveCount(0);
    await openAccount(page);
    await expect(page.getByRole('checkbox', { name: 'Disable tutorials' })).toBeChecked();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Disable tutorials' })).toBeChecked();
    await openBuilder(page);
    await expect(tutorial).toHaveCount(0);

    // Reset turns them back on: the tutorial shows again, also after a reload.
    await openAccount(page);
    await page.getByRole('button', { name: 'Reset Tutorials' }).click();
    await expect(page.getByRole('checkbox', { name: 'Disable tutorials' })).not.toBeChecked();
    await openBuilder(page);
    await expect(tutorial).toBeVisible();
    await page.reload();
    await expect(tutorial).toBeVisible();

    // Disable tutorials on the account page keeps it away.
    await page.keyboard.press('Escape');
    await expect(tutorial).toHaveCount(0);
    await openAccount(page);
    await page.getByRole('button', { name: 'Reset Tutorials' }).click();
    await expect(page.getByRole('checkbox', { name: 'Disable tutorials' })).not.toBeChecked();
    expect(
      await answerOf(page, '/api/users/toggle-tutorials', () =>
        page.getByRole('checkbox', { name: 'Disable tutorials' }).check(),
      ),
    ).toBe(200);
    await openBuilder(page);
    await expect(tutorial).toHaveCount(0);
  },
);

plainTest(
  'without configuration the guides show walkthroughs with icons, and the landing page its poster and email form',
  async ({ page }) => {
    await page.goto('/');
    const booking = page.getByRole('region', { name: 'Book a free demo' });
    await expect(booking.getByRole('textbox', { name: /email/i })).toBeVisible();
    await expect(page.locator('iframe')).toHaveCount(0);
    await screens(page, 'landing');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/register$/);

    await registerKeepingTutorial(page, 'guides');
    await tutorialDialog(page).getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Guides' }).click();
    const wheel = page.getByRole('dialog', { name: 'Guides' });
    const topics = wheel.getByRole('list', { name: 'Help topics' }).getByRole('button');
    await expect(topics).toHaveCount(9);
    // Every topic shows an icon, no initials.
    await expect(wheel.getByRole('list', { name: 'Help topics' }).locator('svg')).toHaveCount(9);
    await expect(topics.first()).toHaveText('Intro to Adloom');
    await screens(page, 'guides');

    await wheel.getByRole('button', { name: 'Live Previews' }).click();
    const panel = page.getByRole('dialog', { name: 'Live Previews' });
    const picture = panel.getByRole('img', { name: /^The ad preview/ });
    await expect(picture).toBeVisible();
    // The screenshot is there and loads, not a broken image (which stays at 0); on a busy machine
    // it may still be loading when it shows.
    await expect
      .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(1200);
    await expect(panel.getByRole('listitem').first()).toContainText('Ad Preview');
    await expect(panel.locator('iframe')).toHaveCount(0);
    await screens(page, 'guide-walkthrough');
    await panel.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Close guides' }).click();
    await logOutThroughUi(page);
  },
);

/** A stand-in for the video player and the scheduling service: one small page on loopback. */
async function startFrameStandIn(): Promise<{ url: string; close(): Promise<void> }> {
  const port = await findFreePort();
  const server: Server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><body style="margin:0;display:grid;place-items:center;height:100vh;background:#223;color:#fff;font:16px sans-serif"><p>Stand-in frame ${request.url}</p></body>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A server started with help videos, a landing video and a booking widget on the stand-in. */
const configured = plainTest.extend<object, { framed: { server: RunningServer; frames: string } }>({
  framed: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const standIn = await startFrameStandIn();
      const server = await startServer({
        env: {
          HELP_VIDEO_URLS: JSON.stringify({
            intro: `${standIn.url}/intro`,
            'geo-feeds': `${standIn.url}/geo`,
          }),
          LANDING_VIDEO_URL: `${standIn.url}/landing`,
          DEMO_BOOKING_URL: `${standIn.url}/booking`,
        },
      });
      try {
        await use({ server, frames: standIn.url });
      } finally {
        await server.stop();
        await standIn.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ framed }, use) => use(framed.server.url),
});

configured(
  'configured videos and booking widget load in frames: landing, tutorial and guides',
  async ({ page, framed }) => {
    await page.goto('/');
    const video = page.getByTitle('Adloom intro video');
    await expect(video).toHaveAttribute('src', `${framed.frames}/landing`);
    // The page's policy lets the frame load: its content is there.
    await expect(
      page.frameLocator('iframe[title="Adloom intro video"]').getByText('Stand-in frame /landing'),
    ).toBeVisible();
    const booking = page.getByRole('region', { name: 'Book a free demo' });
    await expect(booking.getByRole('textbox', { name: /email/i })).toHaveCount(0);
    await booking.locator('iframe').scrollIntoViewIfNeeded();
    await expect(
      page
        .frameLocator('iframe[title="Book a free demo: scheduling"]')
        .getByText('Stand-in frame /booking'),
    ).toBeVisible();
    await screens(page, 'landing-configured');

    await registerKeepingTutorial(page, 'framed');
    const tutorial = tutorialDialog(page);
    await expect(tutorial.getByTitle('Intro to Adloom video')).toHaveAttribute(
      'src',
      `${framed.frames}/intro`,
    );
    await expect(tutorial.getByRole('img', { name: /^The Campaign Builder/ })).toHaveCount(0);
    await screens(page, 'tutorial-configured');
    await tutorial.getByRole('button', { name: 'Done' }).click();
    await expect(tutorial).toHaveCount(0);

    await page.getByRole('button', { name: 'Guides' }).click();
    await page
      .getByRole('dialog', { name: 'Guides' })
      .getByRole('button', { name: 'Geo Feeds' })
      .click();
    const panel = page.getByRole('dialog', { name: 'Geo Feeds' });
    await expect(
      page.frameLocator('iframe[title="Geo Feeds video"]').getByText('Stand-in frame /geo'),
    ).toBeVisible();
    // A guide without a configured video keeps its walkthrough.
    await panel.getByRole('button', { name: 'Back' }).click();
    await page
      .getByRole('dialog', { name: 'Guides' })
      .getByRole('button', { name: 'Data Table' })
      .click();
    await expect(
      page
        .getByRole('dialog', { name: 'Data Table' })
        .getByRole('img', { name: /^The data table/ }),
    ).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Data Table' }).locator('iframe')).toHaveCount(0);
  },
);
