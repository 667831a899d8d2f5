import { describe, expect, it } from 'vitest';
import { GEO_MESSAGES } from '@adloom/contract';
import { ApiError, NO_RESPONSE_MESSAGE, toApiError } from './errors.ts';
import { describeGeoFailure } from './geo.ts';

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
