import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type AdminFeedbackPage, type AdminSettings } from '@adloom/contract';
import { readAdminEmails } from '../src/config.ts';
import { CSV_BATCH_ROWS } from '../src/services/admin.ts';
import { TEST_PASSWORD, startTestApp, type TestApp } from './helpers.ts';

// Issue 38, an operator's view: the Admin calls answer operators only (a verified address named
// by ADMIN_EMAILS), 404 as for no route to everyone else signed in; entries newest first,
// searchable, paged and as CSV with formulas neutralised; counts; settings without a secret.

const ADMIN_ROUTES = [
  API.admin.feedback,
  API.admin.feedbackCsv,
  API.admin.waitingList,
  API.admin.waitingListCsv,
  API.admin.counts,
  API.admin.settings,
];

const OPERATOR = 'ops@example.com';
const PENDING_OPERATOR = 'pending-ops@example.com';

const feedbackRow = (n: number) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
});

/** The answer a path no route answers gets, for comparison. */
async function unknownRouteAnswer(t: TestApp, path: string, token: string) {
  const probe = `${path}-no-such-route`;
  const answer = await t.request('GET', probe, { token });
  expect(answer.status).toBe(404);
  return JSON.parse(JSON.stringify(answer.body).replaceAll(probe, path));
}

describe('the Admin calls answer operators only', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Written as an operator would, in any case and with spaces: compared like users' emails.
    t = await startTestApp({
      adminEmails: readAdminEmails({ ADMIN_EMAILS: ` Ops@Example.com ,${PENDING_OPERATOR}` }),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 401 when signed out', async () => {
    for (const path of ADMIN_ROUTES) {
      const response = await t.request('GET', path);
      expect([path, response.status, response.body.error.code]).toEqual([
        path,
        401,
        'unauthorized',
      ]);
    }
  });

  it('answers an ordinary user, verified or not, exactly as a path without a route', async () => {
    const ordinary = await t.signUp(undefined, { verified: true });
    for (const path of ADMIN_ROUTES) {
      const response = await t.request('GET', path, { token: ordinary.token });
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body).toEqual(await unknownRouteAnswer(t, path, ordinary.token));
    }
    const me = await t.request('GET', API.users.me, { token: ordinary.token });
    expect(me.body.user).not.toHaveProperty('isAdmin');
  });

  it('answers an operator address that is not verified 404, and 200 once it is', async () => {
    const pending = await t.signUp(PENDING_OPERATOR.toUpperCase());
    for (const path of ADMIN_ROUTES) {
      const response = await t.request('GET', `${path}?q=x`, { token: pending.token });
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body).toEqual(await unknownRouteAnswer(t, path, pending.token));
    }
    expect(
      (await t.request('GET', API.users.me, { token: pending.token })).body.user,
    ).not.toHaveProperty('isAdmin');

    await t.verifyEmail(PENDING_OPERATOR.toUpperCase());
    for (const path of ADMIN_ROUTES) {
      const response = await t.request('GET', path, { token: pending.token });
      expect([path, response.status]).toEqual([path, 200]);
    }
    expect((await t.request('GET', API.users.me, { token: pending.token })).body.user.isAdmin).toBe(
      true,
    );
  });

  it('answers a verified operator, and stops when the operator changes to another address', async () => {
    const operator = await t.signUp(OPERATOR, { verified: true });
    expect(operator.user.isAdmin).toBe(true);
    for (const path of ADMIN_ROUTES) {
      const response = await t.request('GET', path, { token: operator.token });
      expect([path, response.status]).toEqual([path, 200]);
    }
    const changed = await t.request('POST', API.users.changeEmail, {
      token: operator.token,
      body: { email: 'elsewhere@example.com', password: operator.password },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.user).not.toHaveProperty('isAdmin');
    const response = await t.request('GET', API.admin.counts, { token: operator.token });
    expect(response.status).toBe(404);
  });
});

