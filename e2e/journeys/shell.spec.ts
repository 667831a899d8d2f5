import { expect, test, uniqueEmail } from '../fixtures.ts';
import { MADE_UP_USER, signUp, storeSession } from './support.ts';

const SCREENS = process.env.SCREENS_OUT;

test('guides open the help wheel, a feature panel, back, and close', async ({ page }) => {
  await signUp(page, uniqueEmail('guides'), 'guides-password-1');
  await page.getByRole('button', { name: 'Guides' }).click();
  const dialog = page.getByRole('dialog', { name: 'Guides' });
  await expect(dialog.getByText('Not sure how to use a specific part of Adloom?')).toBeVisible();
  const topics = dialog.getByRole('list', { name: 'Help topics' }).getByRole('button');
  await expect(topics).toHaveCount(9);

  await dialog.getByRole('button', { name: 'Geo Feeds' }).click();
  const panel = page.getByRole('dialog', { name: 'Geo Feeds' });
  // No help video is configured: the guide's written walkthrough shows, with its screenshot.
  await expect(
    panel.getByRole('img', { name: 'The New Geo Feed dialog with its fields' }),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('dialog', { name: 'Guides' })).toBeVisible();

  await page.getByRole('button', { name: 'Close guides' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('feedback needs 10 characters, then thanks the person', async ({ page }) => {
  await signUp(page, uniqueEmail('feedback'), 'feedback-password-1');
  await page.getByRole('button', { name: 'Feedback' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Feedback' });
  await dialog.getByText('Idea', { exact: true }).click();
  await expect(dialog.getByRole('radio', { name: 'Idea' })).toBeChecked();
  // Send waits for 10 characters (spaces around do not count), at either width.
  const send = dialog.getByRole('button', { name: 'Send Feedback' });
  await expect(send).toBeDisabled();
  await dialog.getByLabel('Message').fill('  too short  ');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(send).toBeDisabled();
    await expect(dialog.getByText('At least 10 characters (1 more)')).toBeVisible();
    if (SCREENS) await page.screenshot({ path: `${SCREENS}/feedback-${width}.png` });
  }
  await dialog.getByLabel('Message').fill('long enough');
  await expect(send).toBeEnabled();
  await expect(dialog.getByText('At least 10 characters', { exact: true })).toBeVisible();

  await dialog.getByLabel('Message').fill('Please add a dark mode to the campaign builder.');
  await dialog.getByRole('button', { name: 'Send Feedback' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Thank you for your feedback!' }),
  ).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Send Feedback' })).toHaveCount(0);
});

test('a stored token the server rejects ends the session with the 401 message', async ({
  page,
}) => {
  await storeSession(page, {
    token: 'not-a-real-token',
    expiresAt: Date.now() + 3_600_000,
    user: MADE_UP_USER,
  });
  await page.goto('/account');
  // The notice shows for 5 seconds: look for it first, then where the page went.
  await expect(
    page.getByRole('alert').filter({ hasText: 'Unauthorized. Please log in to continue' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('adloom.token'))).toBeNull();
});

test('Escape closes the navigation drawer on a phone and leaves the sidebar on a laptop', async ({
  page,
}) => {
  await signUp(page, uniqueEmail('drawer'), 'drawer-password-1');
  const logOut = page.getByRole('button', { name: 'Log Out' });
  // A laptop: the sidebar is always there; Escape changes nothing.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(logOut).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(logOut).toBeInViewport();
  // A phone: the burger opens the drawer, Escape closes it and the focus is back on the burger.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(logOut).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await expect(logOut).toBeInViewport();
  await page.keyboard.press('Escape');
  await expect(logOut).not.toBeInViewport();
  await expect(page.getByRole('button', { name: 'Open navigation' })).toBeFocused();
  // A dialog opened from the drawer takes the first Escape; the drawer stays open behind it.
  await page.getByRole('button', { name: 'Open navigation' }).click();
  await page.getByRole('button', { name: 'Feedback' }).click();
  await expect(page.getByRole('dialog', { name: 'Send Feedback' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Send Feedback' })).toBeHidden();
  await expect(logOut).toBeInViewport();
});
