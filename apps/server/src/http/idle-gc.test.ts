import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_GC_DELAY_MS, IDLE_GC_MIN_BODY_BYTES, collectAfterLargeRequests } from './idle-gc.ts';

describe('a collection once idle after a large request', () => {
  let app: FastifyInstance;
  let collections: number;

  beforeEach(async () => {
    // Only the idle timer is faked: the requests run as they do in the server.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    collections = 0;
    app = Fastify({ bodyLimit: 4 * IDLE_GC_MIN_BODY_BYTES });
    app.post('/save', async (request) => ({ bytes: String(request.body).length }));
    collectAfterLargeRequests(app, () => {
      collections += 1;
    });
    await app.ready();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await app.close();
  });

  const post = async (bytes: number) => {
    const response = await app.inject({
      method: 'POST',
      url: '/save',
      headers: { 'content-type': 'text/plain' },
      payload: 'x'.repeat(bytes),
    });
    expect(response.json()).toEqual({ bytes });
  };

  it('collects once, the delay after a body of a megabyte or more', async () => {
    await post(IDLE_GC_MIN_BODY_BYTES);
    vi.advanceTimersByTime(IDLE_GC_DELAY_MS - 1);
    expect(collections).toBe(0);
    vi.advanceTimersByTime(1);
    expect(collections).toBe(1);
    vi.advanceTimersByTime(10 * IDLE_GC_DELAY_MS);
    expect(collections).toBe(1);
  });

  it('waits for the last of large requests close together', async () => {
    await post(IDLE_GC_MIN_BODY_BYTES);
    vi.advanceTimersByTime(IDLE_GC_DELAY_MS - 1);
    await post(2 * IDLE_GC_MIN_BODY_BYTES);
    vi.advanceTimersByTime(IDLE_GC_DELAY_MS - 1);
    expect(collections).toBe(0);
    vi.advanceTimersByTime(1);
    expect(collections).toBe(1);
  });

  it('does not collect after smaller requests', async () => {
    await post(IDLE_GC_MIN_BODY_BYTES - 1);
    await post(1000);
    vi.advanceTimersByTime(10 * IDLE_GC_DELAY_MS);
    expect(collections).toBe(0);
  });
});
