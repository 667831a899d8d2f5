import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, clientPath } from '@adloom/contract';
import { startTestApp, type TestApp } from './helpers.ts';

// A client's legacy expanded text ad templates must come through every save unchanged: their own
// save of the loaded set, and the saves of the other template kinds (which the web app makes
// while the legacy set is only listed or converted to an RSA template).

const LEGACY = [
  {
    name: 'Shoes ETA',
    templates: [
      [
        {
          h1: '{root} Shoes',
          h2: 'Free Delivery',
          h3: '{KeyWord:Best Shoes}',
          dl1: 'Buy {root} {mod} online – 日本 ✓',
          dl2: '-50% "today", only',
          p1: '{root}',
          p2: 'sale',
          adType: 'Expanded text ad',
          label: 'yyyymmdd-v1;brand',
        },
        {
          h1: '{root}',
          h2: 'Shop now',
          h3: '',
          dl1: 'Short fallback',
          dl2: '',
          p1: '',
          p2: '',
          adType: 'Expanded text ad',
          label: '',
        },
      ],
      [
        {
          h1: 'Version two',
          h2: '{mod}',
          h3: '',
          dl1: 'Second ad',
          dl2: '',
          p1: 'v2',
          p2: '',
          adType: 'Expanded text ad',
          label: 'yyyymmdd-v2',
        },
      ],
    ],
  },
  // Legacy names are not made unique.
  {
    name: 'Shoes ETA',
    templates: [
      [
        {
          h1: 'Copy',
          h2: 'B',
          h3: '',
          dl1: 'C',
          dl2: '',
          p1: '',
          p2: '',
          adType: '',
          label: '',
        },
      ],
    ],
  },
];

describe('legacy expanded text ad templates', () => {
  let t: TestApp;
  let token: string;
  let client: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
    const created = await t.request('POST', API.app.clients, { token, body: { name: 'Legacy' } });
    client = created.body.name as string;
  });
  afterAll(async () => {
    await t.close();
  });

  it('stay intact through their own saves and the saves of every other kind', async () => {
    const saved = await t.request('POST', API.app.saveAdTemplates, {
      token,
      body: { name: client, templates: LEGACY },
    });
    expect(saved.status).toBe(200);
    const withoutIds = saved.body.templates.map(({ _id, ...rest }: { _id: string }) => {
      expect(_id).toMatch(/^[0-9a-f-]{36}$/);
      return rest;
    });
    expect(withoutIds).toEqual(LEGACY);

    // Saving the loaded set back (what an autosave does) changes nothing but the revision.
    const loaded = await t.request('GET', clientPath(client), { token });
    expect(loaded.body.adTemplates).toEqual(saved.body.templates);
    const resaved = await t.request('POST', API.app.saveAdTemplates, {
      token,
      body: {
        name: client,
        revision: loaded.body.revisions.adTemplates,
        templates: loaded.body.adTemplates,
      },
    });
    expect(resaved.status).toBe(200);
    expect(resaved.body.templates).toEqual(saved.body.templates);

    // An RSA made from the legacy ad, an extension and a campaign template are saved.
    const others: [string, unknown][] = [
      [
        API.app.saveRsaTemplates,
        {
          name: 'Shoes ETA',
          templates: [
            {
              headlines: [
                { text: '{root} Shoes', pos: 0 },
                { text: 'Free Delivery', pos: 0 },
                { text: '{KeyWord:Best Shoes}', pos: 0 },
              ],
              descriptions: [
                { text: 'Buy', pos: 0 },
                { text: 'Now', pos: 0 },
              ],
              paths: ['{root}', 'sale'],
              labels: ['yyyymmdd-v1', 'brand'],
            },
          ],
        },
      ],
      [
        API.app.saveExtensionTemplates,
        { name: 'Callouts', extensionType: 'Callout', templates: [{ 'Callout text': 'Free' }] },
      ],
      [API.app.saveCampaignTemplates, { name: 'Campaign', campaign: '{root}', adGroup: '{mod}' }],
      [API.app.savePerformanceMaxTemplates, { name: 'PMax', templates: [] }],
    ];
    for (const [path, template] of others) {
      const answer = await t.request('POST', path, {
        token,
        body: { name: client, templates: [template] },
      });
      expect(answer.status, path).toBe(200);
    }
    const after = await t.request('GET', clientPath(client), { token });
    expect(after.body.adTemplates).toEqual(saved.body.templates);
    expect(after.body.revisions.adTemplates).toBe(resaved.body.revision);
    expect(after.body.rsaTemplates[0].name).toBe('Shoes ETA');
  });
});
