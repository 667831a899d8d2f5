/**
 * Issue 37, finding 1: the tools an address grants (the AI helper, the XML tools) wait until the
 * address is verified through a mailed link. Sign-up still signs in; the link works once, for
 * EMAIL_VERIFICATION_TTL_HOURS, for its own account and address only; a new address waits again;
 * accounts from before the verification start unverified.
 */
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AI_HELPER_TOOL,
  API,
  ChangeEmailAnswerSchema,
  VERIFY_MESSAGES,
  XML_FEEDS_TOOL,
  verifyEmailPath,
} from '@adloom/contract';
import { DEFAULT_XML_FETCH_MAX_BYTES, type Config } from '../src/config.ts';
import { MIGRATIONS_DIR, listMigrations, runMigrations } from '../src/db/index.ts';
import { hashPassword } from '../src/services/passwords.ts';
import { startAiStandIn, type AiStandIn } from './ai-stand-in.ts';
import {
  TEST_PASSWORD,
  startTestApp,
  testConfig,
  type TestApp,
  openEmptyDatabase,
} from './helpers.ts';
import { VERIFY_SUBJECT, findVerifyLink, startMailbox, type Mailbox } from './mailbox.ts';

const AI_DOMAIN = 'helper-company.test';
const XML_MARKER = '+agency';
const VERIFICATION_MIGRATION = '0012_email_verification.sql';

/** An address that opens both tools. */
const toolEmail = () => `ann${XML_MARKER}-${randomUUID()}@${AI_DOMAIN}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let standIn: AiStandIn;
let mailbox: Mailbox;

function toolConfig(overrides: Partial<Config> = {}): Partial<Config> {
  return {
    smtpUrl: mailbox.url,
    ai: {
      model: {
        baseUrl: standIn.settings.AI_BASE_URL,
        apiKey: standIn.settings.AI_API_KEY,
        model: standIn.settings.AI_MODEL,
      },
      helperEmailDomain: AI_DOMAIN,
      timeoutMs: 5_000,
      maxTokens: 1000,
    },
    xmlFeeds: {
      emailMarker: XML_MARKER,
      maxBytes: DEFAULT_XML_FETCH_MAX_BYTES,
      connectTimeoutMs: 5_000,
      timeoutMs: 10_000,
      fetchesPerUser: 2,
      allowLoopback: false,
      isLoopbackSettingIgnored: false,
    },
    ...overrides,
  };
}

/** The token of the newest verification link mailed to `email`. */
async function newestLinkToken(t: TestApp, email: string, count = 1): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = mailbox.mails.filter(
      (mail) =>
        VERIFY_SUBJECT.test(mail.subject ?? '') &&
        mail.to !== undefined &&
        JSON.stringify(mail.to).toLowerCase().includes(email.toLowerCase()),
    );
    if (mails.length >= count)
      return findVerifyLink(mails.at(-1)?.text, t.config.appUrl).pathname.split('/').at(-1) ?? '';
    if (Date.now() > deadline)
      throw new Error(`fewer than ${count} verification mails to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const AI_BODY = { type: 'headlines', description: 'Handmade leather shoes', params: [] };

/** The AI helper's route, whole answer. */
const askAi = (t: TestApp, token: string) =>
  t.request('POST', API.ai.suggestions, {
    token,
    body: AI_BODY,
    headers: { accept: 'application/json' },
  });

/** The XML fetcher's route, on an address it refuses to fetch (no request leaves the server). */
const fetchXml = (t: TestApp, token: string) =>
  t.request('POST', API.app.fetchXml, { token, body: { url: 'http://10.0.0.1/feed.xml' } });

/** Both tools answer as usable: the AI helper suggests, the XML fetcher checks the feed's URL. */
async function expectToolsOpen(t: TestApp, token: string): Promise<void> {
  const ai = await askAi(t, token);
  expect(ai.status).toBe(200);
  expect(ai.body.suggestions.length).toBeGreaterThan(0);
  const xml = await fetchXml(t, token);
  expect(xml.status).toBe(400);
  expect(xml.body.error.code).toBe('url_refused');
}

