import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResetAnswerSchema, TypeMessageSchema } from '@adloom/contract';
import { TEST_PASSWORD, startTestApp, type TestApp } from './helpers.ts';
import { RESET_SUBJECT, findResetLink, startMailbox, type Mailbox } from './mailbox.ts';

const NEW_PASSWORD = 'a brand new password';

describe('password reset by mail (real SMTP on loopback)', () => {
  let t: TestApp;
  let mailbox: Mailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await startTestApp({ smtpUrl: mailbox.url, mailFrom: 'Adloom <no-reply@adloom.test>' });
  });
  afterAll(async () => {
    await t.close();
    await mailbox.close();
  });

  it('mails a link that sets a new password once and signs in', async () => {
    const { email, token: oldSession } = await t.signUp();
    const forgot = await t.request('POST', '/api/users/forgot', { body: { email } });
    expect(forgot.status).toBe(200);
    expect(forgot.body).toEqual({
      type: 'success',
      message: expect.stringMatching(/If an account exists/),
    });

    const mail = await mailbox.waitForMail(email, undefined, RESET_SUBJECT);
    expect(mail.subject).toBe('Reset your Adloom password');
    expect(mail.from?.value[0]?.address).toBe('no-reply@adloom.test');
    const link = findResetLink(mail.text, t.config.appUrl);
    const resetToken = link.pathname.split('/').at(-1) ?? '';
    // The token is stored only as its sha256.
    const stored = await t.db.query<{ token_hash: string }>(
      'select token_hash from password_reset_tokens',
    );
    expect(stored.map((row) => row.token_hash)).toContain(
      createHash('sha256').update(resetToken).digest('hex'),
    );
    expect(stored.map((row) => row.token_hash)).not.toContain(resetToken);

    const check = await t.request('GET', `/api/users/reset/${resetToken}`);
    expect(check.status).toBe(200);
    expect(check.body.type).toBe('success');
    expect(TypeMessageSchema.strict().parse(check.body)).toEqual(check.body);

    const mismatch = await t.request('POST', `/api/users/reset/${resetToken}`, {
      body: { password: NEW_PASSWORD, 'password-confirm': 'something else' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([
      { msg: 'Passwords do not match', path: 'password-confirm' },
    ]);

    const reset = await t.request('POST', `/api/users/reset/${resetToken}`, {
      body: { password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD },
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({
      token: expect.any(String),
      expiresIn: t.config.sessionTtlSeconds,
      user: expect.objectContaining({ email }),
      type: 'success',
      message: expect.any(String),
    });
    expect(ResetAnswerSchema.strict().parse(reset.body)).toEqual(reset.body);
    expect((await t.request('GET', '/api/users/me', { token: reset.body.token })).status).toBe(200);
    // Sessions from before the reset stop working.
    expect((await t.request('GET', '/api/users/me', { token: oldSession })).status).toBe(401);

    const newLogin = await t.request('POST', '/api/users/login', {
      body: { email, password: NEW_PASSWORD },
    });
    expect(newLogin.status).toBe(200);
    const oldLogin = await t.request('POST', '/api/users/login', {
      body: { email, password: TEST_PASSWORD },
    });
    expect(oldLogin.status).toBe(404);

    // Single use.
    const again = await t.request('GET', `/api/users/reset/${resetToken}`);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toMatch(/invalid or has expired/);
    const reuse = await t.request('POST', `/api/users/reset/${resetToken}`, {
      body: { password: 'yet another one', 'password-confirm': 'yet another one' },
    });
    expect(reuse.status).toBe(400);
  });

  it('answers an unknown email exactly like a known one, and mails nobody', async () => {
    const { email } = await t.signUp();
    const known = await t.request('POST', '/api/users/forgot', { body: { email } });
    const unknown = await t.request('POST', '/api/users/forgot', {
      body: { email: 'nobody-here@example.com' },
    });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await mailbox.waitForMail(email, undefined, RESET_SUBJECT);
    expect(mailbox.mails.some((mail) => mail.text?.includes('nobody-here'))).toBe(false);
    const tokens = await t.db.query<{ n: number }>(
      'select count(*) as n from password_reset_tokens t join users u on u.id = t.user_id where u.email = $1',
      ['nobody-here@example.com'],
    );
    expect(tokens[0]?.n).toBe(0);
  });

  it('keeps only the newest link of a user', async () => {
    const { email } = await t.signUp();
    await t.request('POST', '/api/users/forgot', { body: { email } });
    const first = findResetLink(
      (await mailbox.waitForMail(email, undefined, RESET_SUBJECT)).text,
      t.config.appUrl,
    );
    const resetMails = () =>
      mailbox.mails.filter(
        (mail) => RESET_SUBJECT.test(mail.subject ?? '') && JSON.stringify(mail.to).includes(email),
      );
    const countBefore = resetMails().length;
    await t.request('POST', '/api/users/forgot', { body: { email } });
    for (let i = 0; i < 400 && resetMails().length === countBefore; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const second = findResetLink(resetMails().at(-1)?.text, t.config.appUrl);
    expect(second.href).not.toBe(first.href);
    expect(
      (await t.request('GET', first.pathname.replace('/reset/', '/api/users/reset/'))).status,
    ).toBe(400);
    expect(
      (await t.request('GET', second.pathname.replace('/reset/', '/api/users/reset/'))).status,
    ).toBe(200);
  });

  it('refuses an expired token', async () => {
    const { user } = await t.signUp();
    const token = 'expired-token-for-the-test-0123456789';
    await t.db.query(
      `insert into password_reset_tokens (token_hash, user_id, expires_at) values ($1, $2, now() - interval '1 second')`,
      [createHash('sha256').update(token).digest('hex'), user._id],
    );
    expect((await t.request('GET', `/api/users/reset/${token}`)).status).toBe(400);
    const post = await t.request('POST', `/api/users/reset/${token}`, {
      body: { password: NEW_PASSWORD, 'password-confirm': NEW_PASSWORD },
    });
    expect(post.status).toBe(400);
    expect(post.body.error.code).toBe('bad_request');
  });

  it('rejects bad input on forgot and reset', async () => {
    const forgot = await t.request('POST', '/api/users/forgot', { body: { email: 12 } });
    expect(forgot.status).toBe(400);
    expect(forgot.body.errors[0].path).toBe('email');
    const unknownToken = await t.request('GET', '/api/users/reset/not-a-token');
    expect(unknownToken.status).toBe(400);
    const shortPassword = await t.request('POST', '/api/users/reset/not-a-token', {
      body: { password: 'abc', 'password-confirm': 'abc' },
    });
    expect(shortPassword.status).toBe(400);
    expect(shortPassword.body.error.code).toBe('validation_failed');
  });
});

describe('password reset without SMTP', () => {
  it('writes the mail to DATA_DIR/outbox (0600) and only its file name to the log', async () => {
    const lines: string[] = [];
    const t = await startTestApp(
      { smtpUrl: undefined, logLevel: 'debug' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    const outbox = join(t.config.dataDir, 'outbox');
    try {
      const { email } = await t.signUp();
      await t.request('POST', '/api/users/forgot', { body: { email } });
      // Sign-up mailed its verification link; the forgot call the reset link.
      const written = () => lines.filter((line) => line.includes('mail written to'));
      for (let i = 0; i < 200 && written().length < 2; i += 1)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const files = readdirSync(outbox);
      expect(files).toHaveLength(2);
      const file =
        files
          .map((name) => join(outbox, name))
          .find((path) => readFileSync(path, 'utf8').includes('Subject: Reset your')) ?? '';
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const mail = readFileSync(file, 'utf8');
      expect(mail).toContain(`To: ${email}`);
      expect(mail).toContain('Subject: Reset your Adloom password');
      const link = /http:\/\/adloom\.test\/reset\/([A-Za-z0-9_-]{43})/.exec(mail);
      expect(link).not.toBeNull();
      // The link in the file works.
      const check = await t.request('GET', `/api/users/reset/${link?.[1] ?? ''}`);
      expect(check.status).toBe(200);
      expect(written().some((line) => line.includes(file))).toBe(true);
      expect(lines.join('\n')).not.toContain(link?.[1] ?? '');
      expect(lines.join('\n')).not.toMatch(/\/reset\/[A-Za-z0-9_-]{20}/);
    } finally {
      await t.close();
      rmSync(t.config.dataDir, { recursive: true, force: true });
    }
  });
});
