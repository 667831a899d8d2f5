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
