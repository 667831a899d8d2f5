import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, GOOGLE_SHEETS_INTEGRATION, type StoredFeed } from '@adloom/contract';
import { createMemoryDraftStorage } from '../../state/revisionedSet/index.ts';
import { notifications } from '../../state/notifications.ts';
import { setNavigator } from '../../state/navigation.ts';
import { session } from '../../state/session.ts';
import { testSession } from '../../state/testSession.ts';
import { FeedSetEditor } from '../builder/feedSetEditor.ts';
import { storedFeed } from '../builder/testFeeds.ts';
import { FeedSheets } from './feedSheets.ts';
import { json } from '../../api/testResponses.ts';

const SHEET_URL =
  'https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789/edit';

function linkedFeed(name: string, dataType: 'table' | 'list', roots: string[]): StoredFeed {
  return storedFeed(name, roots, {
    _id: `${name}-id`,
    dataType,
    sheetUrl: SHEET_URL,
    sheetName: 'Shop sheet',
  });
}

/** What the server answers a sheet call with (a thrown error: no answer came). */
let answerSheetCall: (path: string) => Response;
let navigatedTo: string[];

beforeEach(() => {
  navigatedTo = [];
  setNavigator((to) => navigatedTo.push(to));
  session.signIn({
    ...testSession('tok-sheets'),
    user: { ...testSession('tok-sheets').user, integrations: [GOOGLE_SHEETS_INTEGRATION] },
  });
  vi.stubGlobal('fetch', async (url: RequestInfo | URL) => {
    const path = String(url);
    if (path.startsWith(API.google.progress)) return json(404, {});
    return answerSheetCall(path);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut('logout');
  notifications.clear();
});

/** A client's feeds with one linked data table and one linked list, and their sheet side. */
async function setup() {
  const editor = new FeedSetEditor({
    drafts: createMemoryDraftStorage(),
    notify: () => {},
    onUnauthorized: () => {},
  });
  await editor.open(
    {
      key: 'u1|client|Shop',
      name: 'Shop',
      savedMessage: 'saved',
      save: (feeds, revision) => Promise.resolve({ feeds, revision: (revision ?? 0) + 1 }),
      load: () => Promise.resolve({ feeds: [], revision: 1 }),
    },
    {
      feeds: [
        linkedFeed('brands', 'table', ['nike', 'puma']),
        linkedFeed('colours', 'list', ['red']),
      ],
      revision: 1,
    },
    { activeFeed: null },
  );
  const sheets = new FeedSheets(editor);
  return { editor, sheets };
}

/** The toasts as a person reads them: kind, words, the HTTP status when shown, the link. */
function toasts(): string[] {
  return notifications
    .get()
    .notifications.map(
      (n) =>
        `${n.type}: ${n.message}` +
        (n.status === undefined ? '' : ` (HTTP ${n.status})`) +
        (n.action ? ` [${n.action.label} -> ${n.action.to}]` : ''),
    );
}

const roots = (editor: FeedSetEditor, name: string) =>
  editor.getFeedRows(name).map((row) => row.root);

describe('Download Data failures (spec section 8: sheet download)', () => {
  it.each([
    [
      'a 400 (headers)',
      () => json(400, { error: { code: 'sheet_headers', message: 'server text' } }),
      "error: Couldn't fetch sheet data. Check headers and try again (HTTP 400)",
    ],
    [
      'a 401 (no Google account linked)',
      () => json(401, { error: { code: 'not_linked', message: 'server text' } }),
      "error: No Google account linked. Go to 'Account' to link one (HTTP 401) [Go to Account -> /account]",
    ],
    [
      'a 404 (no such sheet)',
      () => json(404, { error: { code: 'sheet_not_found', message: 'server text' } }),
      'error: Sheet URL seems to be invalid. Please check that the sheet exists and try again (HTTP 404)',
    ],
    [
      'another status with no sentence of the server',
      () => new Response('teapot', { status: 418 }),
      'error: Whoops. Something went wrong (HTTP 418)',
    ],
    [
      "another status, with the server's sentence",
      () =>
        json(429, {
          error: {
            code: 'quota_exhausted',
            message:
              'Google Sheets is refusing more requests for now (quota reached). Wait a minute and try again',
          },
        }),
      'error: Whoops. Something went wrong. Google Sheets is refusing more requests for now (quota reached). Wait a minute and try again (HTTP 429)',
    ],
    [
      'a failure above 499',
      () =>
        json(502, { error: { code: 'upstream_failed', message: 'Whoops. Something went wrong' } }),
      'error: There seems to be a problem with the server. Please try again later 🛠️ (HTTP 502)',
    ],
    [
      'no answer (network down)',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'error: Could not reach the server. Check your connection and try again',
    ],
    [
      'an ended session',
      () => json(401, { error: { code: 'unauthorized', message: 'server text' } }),
      'error: Unauthorized. Please log in to continue 🔒 (HTTP 401)',
    ],
  ])('shows the words for %s and keeps the rows', async (_case, answer, toast) => {
    answerSheetCall = answer;
    const { editor, sheets } = await setup();
    expect(await sheets.download('brands')).toBe(false);
    expect(toasts()).toEqual([toast]);
    expect(roots(editor, 'brands')).toEqual(['nike', 'puma']);
    expect(navigatedTo).toEqual([]);
  });

  it("notes beside the feed why it shows its kept rows, in the toast's words", async () => {
    const { sheets } = await setup();
    answerSheetCall = () => {
      throw new TypeError('Failed to fetch');
    };
    await sheets.download('brands');
    expect(sheets.state.get().unreachable.brands).toEqual({
      message: 'Could not reach the server. Check your connection and try again',
    });
    answerSheetCall = () =>
      json(502, { error: { code: 'upstream_failed', message: 'Whoops. Something went wrong' } });
    await sheets.download('brands');
    expect(sheets.state.get().unreachable.brands).toEqual({
      message: 'There seems to be a problem with the server. Please try again later 🛠️',
    });
    answerSheetCall = () => json(400, { error: { code: 'sheet_headers', message: 'server text' } });
    await sheets.download('brands');
    expect(sheets.state.get().unreachable.brands).toMatchObject({
      message: "Couldn't fetch sheet data. Check headers and try again",
      hint: expect.stringContaining("The sheet's first row must hold headers, each unique"),
    });
  });

  it('goes to the service-down page on a 500, as every call does', async () => {
    answerSheetCall = () => json(500, { error: { code: 'internal_error', message: 'x' } });
    const { editor, sheets } = await setup();
    await sheets.download('colours');
    expect(navigatedTo).toEqual(['/service-down?service=server']);
    expect(toasts()).toEqual([]);
    expect(roots(editor, 'colours')).toEqual(['red']);
  });

  it('reads a linked list with the same words (the list download call)', async () => {
    let asked = '';
    answerSheetCall = (path) => {
      asked = path;
      return json(404, { error: { code: 'sheet_not_found', message: 'server text' } });
    };
    const { sheets } = await setup();
    await sheets.download('colours');
    expect(asked).toBe(API.google.downloadList);
    expect(toasts()).toEqual([
      'error: Sheet URL seems to be invalid. Please check that the sheet exists and try again (HTTP 404)',
    ]);
  });
});

describe('Upload Data (spec section 8: sheet upload)', () => {
  it.each([
    [
      'a 400 (the URL)',
      () => json(400, { error: { code: 'bad_request', message: 'server text' } }),
      'error: Sheet URL seems to be invalid. Please check that the sheet exists and try again (HTTP 400)',
    ],
    [
      'a 404 (no such sheet)',
      () => json(404, { error: { code: 'sheet_not_found', message: 'server text' } }),
      'error: Sheet URL seems to be invalid. Please check that the sheet exists and try again (HTTP 404)',
    ],
    [
      'no answer (network down)',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'error: Could not reach the server. Check your connection and try again',
    ],
  ])('shows the words for %s', async (_case, answer, toast) => {
    answerSheetCall = answer;
    const { sheets } = await setup();
    expect(await sheets.upload('brands')).toBe(false);
    expect(toasts()).toEqual([toast]);
  });

  it('says the feed was uploaded', async () => {
    answerSheetCall = () =>
      json(200, {
        message: 'uploaded',
        sheetName: 'Shop sheet',
        sheetSync: { at: '2026-12-07T09:00:00.000Z', direction: 'written', rows: 2 },
      });
    const { sheets } = await setup();
    expect(await sheets.upload('brands')).toBe(true);
    expect(toasts()).toEqual(['success: Feed successfully uploaded to Sheets']);
  });
});
