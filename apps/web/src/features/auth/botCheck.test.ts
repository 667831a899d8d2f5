import { describe, expect, it } from 'vitest';
import {
  BOT_CHECK_NO_TOKEN,
  BOT_CHECK_NOT_LOADED,
  BotCheckUnavailableError,
  getBotCheckToken,
  type BotCheckHost,
} from './botCheck.ts';

/** A script element as far as the loader uses it. */
interface FakeScript {
  src: string;
  async: boolean;
  onload: (() => void) | null;
  onerror: (() => void) | null;
  isRemoved: boolean;
  remove(): void;
}

/** A page stand-in: records appended scripts; `window.grecaptcha` is set by the test. */
function fakeHost(timeoutMs = 5_000) {
  const scripts: FakeScript[] = [];
  const window: { grecaptcha?: unknown } = {};
  const host = {
    timeoutMs,
    window,
    document: {
      createElement: () => {
        const script: FakeScript = {
          src: '',
          async: false,
          onload: null,
          onerror: null,
          isRemoved: false,
          remove: () => void (script.isRemoved = true),
        };
        return script;
      },
      head: { append: (script: FakeScript) => void scripts.push(script) },
    },
  } as unknown as BotCheckHost;
  return { host, scripts, window };
}

/** A reCAPTCHA v3 API that answers `token` once ready, recording each execute call. */
function fakeGrecaptcha(answer: () => PromiseLike<string>) {
  const calls: Array<[string, { action: string }]> = [];
  return {
    calls,
    api: {
      ready: (callback: () => void) => void setTimeout(callback, 0),
      execute: (siteKey: string, options: { action: string }) => {
        calls.push([siteKey, options]);
        return answer();
      },
    },
  };
}

const settings = (scriptUrl: string) =>
  ({ enabled: true, siteKey: 'site-key-1', scriptUrl }) as const;

describe('getBotCheckToken', () => {
  it('answers an empty token and loads nothing when the check is off', async () => {
    const { host, scripts } = fakeHost();
    await expect(getBotCheckToken({ enabled: false }, host)).resolves.toBe('');
    expect(scripts).toEqual([]);
  });

  it('loads the script once, waits for ready and executes the register action with the site key', async () => {
    const { host, scripts, window } = fakeHost();
    const url = 'https://captcha.example.com/api.js?render=site-key-1';
    let issued = 0;
    const grecaptcha = fakeGrecaptcha(() => Promise.resolve(`token-${(issued += 1)}`));

    const first = getBotCheckToken(settings(url), host);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toMatchObject({ src: url, async: true });
    window.grecaptcha = grecaptcha.api;
    scripts[0]!.onload?.();
    await expect(first).resolves.toBe('token-1');
    expect(grecaptcha.calls).toEqual([['site-key-1', { action: 'register' }]]);

    // A second sign-up attempt asks for a fresh token from the same script.
    await expect(getBotCheckToken(settings(url), host)).resolves.toBe('token-2');
    expect(scripts).toHaveLength(1);
  });

  it('says plainly that the script could not load, and tries again on the next attempt', async () => {
    const { host, scripts, window } = fakeHost();
    const url = 'https://captcha.example.com/blocked.js';
    const failed = getBotCheckToken(settings(url), host);
    scripts[0]!.onerror?.();
    await expect(failed).rejects.toThrow(BotCheckUnavailableError);
    await expect(failed).rejects.toThrow(BOT_CHECK_NOT_LOADED);
    expect(scripts[0]!.isRemoved).toBe(true);

    const retry = getBotCheckToken(settings(url), host);
    expect(scripts).toHaveLength(2);
    window.grecaptcha = fakeGrecaptcha(() => Promise.resolve('late-token')).api;
    scripts[1]!.onload?.();
    await expect(retry).resolves.toBe('late-token');
  });

  it('fails plainly when the script loads but brings no grecaptcha, or never loads', async () => {
    const { host, scripts } = fakeHost(50);
    const empty = getBotCheckToken(settings('https://captcha.example.com/empty.js'), host);
    scripts[0]!.onload?.();
    await expect(empty).rejects.toThrow(BOT_CHECK_NOT_LOADED);

    const slow = getBotCheckToken(settings('https://captcha.example.com/slow.js'), host);
    await expect(slow).rejects.toThrow(BOT_CHECK_NOT_LOADED);
    expect(scripts[1]!.isRemoved).toBe(true);
  });

  it('fails plainly when the widget gives no token', async () => {
    const { host, scripts, window } = fakeHost();
    const url = 'https://captcha.example.com/refuses.js';
    window.grecaptcha = fakeGrecaptcha(() => Promise.reject(new Error('no'))).api;
    const refused = getBotCheckToken(settings(url), host);
    scripts[0]!.onload?.();
    await expect(refused).rejects.toThrow(BOT_CHECK_NO_TOKEN);

    window.grecaptcha = fakeGrecaptcha(() => Promise.resolve('')).api;
    const empty = getBotCheckToken(settings('https://captcha.example.com/empty-token.js'), host);
    scripts[1]!.onload?.();
    await expect(empty).rejects.toThrow(BOT_CHECK_NO_TOKEN);
  });

  it('fails plainly when the server gives no site key', async () => {
    const { host, scripts } = fakeHost();
    await expect(
      getBotCheckToken({ enabled: true, siteKey: '', scriptUrl: 'https://x.example/api.js' }, host),
    ).rejects.toThrow(BOT_CHECK_NOT_LOADED);
    expect(scripts).toEqual([]);
  });
});