describe('feedback and waiting-list entries', () => {
  let t: TestApp;
  let operator: string;
  let alice: { token: string; email: string };
  beforeAll(async () => {
    t = await startTestApp({ adminEmails: [OPERATOR] });
    ({ token: operator } = await t.signUp(OPERATOR, { verified: true }));
    alice = await t.signUp('alice@shop.example');
    const bob = await t.signUp('bob@agency.example');
    const send = (token: string, type: string, message: string) =>
      t.request('POST', API.feedback, { token, body: { type, message } });
    expect((await send(alice.token, 'Issue', 'The grid froze on paste')).status).toBe(200);
    expect((await send(bob.token, 'Idea', 'Please add 100% more export formats')).status).toBe(200);
    expect(
      (await send(alice.token, 'Other', '=HYPERLINK("http://x.example","click")')).status,
    ).toBe(200);
    for (const email of ['first@wait.example', 'Second@Wait.example', 'third@else.example'])
      expect((await t.request('POST', API.app.waitingList, { body: { email } })).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const page = async (path: string, query: string) => {
    const response = await t.request('GET', `${path}${query}`, { token: operator });
    expect(response.status).toBe(200);
    return response.body;
  };

  it('lists feedback from every user, newest first, with who sent it', async () => {
    const body: AdminFeedbackPage = await page(API.admin.feedback, '');
    expect(body.entries.map((e) => [e.email, e.type, e.message])).toEqual([
      ['alice@shop.example', 'Other', '=HYPERLINK("http://x.example","click")'],
      ['bob@agency.example', 'Idea', 'Please add 100% more export formats'],
      ['alice@shop.example', 'Issue', 'The grid froze on paste'],
    ]);
    expect(body.total).toBe(3);
    expect(body.nextCursor).toBeNull();
    const times = body.entries.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('searches the email, the message and the type, in any case, % and _ taken literally', async () => {
    const emails = async (q: string) =>
      (
        (await page(API.admin.feedback, `?q=${encodeURIComponent(q)}`)) as AdminFeedbackPage
      ).entries.map((e) => e.message);
    expect(await emails('AGENCY')).toEqual(['Please add 100% more export formats']);
    expect(await emails('froze')).toEqual(['The grid froze on paste']);
    expect(await emails('idea')).toEqual(['Please add 100% more export formats']);
    expect(await emails('100%')).toEqual(['Please add 100% more export formats']);
    expect(await emails('%')).toEqual(['Please add 100% more export formats']);
    expect(await emails('_')).toEqual([]);
    const total = (await page(API.admin.feedback, '?q=alice')).total;
    expect(total).toBe(2);
  });

  it('searches and lists the waiting list newest first', async () => {
    const all = await page(API.admin.waitingList, '');
    expect(all.entries.map((e: { email: string }) => e.email)).toEqual([
      'third@else.example',
      'second@wait.example',
      'first@wait.example',
    ]);
    const found = await page(API.admin.waitingList, '?q=WAIT.example');
    expect(found.entries.map((e: { email: string }) => e.email)).toEqual([
      'second@wait.example',
      'first@wait.example',
    ]);
    expect(found.total).toBe(2);
  });

  it('refuses a bad page size or cursor with 400 naming the field', async () => {
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=not-a-cursor', 'cursor'],
      [
        `?cursor=${Buffer.from('["2024-01-01T00:00:00.000000Z","x"]').toString('base64url')}`,
        'cursor',
      ],
      [`?q=${'x'.repeat(201)}`, 'q'],
    ] as const) {
      const response = await t.request('GET', `${API.admin.feedback}${query}`, { token: operator });
      expect([query, response.status, response.body.error.code]).toEqual([
        query,
        400,
        'validation_failed',
      ]);
      expect(response.body.errors.map((e: { path: string }) => e.path)).toEqual([field]);
    }
  });

  it('CSV: every matching entry, newest first, formulas neutralised', async () => {
    const response = await t.request('GET', `${API.admin.feedbackCsv}?q=alice`, {
      token: operator,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="adloom-feedback-\d{8}\.csv"$/,
    );
    const lines = (response.body as string).split('\r\n');
    expect(lines[0]).toBe('\uFEFFDate (UTC),Email,Type,Message');
    expect(lines.slice(1).map((line) => line.replace(/^[^,]+,/, ''))).toEqual([
      `alice@shop.example,Other,"'=HYPERLINK(""http://x.example"",""click"")"`,
      'alice@shop.example,Issue,The grid froze on paste',
      '',
    ]);
    const waiting = await t.request('GET', `${API.admin.waitingListCsv}?q=else`, {
      token: operator,
    });
    expect(waiting.status).toBe(200);
    expect(waiting.headers['content-disposition']).toMatch(/adloom-waiting-list-\d{8}\.csv/);
    expect(
      (waiting.body as string)
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[1]),
    ).toEqual(['third@else.example', undefined]);
  });
});

describe('pages and CSV of a large table', () => {
  let t: TestApp;
  let operator: string;
  /** Rows beyond two CSV batches, many sharing one time (the id breaks the tie). */
  const ROWS = CSV_BATCH_ROWS * 2 + 37;
  beforeAll(async () => {
    t = await startTestApp({ adminEmails: [OPERATOR] });
    ({ token: operator } = await t.signUp(OPERATOR, { verified: true }));
    const sender = await t.signUp('sender@example.com');
    await t.db.query(
      `insert into feedback (id, user_id, email, type, message, created_at)
       select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, $1, 'sender@example.com',
              'Issue', 'Message ' || n,
              timestamptz '2025-01-01 00:00:00.123456+00' + ((n / 10) * interval '1 microsecond')
       from generate_series(1, $2::int) as n`,
      [sender.user._id, ROWS],
    );
  });
  afterAll(async () => {
    await t.close();
  });

  /** The ids in the order the database must give them: time, then id, both descending. */
  const expectedIds = () =>
    Array.from({ length: ROWS }, (_, i) => i + 1)
      .sort((a, b) => Math.floor(b / 10) - Math.floor(a / 10) || b - a)
      .map((n) => feedbackRow(n).id);

  it('pages through every entry once, in order, with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=200${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await t.request('GET', `${API.admin.feedback}${query}`, { token: operator });
      expect(response.status).toBe(200);
      const body = response.body as AdminFeedbackPage;
      expect(body.total).toBe(ROWS);
      expect(body.entries.length).toBeLessThanOrEqual(200);
      seen.push(...body.entries.map((e) => e.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(Math.ceil(ROWS / 200));
    expect(seen).toEqual(expectedIds());
  });

  it('writes every entry to the CSV once, in the same order, across its batches', async () => {
    const response = await t.request('GET', API.admin.feedbackCsv, { token: operator });
    expect(response.status).toBe(200);
    const messages = (response.body as string)
      .split('\r\n')
      .slice(1, -1)
      .map((line) => line.split(',')[3]);
    expect(messages).toEqual(expectedIds().map((id) => `Message ${Number(id.slice(-12))}`));
  });
});

describe('counts and settings', () => {
  it('counts users, verified users, clients, feeds, lists, feedback and the waiting list', async () => {
    const t = await startTestApp({ adminEmails: [OPERATOR] });
    try {
      const { token: operator } = await t.signUp(OPERATOR, { verified: true });
      const alice = await t.signUp();
      await t.signUp();
      const row = (root: string) => ({
        id: `id-${root}`,
        root,
        mod: '',
        var1: '',
        var2: '',
        var3: '',
        url: '',
      });
      for (const name of ['Acme', 'Globex'])
        expect(
          (await t.request('POST', API.app.clients, { token: alice.token, body: { name } })).status,
        ).toBe(200);
      const feeds = await t.request('POST', API.app.feeds, {
        token: alice.token,
        body: {
          name: 'Acme',
          feeds: [
            { name: 'a', rows: [row('x')] },
            { name: 'b', rows: [] },
          ],
        },
      });
      expect(feeds.status).toBe(200);
      const lists = await t.request('POST', API.app.lists, {
        token: alice.token,
        body: { feeds: [{ name: 'colours', dataType: 'list', rows: [row('red')] }] },
      });
      expect(lists.status).toBe(200);
      await t.request('POST', API.feedback, {
        token: alice.token,
        body: { type: 'Idea', message: 'More counts please' },
      });
      await t.request('POST', API.app.waitingList, { body: { email: 'w@example.com' } });
      const counts = await t.request('GET', API.admin.counts, { token: operator });
      expect(counts.body).toEqual({
        users: 3,
        verifiedUsers: 1,
        clients: 2,
        feeds: 2,
        lists: 1,
        feedback: 1,
        waitingList: 1,
      });
    } finally {
      await t.close();
    }
  });

  it('says what each feature has configured, with no secret anywhere in the answer', async () => {
    const secrets = {
      jwt: 'jwt-secret-Qw7zP2m_Lr5Tn8Vb1Yc4Hd6Fg0Se',
      tokenKey: 'token-key-Zt4-Wq9rLm2xVb7nKc5pHs8dJf3gYe',
      google: 'google-client-secret-9f8e7d',
      ai: 'sk-ai-api-key-5a4b3c2d1e',
      recaptcha: 'recaptcha-secret-1q2w3e',
      smtpUser: 'smtp-user-x1y2',
      smtpPassword: 'smtp-pass-z9y8',
      dbUser: 'db-user-k3l4',
      dbPassword: 'db-pass-m5n6',
    };
    // The operator signs up and verifies on a plain server (this one's bot check and SMTP server
    // are not there), then signs in on the configured one, on the same database.
    const plain = await startTestApp({ adminEmails: [OPERATOR] });
    await plain.signUp(OPERATOR, { verified: true });
    await plain.app.close();
    const t = await startTestApp(
      {
        adminEmails: [OPERATOR],
        jwtSecret: secrets.jwt,
        tokenEncryptionKey: secrets.tokenKey,
        smtpUrl: `smtp://${secrets.smtpUser}:${secrets.smtpPassword}@mail.example.com:587`,
        databaseUrl: `postgres://${secrets.dbUser}:${secrets.dbPassword}@db.example.com:5432/adloom`,
        google: {
          clientId: 'client-id.apps.example',
          clientSecret: secrets.google,
          authUrl: 'https://accounts.example/auth',
          tokenUrl: 'https://oauth.example/token',
          revokeUrl: 'https://oauth.example/revoke',
          sheetsUrl: 'https://sheets.example',
          retryBaseMs: 0,
        },
        ai: {
          model: {
            baseUrl: 'https://ai.example/v1',
            apiKey: secrets.ai,
            model: 'gpt-4.1-mini',
          },
          helperEmailDomain: 'agency.example',
          timeoutMs: 1000,
          maxTokens: 100,
        },
        recaptchaVerifyUrl: 'https://captcha.example/verify',
        recaptchaSecret: secrets.recaptcha,
        recaptchaSiteKey: 'site-key-public',
        tagManager: { enabled: true, id: 'GTM-ABC1234', scriptUrl: 'https://gtm.example/gtm.js' },
      },
      { db: plain.db },
    );
    try {
      const login = await t.request('POST', API.users.login, {
        body: { email: OPERATOR, password: TEST_PASSWORD },
      });
      expect(login.status).toBe(200);
      const token = login.body.token as string;
      const response = await t.request('GET', API.admin.settings, { token });
      expect(response.status).toBe(200);
      const text = JSON.stringify(response.body);
      for (const [name, secret] of Object.entries(secrets))
        expect([name, text.includes(secret)]).toEqual([name, false]);
      const body = response.body as AdminSettings;
      const feature = (id: string) => body.features.find((f) => f.id === id);
      const value = (id: string, label: string) =>
        feature(id)?.details.find((d) => d.label === label)?.value;
      for (const id of ['smtp', 'google', 'ai', 'bot-check', 'tag-manager'])
        expect([id, feature(id)?.configured]).toEqual([id, true]);
      expect(value('ai', 'AI_MODEL')).toBe('gpt-4.1-mini');
      expect(value('server', 'APP_URL')).toBe('http://adloom.test');
      expect(value('smtp', 'Server')).toBe('mail.example.com:587');
      expect(value('database', 'Server')).toBe('db.example.com:5432/adloom');
      expect(value('tag-manager', 'GTM_ID')).toBe('GTM-ABC1234');
      expect([feature('xml')?.configured, feature('geo')?.configured]).toEqual([false, false]);
    } finally {
      await t.close();
    }
  });

  it('says a feature that is not set up is not configured', async () => {
    const t = await startTestApp({ adminEmails: [OPERATOR] });
    try {
      const { token } = await t.signUp(OPERATOR, { verified: true });
      const body = (await t.request('GET', API.admin.settings, { token })).body as AdminSettings;
      const configured = Object.fromEntries(body.features.map((f) => [f.id, f.configured]));
      expect(configured).toEqual({
        server: true,
        database: true,
        smtp: false,
        google: false,
        ai: false,
        xml: false,
        geo: false,
        'bot-check': false,
        'tag-manager': false,
        media: false,
      });
      expect(body.features.find((f) => f.id === 'database')?.details[0]?.value).toBe(
        t.db.kind === 'postgres' ? 'PostgreSQL' : 'Embedded (PGlite)',
      );
    } finally {
      await t.close();
    }
  });
});
