import type { Page } from '@playwright/test';
import { API, GOOGLE_LINK_MESSAGES, SHEET_MESSAGES } from '@adloom/contract';
import { expect, test as plainTest, uniqueEmail } from '../fixtures.ts';
import { sheetCells, test, type GoogleStack } from '../support/google.ts';
import { cell, MOD, signUp } from './support.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
// Each test signs up its own person: they spread over the workers, so this long file (about 80 s)
// never runs last on one worker while the others wait.
test.describe.configure({ mode: 'parallel' });

/** The header row an upload writes (the CSV import's column names). */
const HEADER = ['root', 'mod', 'var1', 'var2', 'var3', 'url', 'status'];

function googleItem(page: Page) {
  return page.getByRole('region', { name: 'Integrations' });
}

async function openAccount(page: Page): Promise<void> {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
}

/** Links the signed-in user's Google account through the stand-in's consent page. */
async function linkGoogle(page: Page): Promise<void> {
  await openAccount(page);
  await googleItem(page).getByRole('button', { name: 'Link Google Sheets' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: GOOGLE_LINK_MESSAGES.linked }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
  await expect(googleItem(page).getByText('Linked', { exact: true })).toBeVisible();
}

/** Opens the builder and makes a client (its default feed 'brands' active). */
async function newClient(page: Page, prefix: string): Promise<void> {
  await page.goto('/campaign-builder');
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill(`${prefix} client`);
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByLabel('Feed', { exact: true })).toHaveValue('brands');
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
}

async function pasteRows(page: Page, rows: string[][]): Promise<void> {
  await cell(page, 'Root', 1).click();
  const text = rows.map((row) => row.join('\t')).join('\n');
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press(`${MOD}+V`);
  await expect(cell(page, 'Root', rows.length)).toHaveValue(rows[rows.length - 1]![0]!);
}

/** Fills and confirms Link New Sheet, keeping this feed's rows (upload) or the sheet's (download). */
async function linkSheet(page: Page, url: string, keep: 'upload' | 'download'): Promise<void> {
  await page.getByRole('button', { name: 'Link New Sheet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link New Sheet' });
  await expect(dialog.getByText(SHEET_MESSAGES.headersHint)).toBeVisible();
  const confirm = dialog.getByRole('button', { name: 'Link Sheet' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Sheet URL').fill('https://example.com/not-a-sheet');
  await dialog
    .getByRole('radio', { name: keep === 'upload' ? /upload them/ : /download them/ })
    .check();
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Sheet URL').fill(url);
  await expect(confirm).toBeEnabled();
  await confirm.click();
}

/** Registers, links Google, makes a client whose feed holds `rows` and links it by uploading. */
async function startWithLinkedFeed(
  page: Page,
  google: GoogleStack,
  prefix: string,
  rows: string[][],
): Promise<string> {
  await signUp(page, uniqueEmail(prefix), `${prefix}-password-1`, { open: false });
  await linkGoogle(page);
  await newClient(page, prefix);
  await pasteRows(page, rows);
  const spreadsheetId = google.standIn.addSpreadsheet({ title: `${prefix} products` });
  await linkSheet(page, google.standIn.sheetUrl(spreadsheetId), 'upload');
  await expect(
    page.getByRole('status').filter({ hasText: SHEET_MESSAGES.uploaded }).first(),
  ).toBeVisible();
  await expect(linkedSheet(page)).toBeVisible();
  // The link is saved after the upload's message: leaving before it is saved would (rightly)
  // offer the edits back on the next visit.
  await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  return spreadsheetId;
}

/**
 * Chooses another (saved) feed, then 'brands' again: a linked feed downloads when it is chosen.
 * Returns once that download has ended (its answer came and its line went, as a person waits
 * for): what it says comes then. Opening the builder downloads 'brands' too, and a failure
 * notice of that one may still show meanwhile with little of its 5 seconds left.
 */
async function chooseBrandsAgain(page: Page): Promise<void> {
  const feed = page.getByLabel('Feed', { exact: true });
  if ((await feed.locator('option[value="other"]').count()) === 0) {
    await page.getByRole('button', { name: 'New Feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Feed' });
    await dialog.getByLabel('Feed name').fill('other');
    await dialog.getByRole('button', { name: 'Add New' }).click();
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Save Feeds' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All changes saved' })).toBeVisible();
  } else {
    await feed.selectOption('other');
  }
  await expect(feed).toHaveValue('other');
  const downloaded = page.waitForResponse((response) =>
    response.url().endsWith(API.google.downloadData),
  );
  await feed.selectOption('brands');
  await downloaded;
  await expect(page.getByRole('status').filter({ hasText: 'Downloading from Sheets' })).toHaveCount(
    0,
  );
}

