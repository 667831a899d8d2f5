import { describe, expect, it } from 'vitest';
import { SHEET_MESSAGES } from '@adloom/contract';
import { ApiError, toApiError } from './errors.ts';
import { describeSheetFailure } from './google.ts';

const answer = (status: number, code: string, details?: unknown) =>
  toApiError(status, { error: { code, message: 'server text', details } }, '/api/google/x');

describe('describeSheetFailure (spec section 8, sheet calls)', () => {
  it.each([
    [400, 'sheet_headers', "Couldn't fetch sheet data. Check headers and try again"],
    [401, 'not_linked', "No Google account linked. Go to 'Account' to link one"],
    [
      401,
      'relink_needed',
      "Google no longer accepts Adloom's access to your Google account. Go to 'Account' and link it again",
    ],
    [
      404,
      'sheet_not_found',
      'Sheet URL seems to be invalid. Please check that the sheet exists and try again',
    ],
    [429, 'quota_exhausted', 'Whoops. Something went wrong. server text'],
    [413, 'payload_too_large', 'Whoops. Something went wrong. server text'],
  ])('a download answered %i %s shows its words and its status', (status, code, message) => {
    const failure = describeSheetFailure(answer(status, code), 'download');
    expect(failure).toMatchObject({ kind: 'message', message, status });
  });

  it("shows only the spec's catch-all when the server sent no sentence of its own", () => {
    const bare = toApiError(418, undefined, '/api/google/download-data');
    expect(describeSheetFailure(bare, 'download')).toEqual({
      kind: 'message',
      message: 'Whoops. Something went wrong',
      status: 418,
    });
    const whoops = toApiError(
      422,
      { error: { code: 'x', message: SHEET_MESSAGES.whoops } },
      '/api/google/download-data',
    );
    expect(describeSheetFailure(whoops, 'download')).toMatchObject({
      message: 'Whoops. Something went wrong',
    });
  });

  it('sends the person to the account page when the Google account is missing or refused', () => {
    for (const code of ['not_linked', 'relink_needed'])
      expect(describeSheetFailure(answer(401, code), 'download')).toMatchObject({
        toAccount: true,
      });
    expect(describeSheetFailure(answer(404, 'sheet_not_found'), 'download')).not.toHaveProperty(
      'toAccount',
    );
  });

  it('adds the header hint to the headers message', () => {
    expect(describeSheetFailure(answer(400, 'sheet_headers'), 'download')).toEqual({
      kind: 'message',
      message: SHEET_MESSAGES.headers,
      status: 400,
      hint: SHEET_MESSAGES.headersHint,
    });
  });

  it("reads an upload's 400 as a bad sheet URL (spec: the upload failure message)", () => {
    expect(describeSheetFailure(answer(400, 'bad_request'), 'upload')).toEqual({
      kind: 'message',
      message: 'Sheet URL seems to be invalid. Please check that the sheet exists and try again',
      status: 400,
    });
  });

  it("asks before replacing on 409, with the server's count of the sheet's other rows", () => {
    expect(
      describeSheetFailure(answer(409, 'sheet_has_other_rows', { otherRows: 12 }), 'upload'),
    ).toEqual({ kind: 'confirm-replace', otherRows: 12 });
    expect(describeSheetFailure(answer(409, 'sheet_has_other_rows'), 'upload')).toEqual({
      kind: 'confirm-replace',
      otherRows: 0,
    });
  });

  it('leaves an ended session to the generic handler, with no note', () => {
    const error = answer(401, 'unauthorized');
    expect(describeSheetFailure(error, 'download')).toEqual({ kind: 'generic', error });
  });

  it('leaves statuses above 499 to the generic handler, the note saying what it can', () => {
    for (const [status, code] of [
      [500, 'internal_error'],
      [502, 'upstream_failed'],
      [503, 'service_unavailable'],
    ] as const) {
      const error = answer(status, code);
      expect(describeSheetFailure(error, 'download')).toEqual({
        kind: 'generic',
        error,
        note: 'There seems to be a problem with the server. Please try again later 🛠️',
      });
    }
    const error = answer(501, 'not_configured');
    expect(describeSheetFailure(error, 'upload')).toEqual({
      kind: 'generic',
      error,
      note: SHEET_MESSAGES.notConfigured,
    });
  });

  it('says in plain words that no answer came (no status), and Whoops for a failure here', () => {
    const offline = new ApiError({ status: 0, path: '/api/google/x', message: 'Failed to fetch' });
    for (const direction of ['upload', 'download'] as const)
      expect(describeSheetFailure(offline, direction)).toEqual({
        kind: 'message',
        message: 'Could not reach the server. Check your connection and try again',
      });
    expect(describeSheetFailure(new TypeError('x'), 'download')).toEqual({
      kind: 'message',
      message: 'Whoops. Something went wrong',
    });
  });
});
