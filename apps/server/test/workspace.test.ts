import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  LISTS_SAVED_MESSAGE,
  TEMPLATE_KINDS,
  TEMPLATE_SAVE_PATHS,
  WAITING_LIST_MESSAGE,
  clientPath,
} from '@adloom/contract';
import type { TemplateKind } from '@adloom/contract';
import { startTestApp, type TestApp } from './helpers.ts';

/** One valid template of each kind. */
const SAMPLE: Record<TemplateKind, Record<string, unknown>> = {
  campaignTemplates: {
    name: 'Brand',
    campaign: '{root}',
    adGroup: '{mod}',
    keywords: [{ keyword: '{root} {mod}', matchType: 'Phrase' }],
  },
  adTemplates: { name: 'Legacy', templates: [[{ h1: '{root}', h2: 'Shop', dl1: 'Buy now' }]] },
  rsaTemplates: {
    name: 'RSA',
    templates: [
      {
        headlines: [
          { text: '{root}', pos: 1 },
          { text: 'Shop', pos: 0 },
        ],
        descriptions: [{ text: 'Buy', pos: 0 }],
        paths: ['a', 'b'],
        labels: ['x'],
      },
    ],
  },
  performanceMaxTemplates: {
    name: 'PMax',
    templates: [
      {
        headlines: [{ text: 'H', pos: 0 }],
        longHeadlines: [{ text: 'LH', pos: 0 }],
        descriptions: [{ text: 'D', pos: 0 }],
        businessName: 'Acme',
        callToAction: 'Shop now',
      },
    ],
  },
  extensionTemplates: {
    name: 'Callouts',
    extensionType: { name: 'Callout' },
    templates: [{ 'Callout text': 'Free shipping' }],
  },
};

function row(root: string, extra: Record<string, unknown> = {}) {
  return { root, mod: '', var1: '', var2: '', var3: '', url: '', ...extra };
}

