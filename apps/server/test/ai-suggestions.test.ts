import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AI_HELPER_TOOL,
  AI_MESSAGES,
  AI_SUGGESTIONS_MARKER,
  API,
  AiStreamEventSchema,
  AiSuggestionsAnswerSchema,
  type AiStreamEvent,
} from '@adloom/contract';
import type { Config } from '../src/config.ts';
import {
  STAND_IN_API_KEY,
  STAND_IN_DEFAULT_TEXT,
  STAND_IN_MODEL,
  STAND_IN_PROMPT_TOKENS,
  startAiStandIn,
  type AiStandIn,
} from './ai-stand-in.ts';
import { startTestApp, testConfig, type TestApp, type TestResponse } from './helpers.ts';

const DOMAIN = 'helper-company.test';
const BODY = {
  type: 'headlines',
  description: 'We sell handmade leather shoes',
  params: [
    { promptTitle: 'USPs', values: 'free shipping, 30-day returns' },
    { promptTitle: 'Language', values: 'English' },
  ],
};
/** The whole answer's timeout in these tests: a stalled model fails in about this long. */
const TIMEOUT_MS = 1500;

let standIn: AiStandIn;
/** Every answer and log line of this file, to prove the key never leaves the server. */
const seen: string[] = [];
const logStream = { write: (line: string) => void seen.push(line) };

function aiConfig(overrides: Partial<Config['ai']> = {}): Partial<Config> {
  return {
    ai: {
      model: {
        baseUrl: standIn.settings.AI_BASE_URL,
        apiKey: standIn.settings.AI_API_KEY,
        model: standIn.settings.AI_MODEL,
      },
      helperEmailDomain: DOMAIN,
      timeoutMs: TIMEOUT_MS,
      maxTokens: 1000,
      ...overrides,
    },
  };
}

async function start(overrides: Partial<Config> = {}): Promise<TestApp> {
  return startTestApp({ ...aiConfig(), ...overrides }, { logStream });
}

const helperEmail = () => `ann-${randomUUID()}@${DOMAIN.toUpperCase()}`;

/**
 * Calls the route in-process. (Not `TestApp.request`: it would parse the NDJSON stream as one
 * JSON value.) JSON answers come back parsed, the stream as its text.
 */
async function ask(
  t: TestApp,
  token: string | undefined,
  body: unknown = BODY,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  const response = await t.app.inject({
    method: 'POST',
    url: API.ai.suggestions,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    payload: JSON.stringify(body),
  });
  seen.push(JSON.stringify(response.headers), response.body);
  const isJson = String(response.headers['content-type']).startsWith('application/json');
  return {
    status: response.statusCode,
    body: isJson ? JSON.parse(response.body) : response.body,
    headers: response.headers,
  };
}

/** The NDJSON lines of a streamed answer, each checked against the contract. */
function events(response: TestResponse): AiStreamEvent[] {
  expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
  return (response.body as string)
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => AiStreamEventSchema.parse(JSON.parse(line)));
}

const deltaText = (list: AiStreamEvent[]) =>
  list.map((event) => (event.event === 'delta' ? event.text : '')).join('');

beforeAll(async () => {
  standIn = await startAiStandIn({ chunkChars: 6 });
});
afterAll(async () => {
  await standIn.close();
});

