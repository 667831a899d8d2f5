import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call of the verify endpoint and its answer. */
export interface Verification {
  secret: string;
  token: string;
  success: boolean;
}

/**
 * A reCAPTCHA v3 stand-in on loopback: `/api.js` defines `grecaptcha.ready` and
 * `grecaptcha.execute(siteKey, { action: 'register' })` handing out tokens it issued, and
 * `/siteverify` speaks the verify protocol: an issued token passes once, any other fails.
 */
export interface BotCheckStandIn {
  siteKey: string;
  secret: string;
  scriptUrl: string;
  verifyUrl: string;
  /** While true, api.js hands out tokens this stand-in never issued. */
  forgeTokens: boolean;
  verifications: Verification[];
  /** The environment that turns the server's bot check on against this stand-in. */
  serverEnv(): Record<string, string>;
  close(): Promise<void>;
}

function script(siteKey: string, tokens: string[]): string {
  return `(function () {
  var siteKey = ${JSON.stringify(siteKey)};
  var tokens = ${JSON.stringify(tokens)};
  window.grecaptcha = {
    ready: function (callback) { setTimeout(callback, 0); },
    execute: function (key, options) {
      if (key !== siteKey || !options || options.action !== 'register')
        return Promise.reject(new Error('unknown site key or action'));
      var token = tokens.shift();
      return token ? Promise.resolve(token) : Promise.reject(new Error('no token left'));
    }
  };
})();
`;
}

/** Starts the stand-in on a free loopback port. */
export async function startBotCheckStandIn(): Promise<BotCheckStandIn> {
  const siteKey = `site-${randomBytes(6).toString('hex')}`;
  const secret = `secret-${randomBytes(12).toString('hex')}`;
  const issued = new Set<string>();
  const token = () => `tok-${randomBytes(16).toString('hex')}`;

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/api.js') {
      const tokens = Array.from({ length: 5 }, token);
      if (!standIn.forgeTokens) for (const t of tokens) issued.add(t);
      response
        .writeHead(200, {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'no-store',
        })
        .end(script(url.searchParams.get('render') ?? '', tokens));
      return;
    }
    if (request.method === 'POST' && url.pathname === '/siteverify') {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(raw);
        const verification = {
          secret: form.get('secret') ?? '',
          token: form.get('response') ?? '',
          success: false,
        };
        verification.success = verification.secret === secret && issued.delete(verification.token);
        standIn.verifications.push(verification);
        const answer = verification.success
          ? { success: true, score: 0.9, action: 'register', hostname: '127.0.0.1' }
          : { success: false, 'error-codes': ['invalid-input-response'] };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const standIn: BotCheckStandIn = {
    siteKey,
    secret,
    scriptUrl: `${origin}/api.js?render=${siteKey}`,
    verifyUrl: `${origin}/siteverify`,
    forgeTokens: false,
    verifications: [],
    serverEnv: () => ({
      RECAPTCHA_VERIFY_URL: standIn.verifyUrl,
      RECAPTCHA_SECRET: secret,
      RECAPTCHA_SITE_KEY: siteKey,
      RECAPTCHA_SCRIPT_URL: standIn.scriptUrl,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return standIn;
}
