import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDbKind, type TestApp } from './helpers.ts';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers ok with the kind of database in use', async () => {
    const response = await t.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ok: true,
      database: testDbKind() === 'postgres' ? 'postgres' : 'embedded',
    });
  });
});
