import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  FEED_MAX_ROWS,
  FeedRowsSchema,
  SaveFeedsBodySchema,
  clientPath,
} from '@adloom/contract';
import { startTestApp, type TestApp } from './helpers.ts';

function rows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `r${i}`,
    root: `brand ${i}`,
    mod: 'running shoes',
    var1: 'red',
    var2: `size ${i % 40}`,
    var3: '',
    url: `https://shop.example.com/products/${i}`,
    status: '',
  }));
}

describe('workspace size limits', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
    await t.request('POST', API.app.clients, { token, body: { name: 'Big' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('saves and loads a 200k-row feed under the default body limit', async () => {
    const body = { name: 'Big', feeds: [{ name: 'products', rows: rows(200_000) }] };
    const saved = await t.request('POST', API.app.feeds, { token, body });
    expect(saved.status).toBe(200);
    expect(saved.body.feeds[0].rows).toHaveLength(200_000);
    const loaded = await t.request('GET', clientPath('Big'), { token });
    expect(loaded.body.feeds[0].rows).toHaveLength(200_000);
    expect(loaded.body.feeds[0].rows[199_999]).toEqual(body.feeds[0]!.rows[199_999]);
    // A generous ceiling: this checks the size is accepted, the benchmark measures the speed.
  }, 180_000);

  it('answers 413 beyond the body limit, leaving the stored feed alone', async () => {
    const small = await startTestApp({ bodyLimitBytes: 256 * 1024 });
    try {
      const u = await small.signUp();
      await small.request('POST', API.app.clients, { token: u.token, body: { name: 'C' } });
      await small.request('POST', API.app.feeds, {
        token: u.token,
        body: { name: 'C', feeds: [{ name: 'f', rows: rows(3) }] },
      });
      const response = await small.request('POST', API.app.feeds, {
        token: u.token,
        body: { name: 'C', feeds: [{ name: 'f', rows: rows(5000) }] },
      });
      expect(response.status).toBe(413);
      expect(response.body.error.code).toBe('payload_too_large');
      const bundle = await small.request('GET', clientPath('C'), { token: u.token });
      expect(bundle.body.feeds[0].rows).toHaveLength(3);
    } finally {
      await small.close();
    }
  });

  it('refuses more rows than a feed may hold, naming the field', () => {
    const tooMany = FeedRowsSchema.safeParse(new Array(FEED_MAX_ROWS + 1).fill({ root: 'x' }));
    expect(tooMany.success).toBe(false);
    const body = SaveFeedsBodySchema.safeParse({
      name: 'x',
      feeds: [{ name: 'f', rows: new Array(FEED_MAX_ROWS + 1).fill({}) }],
    });
    expect(body.success).toBe(false);
    expect(body.error?.issues[0]?.path).toEqual(['feeds', 0, 'rows']);
    expect(FeedRowsSchema.safeParse(new Array(FEED_MAX_ROWS).fill({ root: 'x' })).success).toBe(
      true,
    );
  });

  it('reports at most 20 row problems for one feed', () => {
    const result = FeedRowsSchema.safeParse(new Array(1000).fill({ root: 'x'.repeat(31) }));
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(20);
    expect(result.error?.issues[0]?.path).toEqual([0, 'root']);
  });
});