/** Both tools refused with 403 email_unverified, and no model call made. */
async function expectToolsWaiting(t: TestApp, token: string): Promise<void> {
  const calls = standIn.requests.length;
  const ai = await askAi(t, token);
  expect(ai.status).toBe(403);
  expect(ai.body.error).toEqual({
    code: 'email_unverified',
    message: VERIFY_MESSAGES.toolWaits('the AI helper'),
    details: { tool: AI_HELPER_TOOL },
  });
  const xml = await fetchXml(t, token);
  expect(xml.status).toBe(403);
  expect(xml.body.error).toEqual({
    code: 'email_unverified',
    message: VERIFY_MESSAGES.toolWaits('the XML feed tools'),
    details: { tool: XML_FEEDS_TOOL },
  });
  expect(standIn.requests.length).toBe(calls);
}

beforeAll(async () => {
  standIn = await startAiStandIn();
  mailbox = await startMailbox();
});
afterAll(async () => {
  await standIn?.close();
  await mailbox?.close();
});

describe('address verification before the tools', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(toolConfig());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signs up and in, lists the tools as waiting and refuses them until the link is opened', async () => {
    const email = toolEmail();
    const { token, user } = await t.signUp(email);
    expect(user.emailVerified).toBe(false);
    expect(user).not.toHaveProperty('tools');
    expect(user.pendingTools).toEqual([XML_FEEDS_TOOL, AI_HELPER_TOOL]);
    const me = await t.request('GET', API.users.me, { token });
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ emailVerified: false, pendingTools: user.pendingTools });
    expect(me.body.user).not.toHaveProperty('tools');
    await expectToolsWaiting(t, token);

    const linkToken = await newestLinkToken(t, email);
    // Kept only as its sha256, like a reset token.
    const stored = await t.db.query<{ token_hash: string }>(
      'select token_hash from email_verification_tokens',
    );
    expect(stored.map((row) => row.token_hash)).toContain(sha256(linkToken));
    expect(stored.map((row) => row.token_hash)).not.toContain(linkToken);

    const verified = await t.request('POST', verifyEmailPath(linkToken));
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ type: 'success', message: VERIFY_MESSAGES.verified });

    const after = await t.request('GET', API.users.me, { token });
    expect(after.body.user.emailVerified).toBe(true);
    expect(after.body.user.tools).toEqual([XML_FEEDS_TOOL, AI_HELPER_TOOL]);
    expect(after.body.user).not.toHaveProperty('pendingTools');
    await expectToolsOpen(t, token);
    const login = await t.request('POST', API.users.login, {
      body: { email, password: TEST_PASSWORD },
    });
    expect(login.body.user.tools).toEqual([XML_FEEDS_TOOL, AI_HELPER_TOOL]);
  });

  it('an address that grants no tool is unverified too, with nothing waiting', async () => {
    const { user } = await t.signUp();
    expect(user.emailVerified).toBe(false);
    expect(user).not.toHaveProperty('tools');
    expect(user).not.toHaveProperty('pendingTools');
  });

  it('refuses a used link, and leaves the account as it was', async () => {
    const email = toolEmail();
    const { token } = await t.signUp(email);
    const linkToken = await newestLinkToken(t, email);
    expect((await t.request('POST', verifyEmailPath(linkToken))).status).toBe(200);
    const again = await t.request('POST', verifyEmailPath(linkToken));
    expect(again.status).toBe(400);
    expect(again.body.error).toEqual({
      code: 'bad_request',
      message: VERIFY_MESSAGES.invalidLink,
    });
    expect((await t.request('GET', API.users.me, { token })).body.user.emailVerified).toBe(true);
  });

  it('refuses an expired link, and the tools keep waiting', async () => {
    const email = toolEmail();
    const { token, user } = await t.signUp(email);
    const linkToken = await newestLinkToken(t, email);
    await t.db.query(
      `update email_verification_tokens set expires_at = now() - interval '1 second' where user_id = $1`,
      [user._id],
    );
    const expired = await t.request('POST', verifyEmailPath(linkToken));
    expect(expired.status).toBe(400);
    expect(expired.body.error.message).toBe(VERIFY_MESSAGES.invalidLink);
    expect((await t.request('GET', API.users.me, { token })).body.user.emailVerified).toBe(false);
    await expectToolsWaiting(t, token);
  });

  it('refuses a malformed or unknown token with the error shape', async () => {
    for (const path of [verifyEmailPath('x'.repeat(300)), verifyEmailPath('not-a-token')]) {
      const response = await t.request('POST', path);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('bad_request');
    }
  });

  it("another user's token verifies nothing of the signed-in user, and stays usable by its owner", async () => {
    const ann = await t.signUp(toolEmail());
    const bob = await t.signUp(toolEmail());
    const bobsToken = await newestLinkToken(t, bob.email);
    const misused = await t.request('POST', verifyEmailPath(bobsToken), { token: ann.token });
    expect(misused.status).toBe(400);
    expect(misused.body.error.message).toBe(VERIFY_MESSAGES.invalidLink);
    expect((await t.request('GET', API.users.me, { token: ann.token })).body.user).toMatchObject({
      emailVerified: false,
      pendingTools: [XML_FEEDS_TOOL, AI_HELPER_TOOL],
    });
    expect(
      (await t.request('GET', API.users.me, { token: bob.token })).body.user.emailVerified,
    ).toBe(false);
    await expectToolsWaiting(t, ann.token);
    // Bob's own link still works for Bob (signed in or not), and only for him.
    expect((await t.request('POST', verifyEmailPath(bobsToken))).status).toBe(200);
    expect(
      (await t.request('GET', API.users.me, { token: bob.token })).body.user.emailVerified,
    ).toBe(true);
    expect(
      (await t.request('GET', API.users.me, { token: ann.token })).body.user.emailVerified,
    ).toBe(false);
  });

  it('a changed address waits for a new verification; links to the old address stop working', async () => {
    const email = toolEmail();
    const { token } = await t.signUp(email, { verified: false });
    const first = await newestLinkToken(t, email);
    expect((await t.request('POST', verifyEmailPath(first))).status).toBe(200);
    // A spare link to the old address, asked for before the change.
    const resent = await t.request('POST', API.users.sendVerification, { token, body: {} });
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe(VERIFY_MESSAGES.alreadyVerified);

    const newEmail = toolEmail();
    const wrongPassword = await t.request('POST', API.users.changeEmail, {
      token,
      body: { email: newEmail, password: 'not the password' },
    });
    expect(wrongPassword.status).toBe(403);
    const taken = await t.request('POST', API.users.changeEmail, {
      token,
      body: { email: (await t.signUp()).email, password: TEST_PASSWORD },
    });
    expect(taken.status).toBe(409);
    const malformed = await t.request('POST', API.users.changeEmail, {
      token,
      body: { email: 'no at sign', password: TEST_PASSWORD },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ msg: 'Please enter a valid email', path: 'email' }]);

    const changed = await t.request('POST', API.users.changeEmail, {
      token,
      body: { email: newEmail.toUpperCase(), password: TEST_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect(ChangeEmailAnswerSchema.strict().parse(changed.body)).toEqual(changed.body);
    expect(changed.body.message).toBe(VERIFY_MESSAGES.emailChanged(newEmail));
    expect(changed.body.user).toMatchObject({
      email: newEmail,
      emailVerified: false,
      pendingTools: [XML_FEEDS_TOOL, AI_HELPER_TOOL],
    });
    expect(changed.body.user).not.toHaveProperty('tools');
    // The session goes on under the new address; the tools wait again.
    const me = await t.request('GET', API.users.me, { token });
    expect(me.body.user).toMatchObject({ email: newEmail, emailVerified: false });
    await expectToolsWaiting(t, token);
    // Sign-in now goes by the new address only.
    expect(
      (await t.request('POST', API.users.login, { body: { email, password: TEST_PASSWORD } }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.request('POST', API.users.login, {
          body: { email: newEmail, password: TEST_PASSWORD },
        })
      ).status,
    ).toBe(200);

    // The link mailed to the new address verifies it.
    const second = await newestLinkToken(t, newEmail);
    expect((await t.request('POST', verifyEmailPath(second))).status).toBe(200);
    expect((await t.request('GET', API.users.me, { token })).body.user.tools).toEqual([
      XML_FEEDS_TOOL,
      AI_HELPER_TOOL,
    ]);
    await expectToolsOpen(t, token);
  });

  it('a link mailed before a change of address never verifies the new address', async () => {
    const email = toolEmail();
    const { token } = await t.signUp(email);
    const oldLink = await newestLinkToken(t, email);
    const newEmail = toolEmail();
    const changed = await t.request('POST', API.users.changeEmail, {
      token,
      body: { email: newEmail, password: TEST_PASSWORD },
    });
    expect(changed.status).toBe(200);
    const stale = await t.request('POST', verifyEmailPath(oldLink));
    expect(stale.status).toBe(400);
    expect((await t.request('GET', API.users.me, { token })).body.user.emailVerified).toBe(false);
    await expectToolsWaiting(t, token);
  });

  it('sends the link again when asked, keeping only the newest link working', async () => {
    const email = toolEmail();
    const { token } = await t.signUp(email);
    const first = await newestLinkToken(t, email);
    const resent = await t.request('POST', API.users.sendVerification, { token, body: {} });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ type: 'success', message: VERIFY_MESSAGES.linkSent(email) });
    const second = await newestLinkToken(t, email, 2);
    expect(second).not.toBe(first);
    expect((await t.request('POST', verifyEmailPath(first))).status).toBe(400);
    expect((await t.request('POST', verifyEmailPath(second))).status).toBe(200);
    await expectToolsOpen(t, token);
  });

  it('asks for a sign-in to send the link again', async () => {
    const response = await t.request('POST', API.users.sendVerification, { body: {} });
    expect(response.status).toBe(401);
  });
});

