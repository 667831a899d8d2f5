import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  BUILD_MESSAGES,
  BUILD_META_HEADER,
  LOOP_LABEL_MESSAGES,
  buildRecordPath,
  buildsPath,
  clientPath,
  encodeBuildMetaHeader,
  latestBuildPath,
  loopSettingsPath,
  type BuildMeta,
} from '@adloom/contract';
import { BUILD_RECORD_SLICE_BYTES } from '../src/services/builds.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/** The record cap of these tests: small enough to send past it, above one read slice. */
const RECORD_MAX_BYTES = 3 * BUILD_RECORD_SLICE_BYTES;
/** Builds kept per client in these tests. */
const HISTORY = 3;

type User = Awaited<ReturnType<TestApp['signUp']>>;

function meta(overrides: Partial<BuildMeta> = {}): BuildMeta {
  return {
    feedName: 'Shoes feed',
    templateNames: ['Brand', 'Generic RSA'],
    templateCount: 2,
    label: 'adloom',
    counts: { campaign: 2, keyword: 1200, 'responsive-search-ad': 40 },
    ...overrides,
  };
}

/** A gzip'd build record: a JSON document with `size` bytes of random text in it. */
function record(note: string, size = 2000): Buffer {
  return gzipSync(
    Buffer.from(JSON.stringify({ note, noise: randomBytes(size).toString('base64') })),
  );
}

