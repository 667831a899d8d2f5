import { afterEach, describe, expect, it, vi } from 'vitest';
import { GEO_LOOKUP_MAX, GEO_MESSAGES } from '@adloom/contract';
import { ApiError, NO_RESPONSE_MESSAGE, toApiError } from './errors.ts';
import { describeGeoFailure, lookupGeoTargets } from './geo.ts';

const answer = (status: number, code: string, message = 'server text', msgs?: string[]) =>
  toApiError(
    status,
    { error: { code, message }, ...(msgs ? { errors: msgs.map((msg) => ({ msg })) } : {}) },
    '/api/geo',
  );

describe('describeGeoFailure (spec section 8, geo calls)', () => {
  it('reads 409 geo_not_loaded as the targets not being loaded', () => {
    expect(describeGeoFailure(answer(409, 'geo_not_loaded', GEO_MESSAGES.notLoaded))).toEqual({
      kind: 'not-loaded',
    });
  });

  it("says the server's message for too many matches", () => {
    const message = GEO_MESSAGES.tooMany(270_000, 250_000);
    expect(describeGeoFailure(answer(413, 'geo_too_many', message))).toEqual({
      kind: 'message',
      message,
    });
  });

  it('says the first field problem of a 400, or its message when it names none', () => {
    expect(
      describeGeoFailure(
        answer(400, 'validation_failed', 'Invalid body', ['Country code must be two letters']),
      ),
    ).toEqual({ kind: 'message', message: 'Country code must be two letters' });
    expect(describeGeoFailure(answer(400, 'validation_failed', 'Invalid body'))).toEqual({
      kind: 'message',
      message: 'Invalid body',
    });
  });

  it('leaves an ended session and server failures to the generic handler', () => {
    for (const [status, code] of [
      [401, 'unauthorized'],
      [500, 'internal_error'],
      [503, 'service_unavailable'],
    ] as const) {
      const error = answer(status, code);
      expect(describeGeoFailure(error)).toEqual({ kind: 'generic', error });
    }
  });

  it('says the server could not be reached when no answer arrived', () => {
    const offline = new ApiError({ status: 0, path: '/api/geo', message: 'Failed to fetch' });
    expect(describeGeoFailure(offline)).toEqual({ kind: 'message', message: NO_RESPONSE_MESSAGE });
    expect(describeGeoFailure(new TypeError('boom'))).toEqual({ kind: 'message', message: 'boom' });
  });
});

describe('lookupGeoTargets (POST /api/geo/targets)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it(`asks in turns of ${GEO_LOOKUP_MAX}, each ID of digits once, and joins the answers`, async () => {
    const asked: string[][] = [];
    vi.stubGlobal('fetch', async (_url: RequestInfo | URL, init?: RequestInit) => {
      const { ids } = JSON.parse(String(init?.body)) as { ids: string[] };
      asked.push(ids);
      const targets = ids.slice(0, 1).map((id) => ({
        criteriaId: Number(id),
        name: `Place ${id}`,
        canonicalName: [`Place ${id}`],
        parentId: null,
        countryCode: 'US',
        targetType: 'City',
        status: 'Active',
      }));
      return new Response(JSON.stringify({ targets }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    const ids = Array.from({ length: GEO_LOOKUP_MAX + 500 }, (_, i) => String(i + 1));
    const targets = await lookupGeoTargets([...ids, '1', 'Berlin', '']);
    expect(asked.map((turn) => [turn[0], turn.length])).toEqual([
      ['1', GEO_LOOKUP_MAX],
      [String(GEO_LOOKUP_MAX + 1), 500],
    ]);
    expect(targets.map((t) => t.criteriaId)).toEqual([1, GEO_LOOKUP_MAX + 1]);
    expect(await lookupGeoTargets(['Berlin'])).toEqual([]);
    expect(asked).toHaveLength(2);
  });
});
