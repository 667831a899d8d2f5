import type { BotCheckSettings } from '@adloom/contract';
import { AppError } from '../errors.ts';

/** Settings of the reCAPTCHA-compatible bot check; off when url or secret is missing. */
export interface BotCheckOptions {
  verifyUrl: string | undefined;
  secret: string | undefined;
  minScore: number;
  timeoutMs?: number;
}

/** Message of a failed bot check. */
export const BOT_CHECK_FAILED_MESSAGE = 'The bot check failed. Please try again.';

/** Verifies a sign-up's bot-check token (reCAPTCHA protocol: form POST of secret, response, remoteip). */
export async function verifyBotCheck(
  options: BotCheckOptions,
  token: string,
  remoteIp: string,
): Promise<void> {
  if (!options.verifyUrl || !options.secret) return;
  const fail = () =>
    new AppError('bad_request', BOT_CHECK_FAILED_MESSAGE, undefined, {
      errors: [{ msg: BOT_CHECK_FAILED_MESSAGE, path: 'recaptchaToken' }],
    });
  if (!token) throw fail();
  let answer: { success?: unknown; score?: unknown };
  try {
    const response = await fetch(options.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) throw new Error(`bot check answered ${response.status}`);
    answer = (await response.json()) as { success?: unknown; score?: unknown };
  } catch {
    throw new AppError(
      'upstream_failed',
      'The bot check could not be completed. Please try again later.',
    );
  }
  if (answer.success !== true) throw fail();
  if (typeof answer.score === 'number' && answer.score < options.minScore) throw fail();
}

/** The bot check as the web app sees it: on exactly when the server checks sign-up tokens. */
export function publicBotCheckSettings(config: {
  recaptchaVerifyUrl: string | undefined;
  recaptchaSecret: string | undefined;
  recaptchaSiteKey: string | undefined;
  recaptchaScriptUrl: string | undefined;
}): BotCheckSettings {
  if (!config.recaptchaVerifyUrl || !config.recaptchaSecret) return { enabled: false };
  // loadConfig refuses to start without a site key when the check is on; an empty one makes
  // the web app say plainly that the bot check cannot load.
  return {
    enabled: true,
    siteKey: config.recaptchaSiteKey ?? '',
    scriptUrl: config.recaptchaScriptUrl ?? '',
  };
}

/** Hosts of Google's reCAPTCHA widget: its script loads more script and a frame from these. */
const GOOGLE_WIDGET_HOSTS = new Set(['www.google.com', 'www.recaptcha.net']);

/**
 * What the Content-Security-Policy must also allow for the widget script to run: its origin
 * for scripts and frames, plus Google's static host and frame host for Google's widget.
 */
export function botCheckCspSources(settings: BotCheckSettings): {
  scriptSrc: string[];
  frameSrc: string[];
} {
  if (!settings.enabled) return { scriptSrc: [], frameSrc: [] };
  let url: URL;
  try {
    url = new URL(settings.scriptUrl);
  } catch {
    return { scriptSrc: [], frameSrc: [] };
  }
  if (GOOGLE_WIDGET_HOSTS.has(url.hostname)) {
    return {
      scriptSrc: [url.origin, 'https://www.gstatic.com'],
      frameSrc: [url.origin, 'https://recaptcha.google.com'],
    };
  }
  return { scriptSrc: [url.origin], frameSrc: [url.origin] };
}
