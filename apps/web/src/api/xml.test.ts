import { describe, expect, it } from 'vitest';
import { ApiError, NO_RESPONSE_MESSAGE, toApiError } from './errors.ts';
import { describeXmlFailure } from './xml.ts';

const answer = (status: number, code: string, message: string) =>
  toApiError(status, { error: { code, message } }, '/api/app/fetch-xml');

describe('describeXmlFailure (issue 17, the detail of the XML notices)', () => {
  it("says the server's message for each refusal of a feed", () => {
    for (const [status, code, message] of [
      [403, 'forbidden', 'The XML feed tools are not available to this account.'],
      [400, 'url_refused', 'The feed URL leads to a private address (10.0.0.1).'],
      [413, 'feed_too_large', 'The feed is larger than 200 MB.'],
      [422, 'feed_unreachable', "The shop's server (shop.test) could not be found."],
      [422, 'xml_malformed', 'The feed is not well-formed XML: line 4, column 36: bad tag'],
      [429, 'fetch_busy', 'Two feeds are being read for you already.'],
    ] as const) {
      expect(describeXmlFailure(answer(status, code, message))).toBe(message);
    }
  });

  it('says the server could not be reached when no answer arrived', () => {
    const offline = new ApiError({ status: 0, path: '/api/app/fetch-xml', message: 'Failed' });
    expect(describeXmlFailure(offline)).toBe(NO_RESPONSE_MESSAGE);
    expect(describeXmlFailure(new TypeError('boom'))).toBe('boom');
  });
});