function linkedSheet(page: Page) {
  return page.getByRole('group', { name: 'Linked Sheet' });
}

function alertWith(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text }).first();
}

plainTest(
  'a server without the Google settings says so on the account page and offers no button',
  async ({ page }) => {
    await signUp(page, uniqueEmail('gnone'), 'gnone-password-1', { open: false });
    await openAccount(page);
    const item = googleItem(page);
    // In a customer's words at both widths: no operator's setting names.
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const notice = item.getByText('Google Sheets is not set up on this server');
      await expect(notice).toContainText('Ask the person who runs your Adloom to connect Google.');
      await expect(notice).not.toContainText('GOOGLE_CLIENT_ID');
      await expect(notice).toBeVisible();
    }
    await expect(item.getByRole('button')).toHaveCount(0);
    await page.goto('/campaign-builder');
    await expect(page.getByRole('button', { name: 'Link New Sheet' })).toHaveCount(0);
  },
);

test('linking the account goes through consent and back, and no token reaches the browser', async ({
  page,
  google,
}) => {
  const answers: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) {
      void response.text().then(
        (text) => answers.push(text),
        () => undefined,
      );
    }
  });
  await signUp(page, uniqueEmail('glink'), 'glink-password-1', { open: false });
  await openAccount(page);
  await expect(googleItem(page).getByText('Not linked', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Link New Sheet' })).toHaveCount(0);
  const before = google.standIn.requests.length;
  const tokensBefore = google.standIn.liveRefreshTokens();

  await linkGoogle(page);
  const consent = google.standIn.requests
    .slice(before)
    .find((request) => request.path.startsWith('/o/oauth2/v2/auth'));
  const query = new URL(consent!.path, google.standIn.url).searchParams;
  expect(query.get('redirect_uri')).toBe(`${google.server.url}/account`);
  expect(query.get('access_type')).toBe('offline');
  expect(query.get('code_challenge_method')).toBe('S256');
  expect(query.get('state')).toBeTruthy();
  const granted = google.standIn.liveRefreshTokens().filter((t) => !tokensBefore.includes(t));
  expect(granted).toHaveLength(1);

  // The link holds across a reload, and the builder offers Link New Sheet now.
  await page.reload();
  await expect(googleItem(page).getByText('Linked', { exact: true })).toBeVisible();
  await page.goto('/campaign-builder');
  await page.getByRole('button', { name: 'New Client' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Client' });
  await dialog.getByLabel('Client name').fill('glink client');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await expect(page.getByRole('button', { name: 'Link New Sheet' })).toBeVisible();

  expect(answers.length).toBeGreaterThan(0);
  for (const answer of answers) expect(answer).not.toContain(granted[0]);
});

test('a feed linked by uploading writes its rows as text, and chosen again shows the sheet', async ({
  page,
  google,
}) => {
  const rows = [
    ['00042', 'shoes'],
    ['=SUM(A1)', 'boots', '', '', '', 'https://a.test/2'],
  ];
  const spreadsheetId = await startWithLinkedFeed(page, google, 'gupload', rows);
  expect(sheetCells(google.standIn, spreadsheetId)).toEqual([HEADER, ...rows]);
  await expect(linkedSheet(page).getByRole('link', { name: 'gupload products' })).toBeVisible();
  await expect(page.getByLabel('Feed', { exact: true }).locator('option:checked')).toHaveText(
    /brands \(linked sheet\)/,
  );

  // Someone changes the sheet in Google Sheets.
  const tab = google.standIn.spreadsheet(spreadsheetId).tabs[0]!;
  tab.rows[1]![1] = 'sneakers';
  tab.rows.push(['sandals', 'summer']);

  await chooseBrandsAgain(page);
  await expect(cell(page, 'Modifier', 1)).toHaveValue('sneakers');
  await expect(cell(page, 'Root', 1)).toHaveValue('00042');
  await expect(cell(page, 'Root', 2)).toHaveValue('=SUM(A1)');
  await expect(cell(page, 'Root', 3)).toHaveValue('sandals');
  await expect(page.getByText(/Last read from the sheet/)).toContainText('3 rows');

  // The tokens the server used at Google never reached the browser's storage.
  const bearers = google.standIn.requests
    .map((request) => request.authorization)
    .filter((header): header is string => header !== undefined)
    .map((header) => header.replace('Bearer ', ''));
  expect(bearers.length).toBeGreaterThan(0);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  for (const token of bearers) expect(stored).not.toContain(token);
});

test("a linked list's downloaded rows append to a feed and fill a seed box", async ({
  page,
  google,
}) => {
  await signUp(page, uniqueEmail('glist'), 'glist-password-1', { open: false });
  await linkGoogle(page);
  await newClient(page, 'glist');
  const spreadsheetId = google.standIn.addSpreadsheet({
    title: 'Cities',
    tabs: [{ title: 'Towns', rows: [['Root'], ['london'], ['paris']] }],
  });

  await page.goto('/lists');
  await page.getByRole('tab', { name: 'Lists' }).click();
  await page.getByRole('button', { name: 'New List' }).click();
  const dialog = page.getByRole('dialog', { name: 'New List' });
  await dialog.getByLabel('List name').fill('cities');
  await dialog.getByRole('button', { name: 'Add New' }).click();
  await linkSheet(page, google.standIn.sheetUrl(spreadsheetId), 'download');
  await expect(cell(page, 'Root', 2)).toHaveValue('paris');
  await expect(linkedSheet(page)).toBeVisible();

  // The sheet changes; the list's rows come from it whenever the list is used.
  google.standIn.spreadsheet(spreadsheetId).tabs[0]!.rows = [
    ['root'],
    ['berlin'],
    ['rome'],
    ['oslo'],
  ];
  await page.goto('/campaign-builder');
  await page.getByLabel('List', { exact: true }).selectOption('cities');
  await expect(cell(page, 'Root', 3)).toHaveValue('oslo');
  await expect(cell(page, 'Root', 1)).toHaveValue('berlin');

  const combiner = page.getByRole('region', { name: 'Combiner' });
  await combiner.getByLabel('List for Root').selectOption('cities');
  await expect(combiner.getByRole('textbox', { name: 'Root' })).toHaveValue('berlin\nrome\noslo');
});

test('uploading over rows the feed does not hold asks first', async ({ page, google }) => {
  const spreadsheetId = await startWithLinkedFeed(page, google, 'greplace', [['nike'], ['puma']]);
  google.standIn.spreadsheet(spreadsheetId).tabs[0]!.rows.push(['reebok']);

  await page.getByRole('button', { name: 'Upload Data' }).click();
  const confirm = page.getByRole('dialog', { name: "Replace the sheet's rows?" });
  await expect(confirm).toContainText(SHEET_MESSAGES.otherRows(1));
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  expect(sheetCells(google.standIn, spreadsheetId)).toEqual([
    HEADER,
    ['nike'],
    ['puma'],
    ['reebok'],
  ]);

  await page.getByRole('button', { name: 'Upload Data' }).click();
  await confirm.getByRole('button', { name: 'Replace' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: SHEET_MESSAGES.uploaded }).first(),
  ).toBeVisible();
  // The link's own upload notice may still show: wait for the sheet itself.
  await expect
    .poll(() => sheetCells(google.standIn, spreadsheetId))
    .toEqual([HEADER, ['nike'], ['puma']]);
});

test('unlinking asks first, revokes the access at Google and hides the sheet actions', async ({
  page,
  google,
}) => {
  await signUp(page, uniqueEmail('gunlink'), 'gunlink-password-1', { open: false });
  const tokensBefore = google.standIn.liveRefreshTokens();
  await linkGoogle(page);
  const [token] = google.standIn.liveRefreshTokens().filter((t) => !tokensBefore.includes(t));

  await googleItem(page).getByRole('button', { name: 'Unlink Google Sheets' }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlink Google Sheets?' });
  await expect(dialog).toContainText('Your feeds keep their last rows.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(googleItem(page).getByText('Linked', { exact: true })).toBeVisible();
  expect(google.standIn.liveRefreshTokens()).toContain(token);

  await googleItem(page).getByRole('button', { name: 'Unlink Google Sheets' }).click();
  await dialog.getByRole('button', { name: 'Unlink', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: GOOGLE_LINK_MESSAGES.unlinked }),
  ).toBeVisible();
  await expect(googleItem(page).getByText('Not linked', { exact: true })).toBeVisible();
  await expect(googleItem(page).getByRole('button', { name: 'Link Google Sheets' })).toBeVisible();
  expect(google.standIn.liveRefreshTokens()).not.toContain(token);

  await newClient(page, 'gunlink');
  await expect(page.getByRole('button', { name: 'Link New Sheet' })).toHaveCount(0);
});

test.describe('failures reach the person as the spec words them', () => {
  test('a sheet without usable headers is refused and the feed keeps its rows', async ({
    page,
    google,
  }) => {
    await signUp(page, uniqueEmail('gheaders'), 'gheaders-password-1', { open: false });
    await linkGoogle(page);
    await newClient(page, 'gheaders');
    await pasteRows(page, [['keep me']]);
    const spreadsheetId = google.standIn.addSpreadsheet({
      tabs: [
        {
          rows: [
            ['price', 'stock'],
            ['1', '2'],
          ],
        },
      ],
    });
    await linkSheet(page, google.standIn.sheetUrl(spreadsheetId), 'download');
    await expect(alertWith(page, SHEET_MESSAGES.headers)).toBeVisible();
    await expect(cell(page, 'Root', 1)).toHaveValue('keep me');
    await expect(cell(page, 'Root', 2)).toHaveCount(0);
  });

  test('a sheet that does not exist is refused as an invalid URL', async ({ page, google }) => {
    await signUp(page, uniqueEmail('g404'), 'g404-password-1', { open: false });
    await linkGoogle(page);
    await newClient(page, 'g404');
    await pasteRows(page, [['nike']]);
    await linkSheet(page, google.standIn.sheetUrl('NoSuchSpreadsheet0123456789'), 'upload');
    await expect(alertWith(page, SHEET_MESSAGES.invalidSheet)).toBeVisible();
    await expect(linkedSheet(page)).toHaveCount(0);
  });

  test('a linked feed without a linked account says to go to Account', async ({ page, google }) => {
    await startWithLinkedFeed(page, google, 'gnolink', [['nike']]);
    await openAccount(page);
    await googleItem(page).getByRole('button', { name: 'Unlink Google Sheets' }).click();
    await page
      .getByRole('dialog', { name: 'Unlink Google Sheets?' })
      .getByRole('button', { name: 'Unlink', exact: true })
      .click();
    await expect(googleItem(page).getByText('Not linked', { exact: true })).toBeVisible();

    await page.goto('/campaign-builder');
    await chooseBrandsAgain(page);
    await expect(alertWith(page, SHEET_MESSAGES.notLinked)).toBeVisible();
    // The feed keeps the rows last written to the sheet.
    await expect(cell(page, 'Root', 1)).toHaveValue('nike');
    // The toast offers the way to the account page.
    await page
      .getByRole('alert')
      .filter({ hasText: SHEET_MESSAGES.notLinked })
      .getByRole('button', { name: 'Go to Account' })
      .first()
      .click();
    await expect(page).toHaveURL(/\/account$/);
  });

  test('access withdrawn at Google asks to link again, and linking again works', async ({
    page,
    google,
  }) => {
    await startWithLinkedFeed(page, google, 'grelink', [['nike']]);
    google.standIn.revokeAll();
    await page.getByRole('button', { name: 'Download Data' }).click();
    await expect(alertWith(page, SHEET_MESSAGES.relinkNeeded)).toBeVisible();
    await expect(cell(page, 'Root', 1)).toHaveValue('nike');

    await openAccount(page);
    await expect(googleItem(page).getByText('Needs linking again', { exact: true })).toBeVisible();
    await googleItem(page).getByRole('button', { name: 'Link again' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: GOOGLE_LINK_MESSAGES.linked }),
    ).toBeVisible();
    await expect(googleItem(page).getByText('Linked', { exact: true })).toBeVisible();
  });

  test('Google failing keeps the last rows with a note, and says the server has a problem (502)', async ({
    page,
    google,
  }) => {
    await startWithLinkedFeed(page, google, 'gwhoops', [['nike'], ['puma']]);
    google.standIn.failNext(1000, 503);
    try {
      await page.getByRole('button', { name: 'Download Data' }).click();
      const toast = alertWith(
        page,
        'There seems to be a problem with the server. Please try again later',
      );
      await expect(toast).toBeVisible();
      await expect(toast).toContainText('HTTP status 502');
    } finally {
      google.standIn.failNext(0, 0);
    }
    await expect(cell(page, 'Root', 2)).toHaveValue('puma');
    await expect(page.getByText(/the sheet could not be reached/)).toBeVisible();
  });

  test('a quota that stays exhausted is reported as such', async ({ page, google }) => {
    await startWithLinkedFeed(page, google, 'gquota', [['nike']]);
    google.standIn.quotaExhausted(true);
    try {
      await page.getByRole('button', { name: 'Upload Data' }).click();
      const toast = alertWith(page, `${SHEET_MESSAGES.whoops}. ${SHEET_MESSAGES.quota}`);
      await expect(toast).toBeVisible();
      await expect(toast).toContainText('HTTP status 429');
    } finally {
      google.standIn.quotaExhausted(false);
    }
    // A request Google answers once with 429 is retried and goes through.
    const uploaded = page.getByRole('status').filter({ hasText: SHEET_MESSAGES.uploaded });
    await expect(uploaded).toHaveCount(0);
    google.standIn.failNext(1, 429);
    await page.getByRole('button', { name: 'Upload Data' }).click();
    await expect(uploaded).toBeVisible();
  });
});
