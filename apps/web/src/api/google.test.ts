import { describe, expect, it } from 'vitest';
import { SHEET_MESSAGES } from '@adloom/contract';
import { ApiError, toApiError } from './errors.ts';
import { describeSheetFailure } from './google.ts';

const answer = (status: number, code: string, details?: unknown) =>
  toApiError(status, { error: { code, message: 'server text', details } }, '/api/google/x');

describe('describeSheetFailure (spec section 8, sheet calls)', () => {
  it.each([
    [400, 'sheet_headers', SHEET_MESSAGES.headers],
    [401, 'not_linked', SHEET_MESSAGES.notLinked],
    [401, 'relink_needed', SHEET_MESSAGES.relinkNeeded],
    [404, 'sheet_not_found', SHEET_MESSAGES.invalidSheet],
    [429, 'quota_exhausted', SHEET_MESSAGES.quota],
    [502, 'upstream_failed', SHEET_MESSAGES.whoops],
    [501, 'not_configured', SHEET_MESSAGES.notConfigured],
    [500, 'internal_error', SHEET_MESSAGES.whoops],
    [413, 'payload_too_large', SHEET_MESSAGES.whoops],
  ])('a download answered %i %s shows its message', (status, code, message) => {
    const failure = describeSheetFailure(answer(status, code), 'download');
    expect(failure.kind).toBe('message');
    expect(failure.kind === 'message' && failure.message).toBe(message);
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
      hint: SHEET_MESSAGES.headersHint,
    });
  });

  it("reads an upload's 400 as a bad sheet URL (spec: the upload failure message)", () => {
    expect(describeSheetFailure(answer(400, 'bad_request'), 'upload')).toEqual({
      kind: 'message',
      message: SHEET_MESSAGES.invalidSheet,
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

  it('leaves an ended session to the generic handler', () => {
    const error = answer(401, 'unauthorized');
    expect(describeSheetFailure(error, 'download')).toEqual({ kind: 'session', error });
  });

  it('shows the whoops message when no answer arrived or the failure is not an API error', () => {
    const offline = new ApiError({ status: 0, path: '/api/google/x', message: 'Failed to fetch' });
    expect(describeSheetFailure(offline, 'upload')).toEqual({
      kind: 'message',
      message: SHEET_MESSAGES.whoops,
    });
    expect(describeSheetFailure(new TypeError('x'), 'download')).toEqual({
      kind: 'message',
      message: SHEET_MESSAGES.whoops,
    });
  });
});