describe('build history', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let acmeId: string;

  /** Creates a client of `user` and answers its id (from the bundle). */
  async function createClient(user: User, name: string): Promise<string> {
    const created = await t.request('POST', API.app.clients, { token: user.token, body: { name } });
    expect(created.status).toBe(200);
    const bundle = await t.request('GET', clientPath(created.body.name), { token: user.token });
    expect(bundle.body.id).toMatch(/^[0-9a-f-]{36}$/);
    return bundle.body.id as string;
  }

  function postBuild(
    user: User | undefined,
    clientId: string,
    body: Buffer | Readable | string | undefined,
    options: { meta?: BuildMeta | string | null; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/gzip' };
    if (user) headers.authorization = `Bearer ${user.token}`;
    const metaValue = options.meta === undefined ? meta() : options.meta;
    if (metaValue !== null)
      headers[BUILD_META_HEADER] =
        typeof metaValue === 'string' ? metaValue : encodeBuildMetaHeader(metaValue);
    return t.app.inject({
      method: 'POST',
      url: buildsPath(clientId),
      headers: { ...headers, ...options.headers },
      ...(body !== undefined ? { payload: body } : {}),
    });
  }

  function get(user: User | undefined, path: string, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: 'GET',
      url: path,
      headers: { ...(user ? { authorization: `Bearer ${user.token}` } : {}), ...headers },
    });
  }

  async function countBuilds(clientId: string): Promise<number> {
    const [row] = await t.db.query<{ count: number }>(
      'select count(*)::int as count from builds where client_id = $1',
      [clientId],
    );
    return row!.count;
  }

  beforeAll(async () => {
    t = await startTestApp({
      builds: { historyPerClient: HISTORY, recordMaxBytes: RECORD_MAX_BYTES },
    });
    alice = await t.signUp();
    bob = await t.signUp();
    acmeId = await createClient(alice, 'Acme');
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores builds and answers the list newest first and each record byte for byte', async () => {
    const clientId = await createClient(alice, 'Round trip');
    // The second record spans three read slices and ends inside the third.
    const first = record('first');
    const second = gzipSync(randomBytes(2 * BUILD_RECORD_SLICE_BYTES + 12_345), { level: 0 });
    expect(second.length).toBeGreaterThan(2 * BUILD_RECORD_SLICE_BYTES);
    const firstMeta = meta({ feedName: 'Schuhe – Größen', label: 'adloom ✓' });
    const secondMeta = meta({
      feedName: 'Shoes feed',
      templateNames: ['Brand'],
      templateCount: 7,
      counts: { keyword: 5 },
    });

    const stored1 = await postBuild(alice, clientId, first, { meta: firstMeta });
    expect(stored1.statusCode, stored1.body).toBe(201);
    const stored2 = await postBuild(alice, clientId, second, { meta: secondMeta });
    expect(stored2.statusCode, stored2.body).toBe(201);
    const summary1 = stored1.json();
    const summary2 = stored2.json();
    expect(summary1).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      ...firstMeta,
      sizeBytes: first.length,
    });
    expect(summary2).toMatchObject({ ...secondMeta, sizeBytes: second.length });
    expect(Date.parse(summary2.createdAt)).toBeGreaterThanOrEqual(Date.parse(summary1.createdAt));

    const list = await get(alice, buildsPath(clientId));
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ builds: [summary2, summary1] });
    expect(list.body).not.toContain('noise');

    // Asked with compression on offer: the gzip bytes leave as they are.
    const latest = await get(alice, latestBuildPath(clientId), { 'accept-encoding': 'br, gzip' });
    expect(latest.statusCode).toBe(200);
    expect(latest.headers['content-type']).toBe('application/gzip');
    expect(latest.headers['content-encoding']).toBeUndefined();
    expect(Number(latest.headers['content-length'])).toBe(second.length);
    expect(latest.headers['adloom-build-id']).toBe(summary2.id);
    expect(latest.headers['adloom-build-created-at']).toBe(summary2.createdAt);
    expect(latest.rawPayload.equals(second)).toBe(true);

    const older = await get(alice, buildRecordPath(clientId, summary1.id));
    expect(older.statusCode).toBe(200);
    expect(older.rawPayload.equals(first)).toBe(true);
    expect(JSON.parse(gunzipSync(older.rawPayload).toString('utf8')).note).toBe('first');
  });

  it('takes a body sent without a length (chunked)', async () => {
    const bytes = record('chunked', 50_000);
    const response = await postBuild(
      alice,
      acmeId,
      Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const read = await get(alice, buildRecordPath(acmeId, response.json().id));
    expect(read.rawPayload.equals(bytes)).toBe(true);
  });

  it(`keeps the newest ${HISTORY} builds of a client, and only that client's`, async () => {
    const clientId = await createClient(alice, 'Retention');
    const otherId = await createClient(alice, 'Other client');
    const other = await postBuild(alice, otherId, record('other'), {
      meta: meta({ feedName: 'other feed' }),
    });
    expect(other.statusCode).toBe(201);
    const ids: string[] = [];
    for (let n = 1; n <= HISTORY + 2; n++) {
      const response = await postBuild(alice, clientId, record(`build ${n}`), {
        meta: meta({ feedName: `feed ${n}` }),
      });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().id);
    }
    const list = (await get(alice, buildsPath(clientId))).json();
    expect(list.builds.map((build: { feedName: string }) => build.feedName)).toEqual([
      'feed 5',
      'feed 4',
      'feed 3',
    ]);
    expect(await countBuilds(clientId)).toBe(HISTORY);
    for (const gone of ids.slice(0, 2)) {
      const response = await get(alice, buildRecordPath(clientId, gone));
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({
        code: 'not_found',
        message: BUILD_MESSAGES.buildNotFound,
      });
    }
    const kept = await get(alice, buildRecordPath(clientId, ids[2]!));
    expect(JSON.parse(gunzipSync(kept.rawPayload).toString('utf8')).note).toBe('build 3');
    expect((await get(alice, buildsPath(otherId))).json().builds).toHaveLength(1);
  });

  it('deletes a client’s builds with the client', async () => {
    const clientId = await createClient(alice, 'Short lived');
    expect((await postBuild(alice, clientId, record('x'))).statusCode).toBe(201);
    expect(await countBuilds(clientId)).toBe(1);
    const deleted = await t.request('DELETE', API.app.clients, {
      token: alice.token,
      body: { name: 'Short lived' },
    });
    expect(deleted.status).toBe(200);
    expect(await countBuilds(clientId)).toBe(0);
    expect((await get(alice, buildsPath(clientId))).statusCode).toBe(404);
    expect((await get(alice, latestBuildPath(clientId))).statusCode).toBe(404);
  });

  it('shows another user nothing of a client’s builds and takes no build from them (404)', async () => {
    const stored = await postBuild(alice, acmeId, record('secret'));
    expect(stored.statusCode).toBe(201);
    const buildId = stored.json().id as string;
    const before = await countBuilds(acmeId);
    const notFound = { code: 'not_found', message: BUILD_MESSAGES.clientNotFound };
    for (const path of [
      buildsPath(acmeId),
      latestBuildPath(acmeId),
      buildRecordPath(acmeId, buildId),
    ]) {
      const response = await get(bob, path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json().error, path).toEqual(notFound);
    }
    const posted = await postBuild(bob, acmeId, record('intruder'));
    expect(posted.statusCode).toBe(404);
    expect(posted.json().error).toEqual(notFound);
    expect(await countBuilds(acmeId)).toBe(before);
    // Bob's own client does not open Alice's build either.
    const bobClient = await createClient(bob, 'Acme');
    expect((await get(bob, buildRecordPath(bobClient, buildId))).statusCode).toBe(404);
    // Nor does anyone signed out.
    expect((await get(undefined, buildsPath(acmeId))).statusCode).toBe(401);
    expect((await postBuild(undefined, acmeId, record('anon'))).statusCode).toBe(401);
  });

  it('answers 404 for a client with no build yet, and for ids that are not ids', async () => {
    const empty = await createClient(alice, 'No builds');
    expect((await get(alice, buildsPath(empty))).json()).toEqual({ builds: [] });
    const latest = await get(alice, latestBuildPath(empty));
    expect(latest.statusCode).toBe(404);
    expect(latest.json().error.message).toBe(BUILD_MESSAGES.noBuilds);

    const nobody = randomUUID();
    for (const path of [
      '/api/clients/not-an-id/builds',
      `/api/clients/${acmeId}x/builds`,
      '/api/clients/1/builds/latest',
      buildsPath(nobody),
      buildRecordPath(acmeId, 'latest-but-one'),
      buildRecordPath(acmeId, nobody),
      buildRecordPath(acmeId, '1; drop table builds'),
      loopSettingsPath('not-an-id'),
    ]) {
      const response = await get(alice, path);
      expect(response.statusCode, path).toBe(404);
      expect(response.json().error.code, path).toBe('not_found');
    }
    const posted = await postBuild(alice, 'not-an-id', record('x'));
    expect(posted.statusCode).toBe(404);
    // A NUL in the id is the text rule's 400; a bad %-escape the router's.
    for (const path of ['/api/clients/%00/builds', '/api/clients/%E0%A4%A/builds']) {
      const response = await get(alice, path);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.code, path).toMatch(/^(bad_request|validation_failed)$/);
    }
  });

  it('refuses a record over the cap with 413, whether its length is declared or not', async () => {
    const before = await countBuilds(acmeId);
    const big = Buffer.concat([record('big'), randomBytes(RECORD_MAX_BYTES)]);
    const declared = await postBuild(alice, acmeId, big);
    expect(declared.statusCode).toBe(413);
    expect(declared.json().error).toEqual({
      code: 'payload_too_large',
      message: 'The build record is larger than the limit of 3 MiB.',
    });
    const chunked = await postBuild(
      alice,
      acmeId,
      Readable.from(
        Array.from({ length: 4 }, (_, n) =>
          big.subarray(n * (big.length / 4), (n + 1) * (big.length / 4)),
        ),
      ),
    );
    expect(chunked.statusCode).toBe(413);
    expect(chunked.json().error.code).toBe('payload_too_large');
    // Exactly at the cap is taken.
    const atCap = Buffer.concat([record('cap')]);
    const padded = Buffer.concat([atCap, Buffer.alloc(RECORD_MAX_BYTES - atCap.length)]);
    expect((await postBuild(alice, acmeId, padded)).statusCode).toBe(201);
    expect(await countBuilds(acmeId)).toBe(Math.min(before + 1, HISTORY));
  });

  it('refuses what is not a gzip’d record, or not described, with 4xx and stores nothing', async () => {
    const clientId = await createClient(alice, 'Refusals');
    const json = Buffer.from('{"items":[]}');
    const cases: [string, Awaited<ReturnType<typeof postBuild>>, number, string][] = [
      ['not gzip', await postBuild(alice, clientId, json), 400, BUILD_MESSAGES.notGzip],
      [
        'gzip signature, other method',
        await postBuild(alice, clientId, Buffer.from([0x1f, 0x8b, 0x07, 0, 0])),
        400,
        BUILD_MESSAGES.notGzip,
      ],
      [
        'one byte',
        await postBuild(alice, clientId, Buffer.from([0x1f])),
        400,
        BUILD_MESSAGES.notGzip,
      ],
      ['empty', await postBuild(alice, clientId, Buffer.alloc(0)), 400, BUILD_MESSAGES.empty],
      [
        'as JSON',
        await postBuild(alice, clientId, '{"a":1}', {
          headers: { 'content-type': 'application/json' },
        }),
        415,
        BUILD_MESSAGES.contentType,
      ],
      [
        'as text',
        await postBuild(alice, clientId, record('x'), {
          headers: { 'content-type': 'text/plain' },
        }),
        415,
        BUILD_MESSAGES.contentType,
      ],
      [
        'content-encoded',
        await postBuild(alice, clientId, record('x'), { headers: { 'content-encoding': 'gzip' } }),
        415,
        BUILD_MESSAGES.contentEncoding,
      ],
      [
        'no description',
        await postBuild(alice, clientId, record('x'), { meta: null }),
        400,
        BUILD_MESSAGES.missingMeta,
      ],
      [
        'description not encoded JSON',
        await postBuild(alice, clientId, record('x'), { meta: '%E0%A4%A' }),
        400,
        BUILD_MESSAGES.badMeta,
      ],
      [
        'description too long',
        await postBuild(alice, clientId, record('x'), { meta: 'a'.repeat(7000) }),
        400,
        BUILD_MESSAGES.metaTooLong,
      ],
    ];
    for (const [what, response, status, message] of cases) {
      expect(response.statusCode, what).toBe(status);
      expect(response.json().error.message, what).toBe(message);
    }
    expect(await countBuilds(clientId)).toBe(0);
  });

  it('checks the description: names, label, counts, and text the database cannot hold', async () => {
    const clientId = await createClient(alice, 'Descriptions');
    const invalid: [string, unknown, string][] = [
      ['label with ;', meta({ label: 'adloom;q1' }), LOOP_LABEL_MESSAGES.separator],
      ['empty feed name', meta({ feedName: ' ' }), 'Name is required'],
      [
        'NUL in the feed name',
        meta({ feedName: 'a\u0000b' }),
        'Text must not contain NUL characters',
      ],
      ['lone surrogate', meta({ templateNames: ['\ud800'], templateCount: 1 }), 'unpaired'],
      ['negative count', meta({ counts: { keyword: -1 } }), ''],
      ['count of no kind', meta({ counts: { 'two words': 1 } }), ''],
      ['fewer templates than names', meta({ templateCount: 1 }), 'templateCount'],
      ['an unknown field', { ...meta(), extra: 1 }, ''],
    ];
    for (const [what, description, message] of invalid) {
      const response = await postBuild(alice, clientId, record('x'), {
        meta: encodeURIComponent(JSON.stringify(description)),
      });
      expect(response.statusCode, what).toBe(400);
      expect(response.json().error.code, what).toBe('validation_failed');
      expect(response.json().error.message, what).toContain(message);
    }
    expect(await countBuilds(clientId)).toBe(0);
  });

  it('keeps the first template names of a description too long for its header', async () => {
    const names = Array.from({ length: 200 }, (_, n) => `Template ${n} ${'x'.repeat(60)}`);
    const header = encodeBuildMetaHeader(meta({ templateNames: names, templateCount: 200 }));
    const response = await postBuild(alice, acmeId, record('many templates'), { meta: header });
    expect(response.statusCode, response.body).toBe(201);
    const summary = response.json();
    expect(summary.templateCount).toBe(200);
    expect(summary.templateNames.length).toBeGreaterThan(10);
    expect(summary.templateNames.length).toBeLessThan(200);
    expect(summary.templateNames).toEqual(names.slice(0, summary.templateNames.length));
  });
});

