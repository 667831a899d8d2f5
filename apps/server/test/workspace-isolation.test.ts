import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  TEMPLATE_KINDS,
  TEMPLATE_SAVE_PATHS,
  clientPath,
  type TemplateKind,
} from '@adloom/contract';
import { startTestApp, type TestApp } from './helpers.ts';

const SAMPLE: Record<TemplateKind, Record<string, unknown>> = {
  campaignTemplates: { name: 'Brand', keywords: [{ keyword: '{root}', matchType: 'Exact' }] },
  adTemplates: { name: 'Legacy', templates: [[{ h1: '{root}' }]] },
  rsaTemplates: { name: 'RSA', templates: [{ headlines: [{ text: '{root}', pos: 0 }] }] },
  performanceMaxTemplates: { name: 'PMax', templates: [{ headlines: [{ text: 'H', pos: 0 }] }] },
  extensionTemplates: {
    name: 'Callouts',
    extensionType: 'Callout',
    templates: [{ 'Callout text': 'Free' }],
  },
};

const row = (root: string) => ({
  id: `id-${root}`,
  root,
  mod: '',
  var1: '',
  var2: '',
  var3: '',
  url: '',
});

/**
 * Two users: the second can neither read nor change the first's clients, feeds, lists or
 * templates, by name or by id. Probing answers 404 (as for a client nobody has), never 403.
 */