describe('POST /api/ai/suggestions on a configured model', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await start();
    ({ token } = await t.signUp(helperEmail(), { verified: true }));
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives users of the domain the tool, and nobody else', async () => {
    const ann = await t.signUp(helperEmail(), { verified: true });
    expect(ann.user.tools).toEqual([AI_HELPER_TOOL]);
    const me = await t.request('GET', API.users.me, { token: ann.token });
    expect(me.body.user.tools).toEqual([AI_HELPER_TOOL]);
    const bob = await t.signUp(`bob-${randomUUID()}@not-${DOMAIN}`);
    expect(bob.user.tools).toBeUndefined();
  });

  it('streams the text as the model writes it, then the counted answer with the tokens', async () => {
    const before = standIn.requests.length;
    const response = await ask(t, token);
    expect(response.status).toBe(200);
    const list = events(response);
    const deltas = list.filter((event) => event.event === 'delta');
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltaText(list)).toBe(STAND_IN_DEFAULT_TEXT);
    const done = list.at(-1)!;
    expect(list.slice(0, -1).every((event) => event.event === 'delta')).toBe(true);
    if (done.event !== 'done') throw new Error(`ended with ${JSON.stringify(done)}`);
    const lines = STAND_IN_DEFAULT_TEXT.split('\n');
    expect(done.answer.text).toBe([AI_SUGGESTIONS_MARKER, ...lines].join('\n'));
    expect(done.answer.tokens).toBe(
      STAND_IN_PROMPT_TOKENS + Math.ceil(STAND_IN_DEFAULT_TEXT.length / 4),
    );
    expect(done.answer.suggestions.map((s) => [s.text, s.length, s.limit])).toEqual(
      lines.map((line) => [line, line.length, 30]),
    );
    expect(AI_MESSAGES.tokens(done.answer.tokens)).toMatch(
      /^Response generated with \d+ tokens\.$/,
    );

    // What the model was asked, and how.
    expect(standIn.requests.length).toBe(before + 1);
    const sent = standIn.requests.at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${STAND_IN_API_KEY}`);
    expect(sent.body).toMatchObject({
      model: STAND_IN_MODEL,
      temperature: 0.98,
      max_tokens: 1000,
      stream: true,
      stream_options: { include_usage: true },
    });
    const messages = sent.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]!.content).toContain('Write exactly 3 headlines');
    expect(messages[0]!.content).toContain('Write them in English.');
    expect(messages[1]!.content).toBe(
      'We sell handmade leather shoes\n\nUSPs: free shipping, 30-day returns\nLanguage: English',
    );
  });

  it('answers whole with accept: application/json, and marks what does not fit', async () => {
    standIn.answerNext({
      kind: 'text',
      text: '1. Handmade Shoes\n2. "Our Handmade Leather Shoes Last For Years"\n3. Buy Now!',
    });
    const response = await ask(
      t,
      token,
      { ...BODY, suggestionsToReturn: 3, creativity: 0.25 },
      { accept: 'application/json' },
    );
    expect(response.status).toBe(200);
    const answer = AiSuggestionsAnswerSchema.parse(response.body);
    expect(answer.suggestions).toEqual([
      { text: 'Handmade Shoes', length: 14, limit: 30 },
      {
        text: 'Our Handmade Leather Shoes Last For Years',
        length: 41,
        limit: 30,
        problem: 'Headline has 41 characters (max 30)',
      },
      {
        text: 'Buy Now!',
        length: 8,
        limit: 30,
        problem: 'Headline has "!" (Google allows none in headlines)',
      },
    ]);
    expect(answer.text.split('\n')).toHaveLength(4);
    expect(standIn.requests.at(-1)!.body.temperature).toBe(0.35);
  });

  it('counts descriptions against 90, double-width characters as 2', async () => {
    const wide = '手作りの革靴'.repeat(8);
    standIn.answerNext({ kind: 'text', text: `Handmade shoes, shipped free.\n${wide}` });
    const response = await ask(
      t,
      token,
      { ...BODY, type: 'descriptions' },
      { accept: 'application/json' },
    );
    expect(response.body.suggestions).toEqual([
      { text: 'Handmade shoes, shipped free.', length: 29, limit: 90 },
      { text: wide, length: 96, limit: 90, problem: 'Description has 96 characters (max 90)' },
    ]);
  });

  it.each([
    ['429 (retried once)', [429, 429], 429, 'ai_rate_limited', AI_MESSAGES.modelBusy],
    ['500 (retried once)', [500, 500], 502, 'ai_unavailable', AI_MESSAGES.modelFailed],
    ['503 (retried once)', [503, 503], 502, 'ai_unavailable', AI_MESSAGES.modelFailed],
  ])(
    'answers the model’s %s before the stream as %s',
    async (_, statuses, status, code, message) => {
      const before = standIn.requests.length;
      standIn.answerNext(...statuses.map((s) => ({ kind: 'status' as const, status: s })));
      const response = await ask(t, token);
      expect([response.status, response.body.error.code, response.body.error.message]).toEqual([
        status,
        code,
        message,
      ]);
      expect(standIn.requests.length).toBe(before + 2);
    },
  );

  it('gets the answer when the retry succeeds', async () => {
    standIn.answerNext({ kind: 'status', status: 500 });
    const response = await ask(t, token, BODY, { accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.body.suggestions).toHaveLength(3);
  });

  it('answers a refusal or a content filter with 422 ai_refused', async () => {
    standIn.answerNext(
      { kind: 'refusal', refusal: "I can't help with that." },
      { kind: 'text', text: '', finishReason: 'content_filter' },
    );
    for (let i = 0; i < 2; i += 1) {
      const response = await ask(t, token);
      expect([response.status, response.body.error.code, response.body.error.message]).toEqual([
        422,
        'ai_refused',
        AI_MESSAGES.refused,
      ]);
    }
  });

  it('answers a model too slow to begin with 502 within the timeout, and lets go of it', async () => {
    const before = standIn.requests.length;
    standIn.answerNext({ kind: 'stallAfterChunks', text: 'x', chunks: 0 });
    const startedAt = Date.now();
    const response = await ask(t, token);
    const elapsed = Date.now() - startedAt;
    expect([response.status, response.body.error.code, response.body.error.message]).toEqual([
      502,
      'ai_unavailable',
      AI_MESSAGES.modelFailed,
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 2000);
    await expect.poll(() => standIn.openStalls()).toBe(0);
    // The deadline covers the retry too: no second request was started.
    expect(standIn.requests.length).toBe(before + 1);
  });

  it.each([
    [
      'a 500',
      { kind: 'failAfterChunks', text: STAND_IN_DEFAULT_TEXT, chunks: 2, status: 500 },
      'ai_unavailable',
      AI_MESSAGES.modelFailed,
    ],
    [
      'a 429',
      { kind: 'failAfterChunks', text: STAND_IN_DEFAULT_TEXT, chunks: 2, status: 429 },
      'ai_rate_limited',
      AI_MESSAGES.modelBusy,
    ],
    [
      'a stall',
      { kind: 'stallAfterChunks', text: STAND_IN_DEFAULT_TEXT, chunks: 2 },
      'ai_unavailable',
      AI_MESSAGES.modelFailed,
    ],
  ] as const)(
    'ends a stream that began with an error event after %s',
    async (_, answer, code, message) => {
      standIn.answerNext(answer);
      const response = await ask(t, token);
      expect(response.status).toBe(200);
      const list = events(response);
      expect(deltaText(list)).toBe(STAND_IN_DEFAULT_TEXT.slice(0, 12));
      expect(list.at(-1)).toEqual({ event: 'error', code, message });
      expect(list.filter((event) => event.event !== 'delta')).toHaveLength(1);
      await expect.poll(() => standIn.openStalls()).toBe(0);
    },
  );

  it('answers an empty answer as a failure, not an empty list', async () => {
    standIn.answerNext({ kind: 'text', text: '\n \n' });
    const response = await ask(t, token);
    expect([response.status, response.body.error.code]).toEqual([502, 'ai_unavailable']);
  });

  it('refuses bodies with the spec’s messages before calling the model', async () => {
    const before = standIn.requests.length;
    const cases = [
      [{ ...BODY, description: '   ' }, AI_MESSAGES.noDescription],
      [
        { ...BODY, description: `Shoes\n${AI_SUGGESTIONS_MARKER}\nOld one` },
        AI_MESSAGES.deletePrevious,
      ],
      [{ ...BODY, suggestionsToReturn: 11 }, 'Ask for 3 to 10 headlines'],
      [{ ...BODY, type: 'descriptions', suggestionsToReturn: 6 }, 'Ask for 3 to 5 descriptions'],
    ] as const;
    for (const [body, message] of cases) {
      const response = await ask(t, token, body);
      expect([response.status, response.body.error.code, response.body.errors[0].msg]).toEqual([
        400,
        'validation_failed',
        message,
      ]);
    }
    expect(standIn.requests.length).toBe(before);
  });

  it('refuses users of another domain (403) and signed-out calls (401)', async () => {
    const bob = await t.signUp(`bob-${randomUUID()}@example.com`);
    const before = standIn.requests.length;
    const forbidden = await ask(t, bob.token);
    expect([forbidden.status, forbidden.body.error.code]).toEqual([403, 'forbidden']);
    const signedOut = await ask(t, undefined);
    expect([signedOut.status, signedOut.body.error.code]).toEqual([401, 'unauthorized']);
    expect(standIn.requests.length).toBe(before);
  });

  it('ends the model’s request when the person hangs up mid-stream', async () => {
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    standIn.answerNext({ kind: 'stallAfterChunks', text: STAND_IN_DEFAULT_TEXT, chunks: 1 });
    // A plain one-connection request (fetch's pool would keep a spare connection open).
    const request = httpRequest({
      host: address.hostname,
      port: address.port,
      method: 'POST',
      path: API.ai.suggestions,
      agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    request.on('error', () => {});
    request.end(JSON.stringify(BODY));
    const response = await new Promise<IncomingMessage>((resolve) =>
      request.on('response', resolve),
    );
    expect(response.statusCode).toBe(200);
    const [firstPiece] = (await once(response, 'data')) as [Buffer];
    expect(firstPiece.toString('utf8')).toContain('"event":"delta"');
    expect(standIn.openStalls()).toBe(1);
    request.destroy();
    // Well before the timeout would have ended it.
    await expect.poll(() => standIn.openStalls(), { timeout: TIMEOUT_MS / 2 }).toBe(0);
  });
});

describe('POST /api/ai/suggestions: limits and settings', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('says which settings are missing when the model is not configured (501)', async () => {
    t = await start(aiConfig({ model: undefined }));
    const { token, user } = await t.signUp(helperEmail(), { verified: true });
    // The tool is still given: the panel says what is missing.
    expect(user.tools).toEqual([AI_HELPER_TOOL]);
    const response = await ask(t, token);
    expect([response.status, response.body.error.code, response.body.error.message]).toEqual([
      501,
      'not_configured',
      AI_MESSAGES.notConfigured,
    ]);
  });

  it('limits each user per hour, with a clear message and Retry-After', async () => {
    t = await start({ rateLimit: { ...testConfig().rateLimit, aiSuggestionsPerUserPerHour: 2 } });
    const ann = await t.signUp(helperEmail(), { verified: true });
    const other = await t.signUp(helperEmail(), { verified: true });
    for (let i = 0; i < 2; i += 1) expect((await ask(t, ann.token)).status).toBe(200);
    const limited = await ask(t, ann.token);
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
    expect(limited.body.error.message).toBe(
      'You have asked the AI helper for suggestions 2 times in the last hour, the most this server allows. Try again in 60 minutes.',
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
    // Another user of the domain has their own count.
    expect((await ask(t, other.token)).status).toBe(200);
  });
});

describe('the API key', () => {
  it('never appeared in an answer or a log line of this file', () => {
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.filter((text) => text.includes(STAND_IN_API_KEY))).toEqual([]);
    expect(seen.filter((text) => text.includes('stand-in-0123456789'))).toEqual([]);
  });
});