describe('sending the link again is rate limited', () => {
  let t: TestApp;
  beforeAll(async () => {
    const rateLimit = { ...testConfig().rateLimit, verifyMailPerUser: 2 };
    t = await startTestApp(toolConfig({ rateLimit }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with Retry-After past VERIFY_MAIL_LIMIT_PER_USER, per user', async () => {
    const ann = await t.signUp(toolEmail());
    await newestLinkToken(t, ann.email);
    for (let i = 0; i < 2; i += 1)
      expect(
        (await t.request('POST', API.users.sendVerification, { token: ann.token, body: {} }))
          .status,
      ).toBe(200);
    await newestLinkToken(t, ann.email, 3);
    const mailsBefore = mailbox.mails.length;
    const refused = await t.request('POST', API.users.sendVerification, {
      token: ann.token,
      body: {},
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A change of address mails a link too, and counts under the same limit.
    const change = await t.request('POST', API.users.changeEmail, {
      token: ann.token,
      body: { email: toolEmail(), password: TEST_PASSWORD },
    });
    expect(change.status).toBe(429);
    // Another user is not held back by Ann's requests.
    const bob = await t.signUp(toolEmail());
    expect(
      (await t.request('POST', API.users.sendVerification, { token: bob.token, body: {} })).status,
    ).toBe(200);
    await newestLinkToken(t, bob.email, 2);
    expect(mailbox.mails.filter((mail) => JSON.stringify(mail.to).includes(ann.email)).length).toBe(
      3,
    );
    expect(mailbox.mails.length).toBeGreaterThan(mailsBefore);
  });
});

describe(`accounts from before ${VERIFICATION_MIGRATION}`, () => {
  let t: TestApp;
  const email = toolEmail();
  beforeAll(async () => {
    const db = await openEmptyDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'adloom-migrations-'));
    try {
      for (const { name } of listMigrations())
        if (name < VERIFICATION_MIGRATION)
          copyFileSync(join(MIGRATIONS_DIR, name), join(dir, name));
      await runMigrations(db, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await db.query('insert into users (email, password_hash) values ($1, $2)', [
      email,
      await hashPassword(TEST_PASSWORD),
    ]);
    expect(await runMigrations(db)).toContain(VERIFICATION_MIGRATION);
    t = await startTestApp(toolConfig(), { db });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('are unverified: their tools wait until they verify', async () => {
    const login = await t.request('POST', API.users.login, {
      body: { email, password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({
      emailVerified: false,
      pendingTools: [XML_FEEDS_TOOL, AI_HELPER_TOOL],
    });
    const { token } = login.body as { token: string };
    await expectToolsWaiting(t, token);
    expect((await t.request('POST', API.users.sendVerification, { token, body: {} })).status).toBe(
      200,
    );
    expect((await t.request('POST', verifyEmailPath(await newestLinkToken(t, email)))).status).toBe(
      200,
    );
    await expectToolsOpen(t, token);
  });
});