describe('loop settings', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let clientId: string;

  function settings(user: User, method: 'GET' | 'PATCH', body?: unknown, id = clientId) {
    return t.request(method, loopSettingsPath(id), {
      token: user.token,
      ...(body !== undefined ? { body } : {}),
    });
  }

  beforeAll(async () => {
    t = await startTestApp();
    alice = await t.signUp();
    bob = await t.signUp();
    await t.request('POST', API.app.clients, { token: alice.token, body: { name: 'Acme' } });
    clientId = (await t.request('GET', clientPath('Acme'), { token: alice.token })).body.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts at pause and adloom, and changes each setting on its own', async () => {
    expect((await settings(alice, 'GET')).body).toEqual({ dropped: 'pause', label: 'adloom' });
    const labelled = await settings(alice, 'PATCH', { label: '  Adloom Q1  ' });
    expect(labelled.status).toBe(200);
    expect(labelled.body).toEqual({ dropped: 'pause', label: 'Adloom Q1' });
    const removing = await settings(alice, 'PATCH', { dropped: 'remove' });
    expect(removing.body).toEqual({ dropped: 'remove', label: 'Adloom Q1' });
    const both = await settings(alice, 'PATCH', { dropped: 'keep', label: '🧵'.repeat(80) });
    expect(both.status).toBe(200);
    expect((await settings(alice, 'GET')).body).toEqual({
      dropped: 'keep',
      label: '🧵'.repeat(80),
    });
  });

  it('refuses a bad label or action with 400 and changes nothing', async () => {
    await settings(alice, 'PATCH', { dropped: 'pause', label: 'kept' });
    const refused: [unknown, string][] = [
      [{ label: '' }, LOOP_LABEL_MESSAGES.empty],
      [{ label: '   ' }, LOOP_LABEL_MESSAGES.empty],
      [{ label: 'x'.repeat(81) }, LOOP_LABEL_MESSAGES.tooLong],
      [{ label: 'adloom;feed' }, LOOP_LABEL_MESSAGES.separator],
      [{ label: 'ad\tloom' }, LOOP_LABEL_MESSAGES.control],
      [{ label: 'ad\nloom' }, LOOP_LABEL_MESSAGES.control],
      [{ label: 42 }, 'label'],
      [{ dropped: 'delete' }, '"pause"|"remove"|"keep"'],
      [{}, 'Send dropped, label or both'],
      [{ label: 'fine', colour: 'red' }, 'colour'],
    ];
    for (const [body, message] of refused) {
      const response = await settings(alice, 'PATCH', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.error.message, JSON.stringify(body)).toContain(message);
    }
    const notJson = await t.request('PATCH', loopSettingsPath(clientId), {
      token: alice.token,
      body: '{"label":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect((await settings(alice, 'GET')).body).toEqual({ dropped: 'pause', label: 'kept' });
  });

  it('shows and changes nothing of another user’s client (404)', async () => {
    expect((await settings(bob, 'GET')).status).toBe(404);
    const patched = await settings(bob, 'PATCH', { label: 'bob was here' });
    expect(patched.status).toBe(404);
    expect(patched.body.error.code).toBe('not_found');
    expect((await settings(alice, 'GET')).body.label).not.toBe('bob was here');
    expect((await settings(alice, 'GET', undefined, randomUUID())).status).toBe(404);
  });
});
