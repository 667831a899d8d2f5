import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '@adloom/contract';
import { startTestApp, testDbKind, type TestApp } from './helpers.ts';

describe('GET /api/health and GET /api/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answer ok with the kind of database in use', async () => {
    const expected = { ok: true, database: testDbKind() === 'postgres' ? 'postgres' : 'embedded' };
    for (const path of [API.health, API.ready]) {
      const response = await t.request('GET', path);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(expected);
    }
  });
});
