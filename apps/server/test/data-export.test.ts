import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { API } from '@adloom/contract';
import { startTestApp, type TestApp } from './helpers.ts';

const row = (id: string, root: string, url = '') => ({
  id,
  root,
  mod: 'air max',
  var1: '',
  var2: '',
  var3: '',
  url,
});

/** GET /api/users/me/data as the holder of `token`: the status, headers and the zip's files. */
async function downloadData(t: TestApp, token?: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: API.users.myData,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const files =
    response.statusCode === 200
      ? Object.fromEntries(
          Object.entries(unzipSync(new Uint8Array(response.rawPayload))).map(([name, bytes]) => [
            name,
            // Kept: the byte order mark is part of the file.
            new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
          ]),
        )
      : {};
  return { status: response.statusCode, headers: response.headers, files };
}

describe('Download my data', () => {
  let t: TestApp;
  let alice: { token: string; email: string };
  let bob: { token: string; email: string };

  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.signUp();
    bob = await t.signUp();
    for (const name of ['Acme', 'Shoes/Boots']) {
      const created = await t.request('POST', API.app.clients, {
        token: alice.token,
        body: { name },
      });
      expect(created.status).toBe(200);
    }
    const saved = await t.request('POST', API.app.feeds, {
      token: alice.token,
      body: {
        name: 'Acme',
        feeds: [
          {
            name: 'brands',
            rows: [
              row('a', 'Nike, "Air"', 'https://shop.example/nike?a=1'),
              row('b', 'Ünïcode 東京'),
            ],
          },
        ],
      },
    });
    expect(saved.status).toBe(200);
    const templates = await t.request('POST', API.app.saveCampaignTemplates, {
      token: alice.token,
      body: {
        name: 'Acme',
        templates: [{ name: 'Brand', keywords: [{ keyword: '{root}', matchType: 'Exact' }] }],
      },
    });
    expect(templates.status).toBe(200);
    const lists = await t.request('POST', API.app.lists, {
      token: alice.token,
      body: { feeds: [{ name: 'cities', dataType: 'list', rows: [row('l1', 'london')] }] },
    });
    expect(lists.status).toBe(200);
    await t.request('POST', API.app.clients, { token: bob.token, body: { name: 'Bobco' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a zip of every client with its feeds as CSV and templates as JSON', async () => {
    const { status, headers, files } = await downloadData(t, alice.token);
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/zip');
    expect(String(headers['content-disposition'])).toMatch(
      /^attachment; filename="adloom-data-\d{8}\.zip"$/,
    );
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.txt',
        'account.json',
        'lists/lists.json',
        'lists/cities.csv',
        'clients/Acme/client.json',
        'clients/Acme/feeds/brands.csv',
        'clients/Shoes_Boots/client.json',
      ].sort(),
    );
    expect(JSON.parse(files['account.json']!)).toMatchObject({ email: alice.email });
    expect(files['account.json']).not.toMatch(/password|hash|token/i);
    expect(files['clients/Acme/feeds/brands.csv']).toBe(
      '\uFEFFRoot,Modifier,Var 1,Var 2,Var 3,Final URL,Status\r\n' +
        '"Nike, ""Air""",air max,,,,https://shop.example/nike?a=1,\r\n' +
        'Ünïcode 東京,air max,,,,,\r\n',
    );
    const client = JSON.parse(files['clients/Acme/client.json']!);
    expect(client.name).toBe('Acme');
    expect(client.campaignTemplates).toEqual([
      expect.objectContaining({
        name: 'Brand',
        keywords: [expect.objectContaining({ keyword: '{root}' })],
      }),
    ]);
    expect(client.feeds).toEqual([
      expect.objectContaining({ name: 'brands', rowCount: 2, rowsFile: 'feeds/brands.csv' }),
    ]);
    expect(client).not.toHaveProperty('revisions');
    expect(files['lists/cities.csv']).toContain('london');
  });

  it("holds only the signed-in person's data", async () => {
    const { status, files } = await downloadData(t, bob.token);
    expect(status).toBe(200);
    expect(Object.keys(files).filter((name) => name.startsWith('clients/'))).toEqual([
      'clients/Bobco/client.json',
    ]);
    expect(JSON.stringify(files)).not.toContain('Nike');
    expect(JSON.parse(files['account.json']!)).toMatchObject({ email: bob.email });
  });

  it('needs a session', async () => {
    const { status } = await downloadData(t);
    expect(status).toBe(401);
  });
});
