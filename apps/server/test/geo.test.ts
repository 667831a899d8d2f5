import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  GEO_LOOKUP_MAX,
  GEO_MESSAGES,
  GeoParamsSchema,
  matchesGeoFilters,
  type GeoParamsInput,
  type GeoTarget,
} from '@adloom/contract';
import { AppError } from '../src/errors.ts';
import { parseGeoCsv } from '../src/services/geo-file.ts';
import { findGeoTargets, loadGeoTargets } from '../src/services/geo.ts';
import { EXTRACT_ROWS, EXTRACT_ROWS_PER_TYPE, geoFixtureFile } from './geo-data.ts';
import { startTestApp, testDbKind, type TestApp } from './helpers.ts';

/**
 * The geo calls on the extract of the subset (loaded once for the file): every answer must be
 * what the contract's matchesGeoFilters gives over the file itself.
 */
const SUBSET = geoFixtureFile('geotargets-extract.csv');
const FILE_ROWS = parseGeoCsv(readFileSync(SUBSET), 'subset');
const ALL: GeoTarget[] = FILE_ROWS.map((row) => ({
  ...row,
  canonicalName: row.canonicalName.split(','),
}));

/** The targets the contract's rule gives over the file, in criteria ID order. */
function expected(input: GeoParamsInput): GeoTarget[] {
  const params = GeoParamsSchema.parse(input);
  return ALL.filter(
    (target) =>
      target.targetType === params.targetType &&
      (!params.countryCode || target.countryCode === params.countryCode) &&
      matchesGeoFilters(target, params),
  ).sort((a, b) => a.criteriaId - b.criteriaId);
}