describe('workspace API', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
  });
  afterAll(async () => {
    await t.close();
  });

  async function newClient(name: string): Promise<string> {
    const response = await t.request('POST', API.app.clients, { token, body: { name } });
    expect(response.status).toBe(200);
    return response.body.name as string;
  }

  describe('clients', () => {
    it('creates clients with unique names, lists them and deletes one', async () => {
      const u = await t.signUp();
      const first = await t.request('POST', API.app.clients, {
        token: u.token,
        body: { name: 'Acme' },
      });
      expect(first.body).toEqual({ name: 'Acme', clients: ['Acme'] });
      const second = await t.request('POST', API.app.clients, {
        token: u.token,
        body: { name: 'Acme' },
      });
      expect(second.body).toEqual({ name: 'Acme (1)', clients: ['Acme', 'Acme (1)'] });
      const third = await t.request('POST', API.app.clients, {
        token: u.token,
        body: { name: '  Acme  ' },
      });
      expect(third.body.name).toBe('Acme (2)');
      expect((await t.request('GET', API.app.clients, { token: u.token })).body).toEqual([
        'Acme',
        'Acme (1)',
        'Acme (2)',
      ]);
      const removed = await t.request('DELETE', API.app.clients, {
        token: u.token,
        body: { name: 'Acme (1)' },
      });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual(['Acme', 'Acme (2)']);
      const again = await t.request('DELETE', API.app.clients, {
        token: u.token,
        body: { name: 'Acme (1)' },
      });
      expect(again.status).toBe(404);
    });

    it('keeps names with any characters a person types, through the URL', async () => {
      const names = [
        'Müller & Söhne / Köln?',
        '100% #1 "best" \\ client',
        '日本の顧客 🚀',
        'a'.repeat(200),
        'dots . and %2F',
      ];
      for (const name of names) {
        expect(await newClient(name)).toBe(name);
        const bundle = await t.request('GET', clientPath(name), { token });
        expect(bundle.status, name).toBe(200);
        expect(bundle.body.feeds).toEqual([]);
      }
    });

    it('answers 400 naming the field for an empty or too long name, 404 for an unknown client', async () => {
      const empty = await t.request('POST', API.app.clients, { token, body: { name: '   ' } });
      expect(empty.status).toBe(400);
      expect(empty.body.errors[0].path).toBe('name');
      const long = await t.request('POST', API.app.clients, {
        token,
        body: { name: 'x'.repeat(201) },
      });
      expect(long.status).toBe(400);
      expect(long.body.errors[0].path).toBe('name');
      const missing = await t.request('POST', API.app.clients, { token, body: {} });
      expect(missing.status).toBe(400);
      expect((await t.request('GET', clientPath('nobody'), { token })).status).toBe(404);
      // A malformed percent-encoding is a bad request, not a client.
      const malformed = await t.request('GET', `${API.app.clients}/%E0%A4%A`, { token });
      expect(malformed.status).toBe(400);
    });

    it('answers the bundle with all six sets and their revisions', async () => {
      const name = await newClient('Bundle');
      const bundle = await t.request('GET', clientPath(name), { token });
      const clients = await t.db.query<{ id: string }>('select id from clients where name = $1', [
        name,
      ]);
      expect(clients).toHaveLength(1);
      const [client] = clients;
      expect(bundle.body).toEqual({
        // The client's id, which the build history and loop settings calls take (issue 35).
        id: client!.id,
        feeds: [],
        campaignTemplates: [],
        adTemplates: [],
        rsaTemplates: [],
        performanceMaxTemplates: [],
        extensionTemplates: [],
        revisions: {
          feeds: 0,
          campaignTemplates: 0,
          adTemplates: 0,
          rsaTemplates: 0,
          performanceMaxTemplates: 0,
          extensionTemplates: 0,
        },
      });
    });

    it('deleting a client removes its feeds and templates', async () => {
      const name = await newClient('Doomed');
      await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: 'f', rows: [row('a')] }] },
      });
      await t.request('POST', API.app.saveRsaTemplates, {
        token,
        body: { name, templates: [SAMPLE.rsaTemplates] },
      });
      const [client] = await t.db.query<{ id: string }>('select id from clients where name = $1', [
        name,
      ]);
      await t.request('DELETE', API.app.clients, { token, body: { name } });
      const feeds = await t.db.query('select id from feeds where client_id = $1', [client!.id]);
      const templates = await t.db.query('select id from templates where client_id = $1', [
        client!.id,
      ]);
      expect(feeds).toHaveLength(0);
      expect(templates).toHaveLength(0);
    });
  });

  describe('feeds', () => {
    it('stores trimmed rows, keeps ids, drops the selection and answers the saved state', async () => {
      const name = await newClient('Feeds');
      const saved = await t.request('POST', API.app.feeds, {
        token,
        body: {
          name,
          feeds: [
            {
              name: 'brands',
              dataType: 'table',
              sheetUrl: '',
              rows: [
                {
                  id: 'r1',
                  root: '  nike ',
                  mod: 'shoes',
                  selected: true,
                  url: ' https://x.test/a ',
                },
                { root: 'adidas' },
              ],
            },
          ],
        },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.revision).toBe(1);
      expect(saved.body.name).toBe(name);
      const [feed] = saved.body.feeds;
      expect(feed.name).toBe('brands');
      expect(feed._id).toMatch(/^[0-9a-f-]{36}$/);
      expect(feed.rows[0]).toEqual({
        id: 'r1',
        root: 'nike',
        mod: 'shoes',
        var1: '',
        var2: '',
        var3: '',
        url: 'https://x.test/a',
        status: '',
      });
      // A made id: the save's random prefix and a counter (compresses well in a big bundle).
      expect(feed.rows[1].id).toMatch(/^row-[\w-]{11}-1$/);
      const bundle = await t.request('GET', clientPath(name), { token });
      expect(bundle.body.feeds).toEqual(saved.body.feeds);
      expect(bundle.body.revisions.feeds).toBe(1);

      // Saving again with the _id keeps it; a feed without one gets a new id.
      const again = await t.request('POST', API.app.feeds, {
        token,
        body: {
          name,
          revision: 1,
          feeds: [
            { ...feed, rows: [row('puma')] },
            { name: 'brands', rows: [] },
          ],
        },
      });
      expect(again.status).toBe(200);
      expect(again.body.feeds[0]._id).toBe(feed._id);
      expect(again.body.feeds[1].name).toBe('brands (1)');
      expect(again.body.feeds[1]._id).not.toBe(feed._id);
    });

    it('does not rewrite unchanged rows, but still saves a rename', async () => {
      const name = await newClient('Autosave');
      const first = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: 'f', rows: [row('a', { id: 'x1' })] }] },
      });
      const feed = first.body.feeds[0];
      const version = async () =>
        (
          await t.db.query<{ rows_version: string }>(
            'select rows_version from feeds where id = $1',
            [feed._id],
          )
        )[0]!.rows_version;
      const before = await version();
      const renamed = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ ...feed, name: 'renamed' }] },
      });
      expect(renamed.body.feeds[0]).toEqual({ ...feed, name: 'renamed' });
      expect(await version()).toBe(before);
      const changed = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ ...feed, rows: [row('b', { id: 'x1' })] }] },
      });
      expect(changed.body.feeds[0].rows[0].root).toBe('b');
      expect(await version()).not.toBe(before);
      expect((await t.request('GET', clientPath(name), { token })).body.feeds).toEqual(
        changed.body.feeds,
      );
    });

    it('keeps the rows a feed holds when it is linked to a spreadsheet, as its copy', async () => {
      const name = await newClient('Linked');
      const saved = await t.request('POST', API.app.feeds, {
        token,
        body: {
          name,
          feeds: [
            {
              name: 'sheet',
              sheetUrl: 'https://docs.google.com/spreadsheets/d/abc',
              sheetName: 'Tab',
              rows: [row('a'), row('b')],
            },
          ],
        },
      });
      expect(saved.body.feeds[0]).toMatchObject({
        sheetUrl: 'https://docs.google.com/spreadsheets/d/abc',
        sheetName: 'Tab',
        rows: [row('a'), row('b')],
        sheetSync: { direction: 'kept', rows: 2 },
      });
      expect((await t.request('GET', clientPath(name), { token })).body.feeds).toEqual(
        saved.body.feeds,
      );
    });

    it('answers 400 naming the field for bad cells', async () => {
      const name = await newClient('BadCells');
      const cases: [unknown, string][] = [
        [{ root: 'x'.repeat(31) }, 'feeds.0.rows.0.root'],
        [{ var3: 'y'.repeat(31) }, 'feeds.0.rows.0.var3'],
        // Issue 36: a Final URL is stored whole up to a storage bound far above Google's 2,048.
        [{ url: `https://x.test/${'u'.repeat(65_536)}` }, 'feeds.0.rows.0.url'],
        [{ mod: 5 }, 'feeds.0.rows.0.mod'],
        [{ root: 'nul\u0000' }, 'feeds.0.rows.0.root'],
        ['not a row', 'feeds.0.rows.0'],
      ];
      for (const [bad, path] of cases) {
        const response = await t.request('POST', API.app.feeds, {
          token,
          body: { name, feeds: [{ name: 'f', rows: [bad] }] },
        });
        expect(response.status, path).toBe(400);
        expect(response.body.error.code).toBe('validation_failed');
        expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      // 30 characters after trimming is fine.
      const ok = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: 'f', rows: [{ root: ` ${'x'.repeat(30)} ` }] }] },
      });
      expect(ok.status).toBe(200);
      const badType = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: 'f', dataType: 'grid', rows: [] }] },
      });
      expect(badType.body.errors[0].path).toBe('feeds.0.dataType');
      const noName = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: '', rows: [] }] },
      });
      expect(noName.body.errors[0].path).toBe('feeds.0.name');
    });

    it('answers 400 for a body that is not JSON, and ignores prototype keys', async () => {
      const name = await newClient('Json');
      const headers = { 'content-type': 'application/json' };
      for (const path of [API.app.feeds, API.app.lists]) {
        const broken = await t.request('POST', path, { token, headers, body: '{"feeds": [' });
        expect(broken.status, path).toBe(400);
        expect(broken.body.error.code).toBe('bad_request');
        const empty = await t.request('POST', path, { token, headers, body: ' ' });
        expect(empty.status, path).toBe(400);
      }
      const poisoned = `{"name": ${JSON.stringify(name)}, "__proto__": {"isAdmin": true}, "feeds": [{"name": "f", "constructor": {"prototype": {"x": 1}}, "rows": [{"root": "a", "__proto__": {"root": "b"}}]}]}`;
      const saved = await t.request('POST', API.app.feeds, { token, headers, body: poisoned });
      expect(saved.status).toBe(200);
      expect(saved.body.feeds[0].rows[0]).toMatchObject({ root: 'a', mod: '' });
      expect(Object.keys(saved.body.feeds[0]).sort()).toEqual([
        '_id',
        'dataType',
        'name',
        'rows',
        'sheetName',
        'sheetUrl',
      ]);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('answers 404 for a client the user does not have', async () => {
      const response = await t.request('POST', API.app.feeds, {
        token,
        body: { name: 'Nope', feeds: [] },
      });
      expect(response.status).toBe(404);
    });
    it('never answers rows cached before another server saved the feed', async () => {
      const name = await newClient('Two servers');
      // A second app on the same database stands for a second server process.
      const other = await startTestApp({ jwtSecret: t.config.jwtSecret }, { db: t.db });
      try {
        await t.request('POST', API.app.feeds, {
          token,
          body: { name, feeds: [{ name: 'f', rows: [row('first')] }] },
        });
        expect(
          (await t.request('GET', clientPath(name), { token })).body.feeds[0].rows[0].root,
        ).toBe('first');
        const bundle = (await other.request('GET', clientPath(name), { token })).body;
        await other.request('POST', API.app.feeds, {
          token,
          body: { name, feeds: [{ ...bundle.feeds[0], rows: [row('second')] }] },
        });
        const reloaded = await t.request('GET', clientPath(name), { token });
        expect(reloaded.body.feeds[0].rows.map((r: { root: string }) => r.root)).toEqual([
          'second',
        ]);
      } finally {
        await other.app.close();
      }
    });
  });

  describe('lists', () => {
    it('saves and loads the user’s lists with the success text', async () => {
      const u = await t.signUp();
      expect((await t.request('GET', API.app.lists, { token: u.token })).body).toEqual({
        revision: 0,
        feeds: [],
      });
      const saved = await t.request('POST', API.app.lists, {
        token: u.token,
        body: {
          feeds: [
            { name: 'colours', dataType: 'list', rows: [row('red'), row('blue')] },
            {
              name: 'colours',
              dataType: 'list',
              sheetUrl: 'https://docs.google.com/spreadsheets/d/x',
              rows: [row('z')],
            },
          ],
        },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.message).toBe(LISTS_SAVED_MESSAGE);
      expect(saved.body.revision).toBe(1);
      expect(saved.body.feeds.map((f: { name: string }) => f.name)).toEqual([
        'colours',
        'colours (1)',
      ]);
      expect(saved.body.feeds[1]).toMatchObject({
        rows: [row('z')],
        sheetSync: { direction: 'kept', rows: 1 },
      });
      const loaded = await t.request('GET', API.app.lists, { token: u.token });
      expect(loaded.body).toEqual({ revision: 1, feeds: saved.body.feeds });
    });

    it('turns a missing sheetUrl into empty text', async () => {
      const u = await t.signUp();
      const saved = await t.request('POST', API.app.lists, {
        token: u.token,
        body: { feeds: [{ name: 'l', dataType: 'list', sheetUrl: null, rows: [] }] },
      });
      expect(saved.body.feeds[0].sheetUrl).toBe('');
    });
  });

  describe('templates', () => {
    it.each(TEMPLATE_KINDS)('saves and loads %s', async (kind) => {
      const name = await newClient(`T ${kind}`);
      const saved = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
        token,
        body: { name, templates: [SAMPLE[kind]] },
      });
      expect(saved.status).toBe(200);
      expect(saved.body.revision).toBe(1);
      expect(saved.body.templates[0]._id).toMatch(/^[0-9a-f-]{36}$/);
      const bundle = await t.request('GET', clientPath(name), { token });
      expect(bundle.body[kind]).toEqual(saved.body.templates);
      expect(bundle.body.revisions[kind]).toBe(1);
      // The _id survives the next save.
      const again = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
        token,
        body: { name, revision: 1, templates: saved.body.templates },
      });
      expect(again.body.templates[0]._id).toBe(saved.body.templates[0]._id);
    });

    it('restores legacy shapes on the way in', async () => {
      const name = await newClient('Legacy');
      const rsa = await t.request('POST', API.app.saveRsaTemplates, {
        token,
        body: {
          name,
          templates: [
            { name: 'old', templates: [{ headlines: ['one', 'two'], descriptions: ['desc'] }] },
          ],
        },
      });
      expect(rsa.body.templates[0].templates[0]).toEqual({
        headlines: [
          { text: 'one', pos: 0 },
          { text: 'two', pos: 0 },
        ],
        descriptions: [{ text: 'desc', pos: 0 }],
        paths: ['', ''],
        labels: [],
      });
      const campaign = await t.request('POST', API.app.saveCampaignTemplates, {
        token,
        body: {
          name,
          templates: [{ name: 'c', keywords: [{ keyword: 'k', matchType: 'negative exact' }] }],
        },
      });
      expect(campaign.body.templates[0].type).toBe('search');
      expect(campaign.body.templates[0].keywords[0].matchType).toBe('Negative Exact');
      expect(campaign.body.templates[0].settings.budget.value).toBe(0.01);
      const ads = await t.request('POST', API.app.saveAdTemplates, {
        token,
        body: { name, templates: [{ name: 'a', templates: [{ h1: 'x' }] }] },
      });
      expect(ads.body.templates[0].templates[0][0].h1).toBe('x');
      const ext = await t.request('POST', API.app.saveExtensionTemplates, {
        token,
        body: {
          name,
          templates: [
            {
              name: 'e',
              extensionType: 'Structured Snippet',
              attachTo: 'Ad group',
              templates: [{ Header: 'Brands', 'Snippet Values': 'a, b, c' }],
            },
            { name: 'f', extensionType: 'Callout', templates: [{ 'Callout text': 'Free' }] },
          ],
        },
      });
      expect(ext.body.templates[0].extensionType.name).toBe('Structured Snippet');
      // Where the assets attach is kept (any spelling), 'auto' when not given.
      expect(ext.body.templates.map((x: { attachTo: string }) => x.attachTo)).toEqual([
        'adGroup',
        'auto',
      ]);
      expect(ext.body.templates[0].templates[0]).toMatchObject({
        Header: 'Brands',
        'Snippet Values': 'a, b, c',
      });
      const pmax = await t.request('POST', API.app.savePerformanceMaxTemplates, {
        token,
        body: {
          name,
          templates: [{ name: 'p', templates: [{ headlines: ['h'], callToAction: 'learn more' }] }],
        },
      });
      expect(pmax.body.templates[0].templates[0].callToAction).toBe('Learn more');
    });

    it('makes names unique per kind, except legacy ad templates', async () => {
      const name = await newClient('Names');
      const rsa = await t.request('POST', API.app.saveRsaTemplates, {
        token,
        body: { name, templates: [SAMPLE.rsaTemplates, SAMPLE.rsaTemplates] },
      });
      expect(rsa.body.templates.map((x: { name: string }) => x.name)).toEqual(['RSA', 'RSA (1)']);
      const ads = await t.request('POST', API.app.saveAdTemplates, {
        token,
        body: { name, templates: [SAMPLE.adTemplates, SAMPLE.adTemplates] },
      });
      expect(ads.body.templates.map((x: { name: string }) => x.name)).toEqual(['Legacy', 'Legacy']);
    });

    it('answers 400 naming the field for counts (15 Performance Max headlines, as Google allows), match types and calls to action outside the spec', async () => {
      const name = await newClient('Limits');
      const headline = { text: 'h', pos: 0 };
      const cases: [TemplateKind, unknown, string][] = [
        [
          'rsaTemplates',
          { name: 'r', templates: [{ headlines: Array(16).fill(headline) }] },
          'templates.0.templates.0.headlines',
        ],
        [
          'rsaTemplates',
          { name: 'r', templates: [{ descriptions: Array(5).fill(headline) }] },
          'templates.0.templates.0.descriptions',
        ],
        [
          'rsaTemplates',
          { name: 'r', templates: [{ paths: ['a', 'b', 'c'] }] },
          'templates.0.templates.0.paths',
        ],
        [
          'performanceMaxTemplates',
          { name: 'p', templates: [{ headlines: Array(16).fill(headline) }] },
          'templates.0.templates.0.headlines',
        ],
        [
          'performanceMaxTemplates',
          { name: 'p', templates: [{ longHeadlines: Array(6).fill(headline) }] },
          'templates.0.templates.0.longHeadlines',
        ],
        [
          'performanceMaxTemplates',
          { name: 'p', templates: [{ descriptions: Array(6).fill(headline) }] },
          'templates.0.templates.0.descriptions',
        ],
        [
          'performanceMaxTemplates',
          { name: 'p', templates: [{ callToAction: 'Buy it' }] },
          'templates.0.templates.0.callToAction',
        ],
        [
          'campaignTemplates',
          { name: 'c', keywords: [{ keyword: 'k', matchType: 'Fuzzy' }] },
          'templates.0.keywords.0.matchType',
        ],
        [
          'campaignTemplates',
          { name: 'c', settings: { budget: { value: 0 } } },
          'templates.0.settings.budget.value',
        ],
        ['extensionTemplates', { name: 'e', extensionType: 'Banner' }, 'templates.0.extensionType'],
        [
          'extensionTemplates',
          { name: 'e', extensionType: 'Callout', attachTo: 'Keyword' },
          'templates.0.attachTo',
        ],
        ['campaignTemplates', { name: '' }, 'templates.0.name'],
      ];
      for (const [kind, template, path] of cases) {
        const response = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
          token,
          body: { name, templates: [template] },
        });
        expect(response.status, path).toBe(400);
        expect(
          response.body.errors.map((e: { path: string }) => e.path),
          path,
        ).toContain(path);
      }
      const full = await t.request('POST', API.app.saveRsaTemplates, {
        token,
        body: {
          name,
          templates: [
            {
              name: 'r',
              templates: [
                { headlines: Array(15).fill(headline), descriptions: Array(4).fill(headline) },
              ],
            },
          ],
        },
      });
      expect(full.status).toBe(200);
    });
  });

  describe('never lose an edit', () => {
    it('answers 409 with the current state for a save naming an older revision', async () => {
      const name = await newClient('Revisions');
      const first = await t.request('POST', API.app.feeds, {
        token,
        body: { name, revision: 0, feeds: [{ name: 'f', rows: [row('one')] }] },
      });
      expect(first.body.revision).toBe(1);
      const stale = await t.request('POST', API.app.feeds, {
        token,
        body: { name, revision: 0, feeds: [{ name: 'f', rows: [row('other tab')] }] },
      });
      expect(stale.status).toBe(409);
      expect(stale.body.error.code).toBe('conflict');
      expect(stale.body.error.details.current).toEqual(first.body);
      expect((await t.request('GET', clientPath(name), { token })).body.feeds).toEqual(
        first.body.feeds,
      );
      // Without a revision the spec's behaviour stays: overwrite.
      const overwrite = await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: 'f', rows: [row('forced')] }] },
      });
      expect(overwrite.status).toBe(200);
      expect(overwrite.body.revision).toBe(2);
      // A revision from the future is a conflict too.
      expect(
        (await t.request('POST', API.app.feeds, { token, body: { name, revision: 9, feeds: [] } }))
          .status,
      ).toBe(409);
    });

    it.each(TEMPLATE_KINDS)('guards %s with their own revision', async (kind) => {
      const name = await newClient(`Rev ${kind}`);
      const first = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
        token,
        body: { name, revision: 0, templates: [SAMPLE[kind]] },
      });
      expect(first.status).toBe(200);
      const stale = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
        token,
        body: { name, revision: 0, templates: [] },
      });
      expect(stale.status).toBe(409);
      expect(stale.body.error.details.current).toEqual(first.body);
      // Other sets of the client are independent.
      const feeds = await t.request('POST', API.app.feeds, {
        token,
        body: { name, revision: 0, feeds: [] },
      });
      expect(feeds.status).toBe(200);
    });

    it('guards the lists with a revision', async () => {
      const u = await t.signUp();
      const first = await t.request('POST', API.app.lists, {
        token: u.token,
        body: { revision: 0, feeds: [{ name: 'l', dataType: 'list', rows: [row('a')] }] },
      });
      const stale = await t.request('POST', API.app.lists, {
        token: u.token,
        body: { revision: 0, feeds: [] },
      });
      expect(stale.status).toBe(409);
      expect(stale.body.error.details.current).toEqual({ revision: 1, feeds: first.body.feeds });
    });

    it('lets exactly one of two racing saves of the same revision win', async () => {
      const name = await newClient('Race');
      const save = (root: string) =>
        t.request('POST', API.app.feeds, {
          token,
          body: { name, revision: 0, feeds: [{ name: 'f', rows: [row(root)] }] },
        });
      const results = await Promise.all([save('tab one'), save('tab two')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!;
      expect((await t.request('GET', clientPath(name), { token })).body.feeds).toEqual(
        winner.body.feeds,
      );
    });

    it('leaves stored data exactly as it was when a save fails half-way', async () => {
      const name = await newClient('Atomic');
      await t.request('POST', API.app.feeds, {
        token,
        body: { name, feeds: [{ name: 'keep', rows: [row('a'), row('b')] }] },
      });
      await t.request('POST', API.app.saveRsaTemplates, {
        token,
        body: { name, templates: [SAMPLE.rsaTemplates] },
      });
      const before = (await t.request('GET', clientPath(name), { token })).body;
      await t.request('POST', API.app.lists, {
        token,
        body: { feeds: [{ name: 'cities', dataType: 'list', rows: [row('paris')] }] },
      });
      const listsBefore = (await t.request('GET', API.app.lists, { token })).body;
      // A database-side fault: inserting a feed or template named 'explode' fails after the
      // set's old rows were deleted and the first new one written.
      await t.db.exec(`
        create or replace function adloom_test_explode() returns trigger language plpgsql as $$
        begin
          if new.name = 'explode' then raise exception 'injected failure'; end if;
          return new;
        end $$;
        create trigger adloom_test_explode_feeds before insert on feeds for each row execute function adloom_test_explode();
      `);
      try {
        const feeds = await t.request('POST', API.app.feeds, {
          token,
          body: {
            name,
            feeds: [
              { name: 'new', rows: [row('c')] },
              { name: 'explode', rows: [] },
            ],
          },
        });
        expect(feeds.status).toBe(500);
        expect(feeds.body.error.code).toBe('internal_error');
        const rsa = await t.request('POST', API.app.saveRsaTemplates, {
          token,
          body: { name, templates: [{ ...SAMPLE.rsaTemplates, name: 'explode' }] },
        });
        expect(rsa.status).toBe(200); // templates have no trigger: the fault is specific
        const lists = await t.request('POST', API.app.lists, {
          token,
          body: {
            feeds: [
              { name: 'towns', dataType: 'list', rows: [row('lyon')] },
              { name: 'explode', dataType: 'list', rows: [] },
            ],
          },
        });
        expect(lists.status).toBe(500);
      } finally {
        await t.db.exec('drop trigger adloom_test_explode_feeds on feeds');
      }
      const after = (await t.request('GET', clientPath(name), { token })).body;
      expect(after.feeds).toEqual(before.feeds);
      expect(after.revisions.feeds).toBe(before.revisions.feeds);
      expect((await t.request('GET', API.app.lists, { token })).body).toEqual(listsBefore);

      await t.db.exec(
        'create trigger adloom_test_explode_templates before insert on templates for each row execute function adloom_test_explode();',
      );
      try {
        const current = (await t.request('GET', clientPath(name), { token })).body;
        const rsa = await t.request('POST', API.app.saveRsaTemplates, {
          token,
          body: {
            name,
            templates: [
              { ...SAMPLE.rsaTemplates, name: 'fine' },
              { ...SAMPLE.rsaTemplates, name: 'explode' },
            ],
          },
        });
        expect(rsa.status).toBe(500);
        const later = (await t.request('GET', clientPath(name), { token })).body;
        expect(later.rsaTemplates).toEqual(current.rsaTemplates);
        expect(later.revisions).toEqual(current.revisions);
      } finally {
        await t.db.exec(
          'drop trigger adloom_test_explode_templates on templates; drop function adloom_test_explode();',
        );
      }
    });
  });

  describe('waiting list and feedback', () => {
    it('signs up for the waiting list without a token, once per email', async () => {
      const response = await t.request('POST', API.app.waitingList, {
        body: { email: 'Someone@Example.com' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ message: WAITING_LIST_MESSAGE });
      expect(
        (await t.request('POST', API.app.waitingList, { body: { email: 'someone@example.com' } }))
          .status,
      ).toBe(200);
      const rows = await t.db.query('select email from waiting_list where email = $1', [
        'someone@example.com',
      ]);
      expect(rows).toHaveLength(1);
      const bad = await t.request('POST', API.app.waitingList, { body: { email: 'not-an-email' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].path).toBe('email');
    });

    it('stores feedback of a signed-in user and checks type and length', async () => {
      const u = await t.signUp();
      const ok = await t.request('POST', API.feedback, {
        token: u.token,
        body: { type: 'Idea', message: 'Please add dark mode', user: u.user },
      });
      expect(ok.status).toBe(200);
      const stored = await t.db.query<{ type: string; message: string; email: string }>(
        'select type, message, email from feedback where user_id = $1',
        [u.user._id],
      );
      expect(stored).toEqual([{ type: 'Idea', message: 'Please add dark mode', email: u.email }]);
      const short = await t.request('POST', API.feedback, {
        token: u.token,
        body: { type: 'Issue', message: 'too short' },
      });
      expect(short.status).toBe(400);
      expect(short.body.errors[0]).toEqual({
        msg: 'Please provide valid feedback.',
        path: 'message',
      });
      const badType = await t.request('POST', API.feedback, {
        token: u.token,
        body: { type: 'Bug', message: 'long enough message' },
      });
      expect(badType.body.errors[0].path).toBe('type');
      expect(
        (
          await t.request('POST', API.feedback, {
            body: { type: 'Other', message: 'long enough message' },
          })
        ).status,
      ).toBe(401);
    });
  });

  it('refuses every signed-in call without a token', async () => {
    const calls: [string, string][] = [
      ['GET', API.app.clients],
      ['POST', API.app.clients],
      ['DELETE', API.app.clients],
      ['GET', clientPath('x')],
      ['GET', API.app.lists],
      ['POST', API.app.lists],
      ['POST', API.app.feeds],
      ...TEMPLATE_KINDS.map((kind): [string, string] => ['POST', TEMPLATE_SAVE_PATHS[kind]]),
    ];
    for (const [method, path] of calls) {
      const response = await t.request(
        method,
        path,
        method === 'GET' ? {} : { body: { name: 'x' } },
      );
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });
});
