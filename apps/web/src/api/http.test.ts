import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionSchema } from '@adloom/contract';
import { ApiError } from './errors.ts';
import {
  BUSY_RETRIES,
  createHttpClient,
  LOADING_DELAY_MS,
  NETWORK_FAILURE_MESSAGE,
  SLOW_REQUEST_WARNING_MS,
} from './http.ts';
import { json } from './testResponses.ts';

/** A fetch whose answer the test releases by hand. */
function deferredFetch() {
  let release: (r: Response) => void = () => undefined;
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetch = vi.fn((url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    return new Promise<Response>((resolve) => {
      release = resolve;
    });
  });
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    calls,
    release: (r: Response) => release(r),
  };
}

function setup(token: string | null = 'tok-1') {
  const d = deferredFetch();
  const onSlowRequest = vi.fn();
  const onError = vi.fn();
  const client = createHttpClient({
    fetch: d.fetch,
    getToken: () => token,
    onSlowRequest,
    onError,
  });
  return { ...d, client, onSlowRequest, onError };
}

describe('HTTP client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands over a file answer as a Blob, and a failed one as an ApiError', async () => {
    const t = setup('tok-1');
    const answer = t.client.getBlob('/api/users/me/data');
    t.release(
      new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
        status: 200,
        headers: { 'content-type': 'application/zip' },
      }),
    );
    const blob = await answer;
    expect(blob.type).toBe('application/zip');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0x50, 0x4b, 3, 4]);
    expect((t.calls[0]?.init?.headers as Record<string, string>).authorization).toBe(
      'Bearer tok-1',
    );

    const failed = t.client.getBlob('/api/users/me/data', { errors: 'caller' });
    t.release(json(401, { error: { code: 'unauthorized', message: 'Sign in again' } }));
    await expect(failed).rejects.toMatchObject({ status: 401 });
    expect(t.onError).not.toHaveBeenCalled();
  });

  it('sends the token in the authorization header and JSON bodies', async () => {
    const t = setup('tok-1');
    const answer = t.client.post('/api/feedback', { type: 'Idea' });
    t.release(json(200, { ok: true }));
    await expect(answer).resolves.toEqual({ ok: true });
    const init = t.calls[0]?.init;
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(init?.body).toBe('{"type":"Idea"}');
  });

  it('sends a raw body as it is, with its content type and the extra headers', async () => {
    const t = setup('tok-1');
    const record = new Uint8Array([0x1f, 0x8b, 8]);
    const answer = t.client.request('/api/clients/c1/builds', {
      rawBody: { data: record, contentType: 'application/gzip' },
      headers: { 'adloom-build': '%7B%7D', authorization: 'not this one' },
    });
    t.release(json(201, { id: 'b1' }));
    await expect(answer).resolves.toEqual({ id: 'b1' });
    const init = t.calls[0]?.init;
    const headers = init?.headers as Record<string, string>;
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe(record);
    expect(headers['content-type']).toBe('application/gzip');
    expect(headers['adloom-build']).toBe('%7B%7D');
    expect(headers.authorization).toBe('Bearer tok-1');
  });

  it('sends no token for anonymous calls or when signed out', async () => {
    const t = setup(null);
    const answer = t.client.get('/api/health');
    t.release(json(200, {}));
    await answer;
    expect((t.calls[0]?.init?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('shows the loading indicator only after 500 ms and hides it when the call ends', async () => {
    const t = setup();
    const answer = t.client.get('/api/app/clients');
    vi.advanceTimersByTime(LOADING_DELAY_MS - 1);
    expect(t.client.isLoading.get()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(t.client.isLoading.get()).toBe(true);
    t.release(json(200, []));
    await answer;
    expect(t.client.isLoading.get()).toBe(false);
  });

  it('never shows the indicator for a fast call or an exempt one', async () => {
    const t = setup();
    const fast = t.client.get('/api/app/clients');
    t.release(json(200, []));
    await fast;
    const exempt = t.client.post('/api/google/download-list', {}, { isLoadingExempt: true });
    vi.advanceTimersByTime(2000);
    expect(t.client.isLoading.get()).toBe(false);
    t.release(json(200, {}));
    await exempt;
  });

  it('warns once a call runs past 15 s, without aborting it', async () => {
    const t = setup();
    const answer = t.client.get('/api/app/lists');
    vi.advanceTimersByTime(SLOW_REQUEST_WARNING_MS - 1);
    expect(t.onSlowRequest).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(t.onSlowRequest).toHaveBeenCalledWith('/api/app/lists');
    t.release(json(200, [{ name: 'brands' }]));
    await expect(answer).resolves.toEqual([{ name: 'brands' }]);
    vi.advanceTimersByTime(SLOW_REQUEST_WARNING_MS);
    expect(t.onSlowRequest).toHaveBeenCalledTimes(1);
  });

  it('fails with an ApiError and passes it to the generic handler', async () => {
    const t = setup();
    const answer = t.client.get('/api/app/clients');
    t.release(
      json(503, { error: { code: 'service_unavailable', message: 'Database unavailable' } }),
    );
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(t.onError).toHaveBeenCalledWith(error);
  });

  it('leaves errors to the caller when asked', async () => {
    const t = setup();
    const answer = t.client.post('/api/users/login', {}, { errors: 'caller' });
    t.release(json(404, { error: { code: 'not_found', message: 'nope' } }));
    await expect(answer).rejects.toMatchObject({ status: 404, message: 'nope' });
    expect(t.onError).not.toHaveBeenCalled();
  });

  it('reports a network failure as status 0', async () => {
    const onError = vi.fn();
    const client = createHttpClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      getToken: () => null,
      onSlowRequest: vi.fn(),
      onError,
    });
    await expect(client.get('/api/health')).rejects.toMatchObject({
      status: 0,
      hasResponse: false,
      // In plain words, not the browser's ('Failed to fetch', 'Load failed', 'NetworkError…').
      message: NETWORK_FAILURE_MESSAGE,
    });
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('validates the answer against a schema', async () => {
    const t = setup();
    const answer = t.client.post(
      '/api/users/login',
      {},
      { schema: SessionSchema, errors: 'caller' },
    );
    t.release(json(200, { token: 'x' }));
    await expect(answer).rejects.toMatchObject({ code: 'bad_response' });
  });

  it('warns about a stream only while its answer has not begun', async () => {
    const t = setup('tok-1');
    const waiting = t.client.postStream('/api/ai/suggestions', { type: 'headlines' });
    await vi.advanceTimersByTimeAsync(SLOW_REQUEST_WARNING_MS);
    expect(t.onSlowRequest).toHaveBeenCalledTimes(1);
    expect(new Headers(t.calls[0]?.init?.headers).get('authorization')).toBe('Bearer tok-1');
    t.release(new Response('{"event":"delta","text":"a"}\n', { status: 200 }));
    await waiting;

    const sending = t.client.postStream('/api/ai/suggestions', { type: 'headlines' });
    t.release(new Response('{"event":"delta","text":"a"}\n', { status: 200 }));
    await sending;
    await vi.advanceTimersByTimeAsync(SLOW_REQUEST_WARNING_MS * 2);
    expect(t.onSlowRequest).toHaveBeenCalledTimes(1);
  });
});

describe('HTTP client, when the server is busy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function busy(code: string, retryAfter: string | null): Response {
    return new Response(JSON.stringify({ error: { code, message: `busy: ${code}` } }), {
      status: 429,
      headers: {
        'content-type': 'application/json',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
      },
    });
  }

  /** A fetch that answers from `answers` in turn, counting the calls. */
  function answering(answers: Response[]) {
    const fetch = vi.fn(async () => answers.shift() ?? json(500, {}));
    const client = createHttpClient({
      fetch: fetch as unknown as typeof globalThis.fetch,
      getToken: () => 'tok',
      onSlowRequest: vi.fn(),
      onError: vi.fn(),
    });
    return { fetch, client };
  }

  it('sends a save answered save_in_progress again after Retry-After, and answers its result', async () => {
    const t = answering([busy('save_in_progress', '2'), json(200, { revision: 3 })]);
    const answer = t.client.post('/api/app/feeds', { name: 'Shop' });
    await vi.advanceTimersByTimeAsync(1999);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toEqual({ revision: 3 });
    expect(t.fetch).toHaveBeenCalledTimes(2);
  });

  it('waits 2 s when the busy answer names no wait', async () => {
    const t = answering([busy('server_busy', null), json(200, { ok: true })]);
    const answer = t.client.get('/api/app/clients');
    await vi.advanceTimersByTimeAsync(1999);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toEqual({ ok: true });
  });

  it('shows the 429 once the server stayed busy for every retry', async () => {
    const t = answering(Array.from({ length: BUSY_RETRIES + 1 }, () => busy('server_busy', '1')));
    const answer = t.client.post('/api/app/lists', {}, { errors: 'caller' });
    const failure = expect(answer).rejects.toMatchObject({
      status: 429,
      code: 'server_busy',
      message: 'busy: server_busy',
    });
    await vi.advanceTimersByTimeAsync(BUSY_RETRIES * 1000);
    await failure;
    expect(t.fetch).toHaveBeenCalledTimes(BUSY_RETRIES + 1);
  });

  it('does not send again a 429 that is a refusal (too many tries)', async () => {
    const t = answering([busy('rate_limited', '60')]);
    const answer = t.client.post('/api/users/login', {}, { errors: 'caller' });
    await expect(answer).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(t.fetch).toHaveBeenCalledTimes(1);
  });
});