describe(`geo targets on the extract (${testDbKind()})`, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ token } = await t.signUp());
    await loadGeoTargets(t.db, SUBSET);
  });
  afterAll(async () => {
    await t.close();
  });

  const geo = (params: GeoParamsInput) => t.request('POST', API.geo, { token, body: { params } });
  const search = (params: GeoParamsInput, limit?: number) =>
    t.request('POST', API.geoSearch, {
      token,
      body: limit === undefined ? { params } : { params, limit },
    });

  it('says which release is loaded: the file name, its date, the rows', async () => {
    const response = await t.request('GET', API.geoStatus, { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      release: {
        date: statSync(SUBSET).mtime.toISOString().slice(0, 10),
        source: 'geotargets-extract.csv',
        rows: EXTRACT_ROWS,
        loadedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    });
  });

  it('stores every row of each type', async () => {
    const rows = await t.db.query<{ target_type: string; n: number }>(
      'select target_type, count(*)::int as n from geo_targets group by target_type',
    );
    expect(Object.fromEntries(rows.map((row) => [row.target_type, row.n]))).toEqual(
      EXTRACT_ROWS_PER_TYPE,
    );
  });

  it('DE + City + berlin: exactly the targets the rule gives over the file, Berlin first', async () => {
    const params = { targetType: 'City', countryCode: 'de', canonicalName: ' BERLIN ' } as const;
    const response = await geo(params);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected(params));
    expect(response.body[0]).toEqual({
      criteriaId: 1003854,
      name: 'Berlin',
      canonicalName: ['Berlin', 'Berlin', 'Germany'],
      parentId: 20226,
      countryCode: 'DE',
      targetType: 'City',
      status: '',
    });
    expect(response.body.map((target: GeoTarget) => target.name)).toContain('Uberlingen');
  });

  it.each<GeoParamsInput>([
    { targetType: 'Country' },
    { targetType: 'Country', countryCode: 'FR' },
    { targetType: 'Country', canonicalName: 'land' },
    { targetType: 'City', countryCode: 'DE', canonicalName: 'burg' },
    { targetType: 'City', countryCode: 'DE', canonicalName: 'Bavaria' },
    { targetType: 'City', countryCode: 'US' },
    { targetType: 'State', countryCode: 'US', canonicalName: 'new' },
    { targetType: 'County', countryCode: 'GB', canonicalName: 'shire' },
    { targetType: 'Region', countryCode: 'FR' },
    { targetType: 'Postal Code', countryCode: 'US', canonicalName: 'ca' },
    { targetType: 'City', countryCode: 'DE', parentId: '20226' },
    { targetType: 'City', countryCode: 'DE', parentId: 20226, canonicalName: 'mitte' },
    { targetType: 'City', countryCode: 'DE', parentId: '0020226' },
    { targetType: 'City', countryCode: 'DE', parentId: ' ' },
    { targetType: 'City', countryCode: 'DE', canonicalName: 'berlin,germany' },
    { targetType: 'City', countryCode: 'DE', canonicalName: '%' },
    { targetType: 'City', countryCode: 'DE', canonicalName: '_' },
    { targetType: 'City', countryCode: 'DE', canonicalName: '\\' },
    { targetType: 'City', countryCode: 'DE', parentId: '9999999999999999999' },
    { targetType: 'Airport', countryCode: 'DE' },
  ])('%j: POST /api/geo answers what the rule gives over the file', async (params) => {
    const response = await geo(params);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected(params));
  });

  it('the parent ID filter keeps only the children of that target', async () => {
    const response = await geo({ targetType: 'City', countryCode: 'DE', parentId: '20226' });
    expect(response.body.length).toBeGreaterThan(1);
    expect(new Set(response.body.map((target: GeoTarget) => target.parentId))).toEqual(
      new Set([20226]),
    );
  });

  it('search: the count POST /api/geo would answer, the first `limit` matches in order', async () => {
    const params = { targetType: 'City', countryCode: 'DE', canonicalName: 'burg' } as const;
    const all = (await geo(params)).body as GeoTarget[];
    expect(all.length).toBeGreaterThan(20);
    const first = await search(params);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ count: all.length, removalPlanned: 0, targets: all.slice(0, 20) });
    expect((await search(params, 5)).body.targets).toEqual(all.slice(0, 5));
    expect((await search(params, 0)).body).toEqual({
      count: all.length,
      removalPlanned: 0,
      targets: [],
    });
    const none = await search({ targetType: 'City', countryCode: 'DE', canonicalName: 'zzqx' });
    expect(none.body).toEqual({ count: 0, removalPlanned: 0, targets: [] });
  });

  it('a search matching more targets than a feed holds is 413 geo_too_many', async () => {
    const params = GeoParamsSchema.parse({ targetType: 'City', countryCode: 'US' });
    const count = expected(params).length;
    const error = await findGeoTargets(t.db, params, count - 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'geo_too_many',
      status: 413,
      message: GEO_MESSAGES.tooMany(count, count - 1),
    });
    expect(await findGeoTargets(t.db, params, count)).toHaveLength(count);
  });

  it.each([
    [{ targetType: 'City' }, 'params.countryCode'],
    [{ targetType: 'City', countryCode: 'DEU' }, 'params.countryCode'],
    [{ targetType: 'Town', countryCode: 'DE' }, 'params.targetType'],
    [{ targetType: 'City', countryCode: 'DE', parentId: '12a' }, 'params.parentId'],
    [
      { targetType: 'City', countryCode: 'DE', canonicalName: 'x'.repeat(201) },
      'params.canonicalName',
    ],
  ])('refuses %j with 400 naming %s', async (params, path) => {
    for (const response of [
      await geo(params as GeoParamsInput),
      await search(params as GeoParamsInput),
    ]) {
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
      expect(response.body.errors.map((error: { path: string }) => error.path)).toContain(path);
    }
  });

  it('refuses a search limit above 100 and a body without params', async () => {
    const tooMany = await search({ targetType: 'Country' }, 101);
    expect([tooMany.status, tooMany.body.errors[0].path]).toEqual([400, 'limit']);
    const empty = await t.request('POST', API.geo, { token, body: {} });
    expect([empty.status, empty.body.errors[0].path]).toEqual([400, 'params']);
  });

  const lookup = (ids: unknown) => t.request('POST', API.geoTargets, { token, body: { ids } });
  const byId = (id: number) => ALL.find((target) => target.criteriaId === id)!;

  it('looks up criteria IDs: their targets in criteria ID order, unknown IDs left out', async () => {
    const response = await lookup(['1027512', '2840', '2654', '9999999999', '2840', '02276']);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      targets: [2276, 2654, 2840, 1027512].map(byId),
    });
    // A canonical name holding a comma comes back as Google wrote it, split on its commas.
    expect(response.body.targets[1].canonicalName.join(',')).toBe(
      'Saint Helena, Ascension and Tristan da Cunha',
    );
    expect((await lookup(['9999999999'])).body).toEqual({ targets: [] });
  });

  it(`looks up at most ${GEO_LOOKUP_MAX} IDs of digits, and at least one`, async () => {
    const ids = Array.from({ length: GEO_LOOKUP_MAX }, (_, i) => String(2000 + i));
    const most = await lookup(ids);
    expect(most.status).toBe(200);
    expect(most.body.targets.length).toBeGreaterThan(0);
    for (const [bad, path] of [
      [[...ids, '1'], 'ids'],
      [[], 'ids'],
      [['2840', 'Berlin'], 'ids.1'],
      [['-2840'], 'ids.0'],
      [['1234567890123456789'], 'ids.0'],
      [[2840], 'ids.0'],
      ['2840', 'ids'],
    ] as const) {
      const response = await lookup(bad);
      expect([
        bad,
        response.status,
        response.body.error.code,
        response.body.errors[0].path,
      ]).toEqual([bad, 400, 'validation_failed', path]);
    }
  });

  it('needs a signed-in user for every geo call', async () => {
    const body = { params: { targetType: 'Country' } };
    for (const [method, path] of [
      ['GET', API.geoStatus],
      ['POST', API.geo],
      ['POST', API.geoSearch],
      ['POST', API.geoTargets],
    ] as const) {
      const response = await t.request(method, path, method === 'POST' ? { body } : {});
      expect([path, response.status]).toEqual([path, 401]);
    }
  });
});
