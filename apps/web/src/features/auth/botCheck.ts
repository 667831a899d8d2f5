import type { BotCheckSettings } from '@adloom/contract';
import { keptForPage } from '../../state/pageState.ts';

/** Shown when the bot-check widget script cannot be loaded. */
export const BOT_CHECK_NOT_LOADED =
  'The bot check could not be loaded, so we cannot sign you up right now. Please check your connection or anything that blocks scripts (such as an ad blocker), then try again.';
/** Shown when the widget loaded but gave no token. */
export const BOT_CHECK_NO_TOKEN =
  'The bot check did not answer, so we cannot sign you up right now. Please reload the page and try again.';

/** The reCAPTCHA action named when a token is asked for on the register form. */
export const BOT_CHECK_ACTION = 'register';
/** How long the widget may take to load or to answer. */
export const BOT_CHECK_TIMEOUT_MS = 20_000;

/** The part of the reCAPTCHA v3 API the register form uses. */
export interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): PromiseLike<string>;
}

/** A token could not be had; `message` is the plain sentence to show. */
export class BotCheckUnavailableError extends Error {
  override name = 'BotCheckUnavailableError';
}

/** Where the script goes and where it leaves `grecaptcha`: the page, or stand-ins in tests. */
export interface BotCheckHost {
  document: Pick<Document, 'createElement' | 'head'>;
  window: { grecaptcha?: unknown };
  timeoutMs?: number;
}

function browserHost(): BotCheckHost {
  return { document, window: window as { grecaptcha?: unknown } };
}

function asGrecaptcha(value: unknown): Grecaptcha | undefined {
  const candidate = value as Partial<Grecaptcha> | undefined;
  return typeof candidate?.ready === 'function' && typeof candidate.execute === 'function'
    ? (candidate as Grecaptcha)
    : undefined;
}

const loads = new Map<string, Promise<Grecaptcha>>();
keptForPage(() => loads.clear());

/**
 * Loads the widget script once per URL. A failed load (network error, blocked, no
 * `grecaptcha` after loading, or too slow) is forgotten, so the next call tries again.
 */
export function loadBotCheckScript(
  scriptUrl: string,
  host: BotCheckHost = browserHost(),
): Promise<Grecaptcha> {
  if (!scriptUrl) return Promise.reject(new BotCheckUnavailableError(BOT_CHECK_NOT_LOADED));
  const known = loads.get(scriptUrl);
  if (known) return known;
  const load = new Promise<Grecaptcha>((resolve, reject) => {
    const script = host.document.createElement('script');
    const fail = () => {
      clearTimeout(timer);
      script.remove();
      loads.delete(scriptUrl);
      reject(new BotCheckUnavailableError(BOT_CHECK_NOT_LOADED));
    };
    const timer = setTimeout(fail, host.timeoutMs ?? BOT_CHECK_TIMEOUT_MS);
    script.onload = () => {
      const api = asGrecaptcha(host.window.grecaptcha);
      if (!api) return fail();
      clearTimeout(timer);
      resolve(api);
    };
    script.onerror = fail;
    script.async = true;
    script.src = scriptUrl;
    host.document.head.append(script);
  });
  loads.set(scriptUrl, load);
  return load;
}

/**
 * The token to send with a sign-up: '' when the check is off; otherwise the reCAPTCHA v3
 * answer of `grecaptcha.ready` then `grecaptcha.execute(siteKey, { action: 'register' })`.
 * Throws BotCheckUnavailableError with a plain message when no token can be had.
 */
export async function getBotCheckToken(
  settings: BotCheckSettings,
  host: BotCheckHost = browserHost(),
): Promise<string> {
  if (!settings.enabled) return '';
  if (!settings.siteKey) throw new BotCheckUnavailableError(BOT_CHECK_NOT_LOADED);
  const api = await loadBotCheckScript(settings.scriptUrl, host);
  const token = await new Promise<unknown>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new BotCheckUnavailableError(BOT_CHECK_NO_TOKEN)),
      host.timeoutMs ?? BOT_CHECK_TIMEOUT_MS,
    );
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
    };
    try {
      api.ready(() => {
        try {
          Promise.resolve(api.execute(settings.siteKey, { action: BOT_CHECK_ACTION })).then(
            (value) => settle(() => resolve(value)),
            () => settle(() => reject(new BotCheckUnavailableError(BOT_CHECK_NO_TOKEN))),
          );
        } catch {
          settle(() => reject(new BotCheckUnavailableError(BOT_CHECK_NO_TOKEN)));
        }
      });
    } catch {
      settle(() => reject(new BotCheckUnavailableError(BOT_CHECK_NO_TOKEN)));
    }
  });
  if (typeof token !== 'string' || !token) throw new BotCheckUnavailableError(BOT_CHECK_NO_TOKEN);
  return token;
}
