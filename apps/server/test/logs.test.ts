import { afterEach, describe, expect, it, vi } from 'vitest';
import { API } from '@adloom/contract';
import { chooseLogFormat, formatLogLine } from '../src/log-format.ts';
import { withoutMailLogging } from '../src/services/mailer.ts';
import { TEST_PASSWORD, startTestApp } from './helpers.ts';
import { findSecretsInLog } from './log-scan.ts';
import { RESET_SUBJECT, startMailbox } from './mailbox.ts';

const clock = (time: number) => {
  const date = new Date(time);
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
};

describe('the server log', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is readable in a terminal, JSON when not a terminal or in production', () => {
    expect(chooseLogFormat({ isProduction: false, isTerminal: true })).toBe('readable');
    expect(chooseLogFormat({ isProduction: false, isTerminal: false })).toBe('json');
    expect(chooseLogFormat({ isProduction: true, isTerminal: true })).toBe('json');
    expect(chooseLogFormat({ isProduction: true, isTerminal: false })).toBe('json');
  });

  it('writes a request as one readable line, an error with its stack below', () => {
    const time = Date.UTC(2026, 10, 26, 23, 4, 31);
    const base = { time, pid: 42, hostname: 'box' };
    expect(
      formatLogLine(
        JSON.stringify({
          ...base,
          level: 30,
          reqId: 'req-7',
          req: { method: 'GET', url: '/api/app/clients', remoteAddress: '127.0.0.1' },
          msg: 'incoming request',
        }),
      ),
    ).toBe(`${clock(time)} INFO  [req-7] incoming request GET /api/app/clients\n`);
    expect(
      formatLogLine(
        JSON.stringify({
          ...base,
          level: 30,
          reqId: 'req-7',
          res: { statusCode: 200 },
          responseTime: 12.4,
          msg: 'request completed',
        }),
      ),
    ).toBe(`${clock(time)} INFO  [req-7] request completed 200 (12 ms)\n`);
    expect(
      formatLogLine(
        JSON.stringify({
          ...base,
          level: 50,
          msg: 'save failed',
          userId: 'u1',
          detail: 'two words',
          err: { type: 'TypeError', message: 'bad', stack: 'TypeError: bad\n    at f (a.ts:1:1)' },
        }),
        { color: true },
      ),
    ).toBe(
      `${clock(time)} \u001b[31mERROR\u001b[39m save failed  userId=u1 detail="two words"\n  TypeError: bad\n    at f (a.ts:1:1)\n`,
    );
    expect(formatLogLine('not JSON')).toBe('not JSON\n');
  });

  it('keeps SMTP_URL but not its logger or debug settings', () => {
    expect(
      withoutMailLogging('smtp://user:pass@mail.test:587/?logger=true&debug=true&secure=false'),
    ).toBe('smtp://user:pass@mail.test:587/?secure=false');
  });

  it(
    'in production holds no header, password, token or reset link, in either form',
    { timeout: 120_000 },
    async () => {
      const mailbox = await startMailbox();
      const lines: string[] = [];
      // nodemailer's own logger prints with console.log: asked for by SMTP_URL, kept off in production.
      const printed = vi.spyOn(console, 'log').mockImplementation(() => {});
      const t = await startTestApp(
        { isProduction: true, smtpUrl: `${mailbox.url}/?logger=true&debug=true` },
        { logStream: { write: (line) => lines.push(line) } },
      );
      try {
        const { email, token } = await t.signUp();
        const login = await t.request('POST', API.users.login, {
          body: { email, password: TEST_PASSWORD },
        });
        expect(login.status).toBe(200);
        expect((await t.request('POST', API.users.forgot, { body: { email } })).status).toBe(200);
        const mail = await mailbox.waitForMail(email, undefined, RESET_SUBJECT);
        const resetPath = /\/reset\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0] ?? '';
        expect(resetPath).not.toBe('');
        expect(
          (await t.request('GET', `/api${resetPath.replace('/reset', '/users/reset')}`)).status,
        ).toBe(200);
        // Whatever a later change logs by mistake: the headers, a password, a token.
        t.app.log.info(
          {
            headers: { authorization: `Bearer ${token}`, cookie: `session=${token}` },
            password: TEST_PASSWORD,
            token,
            google: { refreshToken: '1//0gAbCdEfGhIjKlMnOp', accessToken: 'ya29.a0AbCdEfGhIjKl' },
          },
          'probe',
        );
        const probe = JSON.parse(lines.find((line) => line.includes('"probe"')) ?? '{}') as {
          headers?: Record<string, string>;
        };
        expect(probe.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]' });
        expect(lines.some((line) => line.includes('/users/reset/<token>'))).toBe(true);
        const json = lines.join('');
        expect(findSecretsInLog('production JSON log', json)).toEqual([]);
        const readable = lines.map((line) => formatLogLine(line)).join('');
        expect(findSecretsInLog('production readable log', readable)).toEqual([]);
        expect(printed).not.toHaveBeenCalled();
      } finally {
        await t.close();
        await mailbox.close();
      }
    },
  );
});
