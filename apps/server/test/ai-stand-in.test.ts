import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STAND_IN_API_KEY,
  STAND_IN_DEFAULT_TEXT,
  STAND_IN_MODEL,
  startAiStandIn,
  type AiStandIn,
} from './ai-stand-in.ts';

// The stand-in is what proves the server's AI client; these tests prove it speaks the Chat
// Completions protocol over HTTP: whole and streamed answers, usage only when asked, errors.

let standIn: AiStandIn;
beforeAll(async () => {
  standIn = await startAiStandIn({ chunkChars: 5 });
});
afterAll(() => standIn.close());

function ask(body: Record<string, unknown>, key = STAND_IN_API_KEY, signal?: AbortSignal) {
  return fetch(`${standIn.settings.AI_BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: STAND_IN_MODEL,
      messages: [{ role: 'user', content: 'Shoes' }],
      ...body,
    }),
    ...(signal ? { signal } : {}),
  });
}

/** The `data:` payloads of a server-sent event stream, parsed (except [DONE]). */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
}

type Chunk = {
  choices: { delta: { content?: string; refusal?: string }; finish_reason: string | null }[];
  usage?: { total_tokens: number };
};

describe('AI stand-in', () => {
  it('answers whole, with the usage, and records the request', async () => {
    const response = await ask({ temperature: 0.5 });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      choices: { message: { content: string }; finish_reason: string }[];
      usage: { total_tokens: number };
    };
    expect(body.choices[0]!.message.content).toBe(STAND_IN_DEFAULT_TEXT);
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    const last = standIn.requests.at(-1)!;
    expect(last.authorization).toBe(`Bearer ${STAND_IN_API_KEY}`);
    expect(last.body.temperature).toBe(0.5);
    // A journey reads the same record over HTTP.
    const recorded = (await (await fetch(`${standIn.url}/stand-in/requests`)).json()) as unknown[];
    expect(recorded).toEqual(JSON.parse(JSON.stringify(standIn.requests)));
  });

  it('streams pieces, then a finish reason, the usage only when asked, then [DONE]', async () => {
    standIn.answerNext({ kind: 'text', text: 'Hello shoes' });
    const withUsage = await events(
      await ask({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(withUsage.at(-1)).toBe('[DONE]');
    const chunks = withUsage.slice(0, -1) as Chunk[];
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello shoes');
    expect(chunks.filter((c) => c.choices[0]?.delta.content).length).toBe(3);
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage!.total_tokens).toBeGreaterThan(0);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');

    const without = (await events(await ask({ stream: true }))).slice(0, -1) as Chunk[];
    expect(without.some((c) => c.usage !== undefined)).toBe(false);
  });

  it('refuses a wrong key with 401 and answers scheduled errors in OpenAI shape', async () => {
    expect((await ask({}, 'sk-wrong')).status).toBe(401);
    standIn.answerNext({ kind: 'status', status: 429 }, { kind: 'status', status: 500 });
    const busy = await ask({ stream: true });
    expect(busy.status).toBe(429);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe(
      'rate_limit_exceeded',
    );
    expect((await ask({ stream: true })).status).toBe(500);
    expect((await ask({})).status).toBe(200);
  });

  it('fails inside a stream that began, and refuses in delta.refusal', async () => {
    standIn.answerNext(
      { kind: 'failAfterChunks', text: 'Hello shoes', chunks: 1, status: 500 },
      { kind: 'refusal', refusal: "I can't help with that." },
    );
    const failed = await events(await ask({ stream: true }));
    expect((failed.at(-1) as { error: { type: string } }).error.type).toBe('server_error');
    expect(failed).not.toContain('[DONE]');
    const refused = (await events(await ask({ stream: true }))).slice(0, -1) as Chunk[];
    expect(refused.map((c) => c.choices[0]?.delta.refusal ?? '').join('')).toBe(
      "I can't help with that.",
    );
  });

  it('stalls: holds the connection open until the client gives up', async () => {
    standIn.answerNext({ kind: 'stallAfterChunks', text: 'Hello shoes', chunks: 0 });
    const controller = new AbortController();
    const pending = ask({ stream: true }, STAND_IN_API_KEY, controller.signal);
    await expect.poll(() => standIn.openStalls()).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => standIn.openStalls()).toBe(0);
  });
});
