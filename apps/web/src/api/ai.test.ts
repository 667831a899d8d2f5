import { describe, expect, it } from 'vitest';
import { AI_SUGGESTIONS_MARKER } from '@adloom/contract';
import { ApiError } from './errors.ts';
import { createHttpClient } from './http.ts';
import { AI_STREAM_CUT_MESSAGE, readAiStream, streamAiSuggestions } from './ai.ts';

/** A byte stream sending `pieces` one by one (split anywhere, even inside a line). */
function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(bytes.encode(piece));
      controller.close();
    },
  });
}

const done = {
  event: 'done',
  answer: {
    text: `${AI_SUGGESTIONS_MARKER}\nShoes`,
    tokens: 57,
    suggestions: [{ text: 'Shoes', length: 5, limit: 30 }],
  },
};

describe('readAiStream', () => {
  it('hands over each delta as it arrives and resolves with the done answer', async () => {
    const lines = [
      JSON.stringify({ event: 'delta', text: 'Sho' }),
      JSON.stringify({ event: 'delta', text: 'es' }),
      JSON.stringify(done),
    ].join('\n');
    const deltas: string[] = [];
    // Split in the middle of lines to check the reader joins them.
    const answer = await readAiStream(streamOf([lines.slice(0, 10), lines.slice(10)]), (t) =>
      deltas.push(t),
    );
    expect(deltas).toEqual(['Sho', 'es']);
    expect(answer.tokens).toBe(57);
    expect(answer.suggestions[0]?.text).toBe('Shoes');
  });

  it('rejects with the code and message of an error line, after the deltas before it', async () => {
    const deltas: string[] = [];
    const body = [
      JSON.stringify({ event: 'delta', text: 'Half' }),
      JSON.stringify({ event: 'error', code: 'ai_unavailable', message: 'The model failed' }),
      '',
    ].join('\n');
    const failure = await readAiStream(streamOf([body]), (t) => deltas.push(t)).catch((e) => e);
    expect(deltas).toEqual(['Half']);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'ai_unavailable', message: 'The model failed' });
  });

  it('rejects when the stream ends without done or error', async () => {
    const body = JSON.stringify({ event: 'delta', text: 'Half' });
    await expect(readAiStream(streamOf([body]), () => undefined)).rejects.toThrow(
      AI_STREAM_CUT_MESSAGE,
    );
  });
});

describe('streamAiSuggestions', () => {
  it('signs the request and turns a status before the stream into an ApiError', async () => {
    const seen: Headers[] = [];
    const client = createHttpClient({
      getToken: () => 'tok-1',
      onSlowRequest: () => undefined,
      onError: () => undefined,
      fetch: (_url, init) => {
        seen.push(new Headers(init?.headers));
        return Promise.resolve(
          new Response(
            JSON.stringify({ error: { code: 'ai_rate_limited', message: 'The AI model is busy' } }),
            { status: 429, headers: { 'content-type': 'application/json' } },
          ),
        );
      },
    });
    const failure = await streamAiSuggestions(
      { type: 'headlines', description: 'Shoes' },
      () => undefined,
      undefined,
      client,
    ).catch((e) => e);
    expect(seen[0]?.get('authorization')).toBe('Bearer tok-1');
    expect(failure).toMatchObject({ status: 429, code: 'ai_rate_limited' });
  });
});
