/**
 * Forgot-password must answer in the same time whether the account exists. Rather than time it,
 * these tests hold the user lookup on a gate: the answer arrives while the lookup is still
 * blocked, so nothing the lookup finds can change when (or what) the answer is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { openTestDatabase, startTestApp, type TestApp, type TestResponse } from './helpers.ts';
import { RESET_SUBJECT, startMailbox, type Mailbox } from './mailbox.ts';

const USER_LOOKUP = /from users where email = \$1/;

/** The real test database, with the user-by-email lookup held until `open()` once `close()`d. */
function gateUserLookups(inner: Db): {
  db: Db;
  close(): void;
  open(): void;
  /** Resolves once `count` lookups are waiting at the closed gate. */
  waiting(count: number): Promise<void>;
  /** Makes the lookups fail instead. */
  fail(error: Error): void;
} {
  let gate: Promise<void> | undefined;
  let release = () => {};
  let failure: Error | undefined;
  let waitingCount = 0;
  const watchers: Array<{ count: number; resolve: () => void }> = [];
  const db: Db = {
    ...inner,
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      if (USER_LOOKUP.test(sql)) {
        if (failure) throw failure;
        if (gate) {
          waitingCount += 1;
          for (const watcher of watchers) if (waitingCount >= watcher.count) watcher.resolve();
          await gate;
        }
      }
      return inner.query<T>(sql, params);
    },
  };
  return {
    db,
    close() {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    open() {
      gate = undefined;
      release();
    },
    waiting: (count) =>
      waitingCount >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => watchers.push({ count, resolve })),
    fail(error) {
      failure = error;
    },
  };
}

/** The parts of an answer that could tell one email from another. */
function observable(response: TestResponse) {
  const { date: _date, ...headers } = response.headers;
  return { status: response.status, body: response.body, headers };
}

describe('forgot-password answers the same whether the account exists', () => {
  let t: TestApp | undefined;
  let mailbox: Mailbox | undefined;
  let gated: ReturnType<typeof gateUserLookups> | undefined;
  afterEach(async () => {
    // Closing the app waits for resets still at work: let them through.
    gated?.open();
    gated = undefined;
    await t?.close();
    await mailbox?.close();
    t = undefined;
    mailbox = undefined;
  });

  it('answers while the lookup is still blocked, and mails the link once it goes on', async () => {
    mailbox = await startMailbox();
    const inner = await openTestDatabase();
    gated = gateUserLookups(inner);
    t = await startTestApp({ smtpUrl: mailbox.url }, { db: gated.db });
    const { email, user } = await t.signUp();
    const countTokens = async () =>
      (
        await inner.query<{ n: number }>(
          'select count(*)::int as n from password_reset_tokens where user_id = $1',
          [user._id],
        )
      )[0]?.n;

    gated.close();
    const known = await t.request('POST', '/api/users/forgot', { body: { email } });
    const unknown = await t.request('POST', '/api/users/forgot', {
      body: { email: 'nobody-here@example.com' },
    });
    // Both answers are in while both lookups wait at the gate: nothing was looked up yet.
    await gated.waiting(2);
    expect(known.status).toBe(200);
    expect(known.body).toEqual({
      type: 'success',
      message: expect.stringMatching(/If an account exists/),
    });
    expect(observable(unknown)).toEqual(observable(known));
    expect(await countTokens()).toBe(0);
    expect(mailbox.mails.filter((sent) => RESET_SUBJECT.test(sent.subject ?? ''))).toEqual([]);

    gated.open();
    const mail = await mailbox.waitForMail(email, undefined, RESET_SUBJECT);
    expect(mail.text).toMatch(/http:\/\/adloom\.test\/reset\/[A-Za-z0-9_-]{43}/);
    expect(await countTokens()).toBe(1);
    expect(mailbox.mails.map((sent) => sent.text ?? '').join('\n')).not.toMatch(/nobody-here/);
  });

  it('logs a failed lookup and still answers 200', async () => {
    const lines: string[] = [];
    const inner = await openTestDatabase();
    gated = gateUserLookups(inner);
    t = await startTestApp(
      { logLevel: 'error' },
      { db: gated.db, logStream: { write: (line) => void lines.push(line) } },
    );
    gated.fail(new Error('the lookup broke'));
    const response = await t.request('POST', '/api/users/forgot', {
      body: { email: 'someone@example.com' },
    });
    expect(response.status).toBe(200);
    expect(response.body.type).toBe('success');
    // Closing waits for the work started after the answer, so its log line is written by then.
    await t.close();
    t = undefined;
    const failures = lines.filter((line) => line.includes('password reset failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/the lookup broke/);
  });
});