describe('workspace isolation between two users', () => {
  let t: TestApp;
  let alice: { token: string; user: { _id: string } };
  let bob: { token: string; user: { _id: string } };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let aliceBundle: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let aliceLists: any;
  let aliceClientId: string;

  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.signUp();
    bob = await t.signUp();
    const a = alice.token;
    await t.request('POST', API.app.clients, { token: a, body: { name: 'Acme' } });
    await t.request('POST', API.app.feeds, {
      token: a,
      body: { name: 'Acme', feeds: [{ name: 'brands', rows: [row('nike'), row('puma')] }] },
    });
    for (const kind of TEMPLATE_KINDS) {
      await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
        token: a,
        body: { name: 'Acme', templates: [SAMPLE[kind]] },
      });
    }
    await t.request('POST', API.app.lists, {
      token: a,
      body: { feeds: [{ name: 'colours', dataType: 'list', rows: [row('red')] }] },
    });
    aliceBundle = (await t.request('GET', clientPath('Acme'), { token: a })).body;
    aliceLists = (await t.request('GET', API.app.lists, { token: a })).body;
    const [client] = await t.db.query<{ id: string }>('select id from clients where user_id = $1', [
      alice.user._id,
    ]);
    aliceClientId = client!.id;
  });
  afterAll(async () => {
    await t.close();
  });

  async function expectAliceUntouched(): Promise<void> {
    expect((await t.request('GET', API.app.clients, { token: alice.token })).body).toEqual([
      'Acme',
    ]);
    expect((await t.request('GET', clientPath('Acme'), { token: alice.token })).body).toEqual(
      aliceBundle,
    );
    expect((await t.request('GET', API.app.lists, { token: alice.token })).body).toEqual(
      aliceLists,
    );
  }

  it('does not list or load the other user’s clients, by name or by id', async () => {
    expect((await t.request('GET', API.app.clients, { token: bob.token })).body).toEqual([]);
    for (const probe of [
      'Acme',
      aliceClientId,
      aliceBundle.feeds[0]._id,
      aliceBundle.rsaTemplates[0]._id,
    ]) {
      const response = await t.request('GET', clientPath(probe), { token: bob.token });
      expect(response.status, probe).toBe(404);
      expect(response.body.error.code).toBe('not_found');
      expect(JSON.stringify(response.body)).not.toContain('nike');
    }
    expect((await t.request('GET', API.app.lists, { token: bob.token })).body).toEqual({
      revision: 0,
      feeds: [],
    });
  });

  it('cannot delete the other user’s client, by name or by id', async () => {
    for (const probe of ['Acme', aliceClientId]) {
      const response = await t.request('DELETE', API.app.clients, {
        token: bob.token,
        body: { name: probe },
      });
      expect(response.status, probe).toBe(404);
    }
    await expectAliceUntouched();
  });

  it('cannot save feeds or templates into the other user’s client, by name or by id (404, not 403)', async () => {
    for (const probe of ['Acme', aliceClientId]) {
      const feeds = await t.request('POST', API.app.feeds, {
        token: bob.token,
        body: { name: probe, feeds: [] },
      });
      expect(feeds.status, probe).toBe(404);
      for (const kind of TEMPLATE_KINDS) {
        const response = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
          token: bob.token,
          body: { name: probe, templates: [] },
        });
        expect(response.status, `${kind} ${probe}`).toBe(404);
      }
    }
    await expectAliceUntouched();
  });

  it('gets a client of the same name of its own, separate from the other user’s', async () => {
    const created = await t.request('POST', API.app.clients, {
      token: bob.token,
      body: { name: 'Acme' },
    });
    expect(created.body).toEqual({ name: 'Acme', clients: ['Acme'] });
    const bundle = await t.request('GET', clientPath('Acme'), { token: bob.token });
    expect(bundle.body.feeds).toEqual([]);
    expect(bundle.body.rsaTemplates).toEqual([]);
    await expectAliceUntouched();
  });

  it('cannot take over the other user’s feeds, lists or templates by sending their ids', async () => {
    const stolenFeed = aliceBundle.feeds[0];
    const feeds = await t.request('POST', API.app.feeds, {
      token: bob.token,
      body: { name: 'Acme', feeds: [{ ...stolenFeed, rows: [row('mine')] }] },
    });
    expect(feeds.status).toBe(200);
    expect(feeds.body.feeds[0]._id).not.toBe(stolenFeed._id);
    const stolenList = aliceLists.feeds[0];
    const lists = await t.request('POST', API.app.lists, {
      token: bob.token,
      body: { feeds: [{ ...stolenList, rows: [] }] },
    });
    expect(lists.status).toBe(200);
    expect(lists.body.feeds[0]._id).not.toBe(stolenList._id);
    for (const kind of TEMPLATE_KINDS) {
      const stolen = aliceBundle[kind][0];
      const response = await t.request('POST', TEMPLATE_SAVE_PATHS[kind], {
        token: bob.token,
        body: { name: 'Acme', templates: [{ ...stolen, name: 'bob' }] },
      });
      expect(response.status, kind).toBe(200);
      expect(response.body.templates[0]._id, kind).not.toBe(stolen._id);
    }
    await expectAliceUntouched();
  });

  it('deleting the other user’s namesake client leaves the first user’s alone', async () => {
    const removed = await t.request('DELETE', API.app.clients, {
      token: bob.token,
      body: { name: 'Acme' },
    });
    expect(removed.body).toEqual([]);
    await expectAliceUntouched();
  });

  it('deleting an account removes all its workspace data', async () => {
    const carol = await t.signUp();
    await t.request('POST', API.app.clients, { token: carol.token, body: { name: 'C' } });
    await t.request('POST', API.app.feeds, {
      token: carol.token,
      body: { name: 'C', feeds: [{ name: 'f', rows: [row('x')] }] },
    });
    await t.request('POST', API.app.saveRsaTemplates, {
      token: carol.token,
      body: { name: 'C', templates: [SAMPLE.rsaTemplates] },
    });
    await t.request('POST', API.app.lists, {
      token: carol.token,
      body: { feeds: [{ name: 'l', rows: [] }] },
    });
    await t.request('POST', API.feedback, {
      token: carol.token,
      body: { type: 'Other', message: 'feedback that counts' },
    });
    const deleted = await t.request('POST', API.users.delete, {
      token: carol.token,
      body: { email: carol.email, password: carol.password },
    });
    expect(deleted.status).toBe(200);
    for (const table of ['clients', 'feeds', 'templates', 'list_sets', 'feedback']) {
      const rows = await t.db.query(`select 1 from ${table} where user_id = $1`, [carol.user._id]);
      expect(rows, table).toHaveLength(0);
    }
    await expectAliceUntouched();
  });
});
