import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSheetUrl } from '@adloom/contract';
import {
  SHEETS_SCOPE,
  STAND_IN_MAX_ROWS_PER_REQUEST,
  startGoogleStandIn,
  type GoogleStandIn,
} from './google-stand-in.ts';

// The stand-in is what proves the server's Google client; these tests prove the stand-in keeps
// Google's rules (PKCE, one-use codes, revoked grants, RAW text cells, batch limits) over HTTP.

const REDIRECT_URI = 'http://adloom.test/account';

let standIn: GoogleStandIn;
beforeAll(async () => {
  standIn = await startGoogleStandIn();
});
afterAll(() => standIn.close());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function consentUrl(challenge: string, overrides: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    client_id: standIn.settings.GOOGLE_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: SHEETS_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'false',
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  });
  return `${standIn.settings.GOOGLE_AUTH_URL}?${query}`;
}

/** Follows the consent page's redirect by hand and answers the code it carries. */
async function consent(challenge: string): Promise<string> {
  const response = await fetch(consentUrl(challenge), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  expect(back.searchParams.get('state')).toBe('state-123');
  return back.searchParams.get('code')!;
}

async function postForm(url: string, form: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function exchange(code: string, verifier: string) {
  return postForm(standIn.settings.GOOGLE_TOKEN_URL, {
    grant_type: 'authorization_code',
    code,
    client_id: standIn.settings.GOOGLE_CLIENT_ID,
    client_secret: standIn.settings.GOOGLE_CLIENT_SECRET,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
}

function refresh(refreshToken: string) {
  return postForm(standIn.settings.GOOGLE_TOKEN_URL, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: standIn.settings.GOOGLE_CLIENT_ID,
    client_secret: standIn.settings.GOOGLE_CLIENT_SECRET,
  });
}

/** Links through consent and answers a fresh access token. */
async function link(): Promise<{ accessToken: string; refreshToken: string }> {
  const { verifier, challenge } = pkce();
  const { status, body } = await exchange(await consent(challenge), verifier);
  expect(status).toBe(200);
  return { accessToken: body.access_token as string, refreshToken: body.refresh_token as string };
}

async function sheets(
  accessToken: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${standIn.settings.GOOGLE_SHEETS_URL}/v4/spreadsheets/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function valuesPath(id: string, range: string, query = ''): string {
  return `${id}/values/${encodeURIComponent(range)}${query}`;
}

describe('OAuth', () => {
  it('exchanges a consent code once, with the PKCE verifier, for a refresh and an access token', async () => {
    const { verifier, challenge } = pkce();
    const code = await consent(challenge);

    const wrongVerifier = await exchange(code, pkce().verifier);
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The failed attempt used the code up, as Google does.
    expect((await exchange(code, verifier)).body.error).toBe('invalid_grant');

    const second = pkce();
    const granted = await exchange(await consent(second.challenge), second.verifier);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({
      expires_in: 3600,
      scope: SHEETS_SCOPE,
      token_type: 'Bearer',
    });
    expect(granted.body.refresh_token).toEqual(expect.any(String));
    expect(standIn.liveRefreshTokens()).toContain(granted.body.refresh_token);
  });

  it('refuses a consent request without S256 PKCE, the Sheets scope or the client id', async () => {
    const { challenge } = pkce();
    const refusals: Record<string, string>[] = [
      { code_challenge_method: 'plain' },
      { code_challenge: '' },
      { scope: `${SHEETS_SCOPE} https://www.googleapis.com/auth/drive` },
      { client_id: 'someone-else' },
      { response_type: 'token' },
    ];
    for (const overrides of refusals) {
      const response = await fetch(consentUrl(challenge, overrides), { redirect: 'manual' });
      expect(response.status, JSON.stringify(overrides)).toBe(400);
    }
  });

  it('refreshes until the grant is revoked, then answers invalid_grant', async () => {
    const { accessToken, refreshToken } = await link();
    const refreshed = await refresh(refreshToken);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(accessToken);
    expect(refreshed.body.refresh_token).toBeUndefined();

    const revoked = await postForm(standIn.settings.GOOGLE_REVOKE_URL, { token: refreshToken });
    expect(revoked.status).toBe(200);
    expect(await refresh(refreshToken)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // Revoking a grant ends its access tokens too.
    const id = standIn.addSpreadsheet();
    expect((await sheets(refreshed.body.access_token as string, 'GET', id)).status).toBe(401);
    // Revoking again: Google's answer for a token it no longer knows.
    const again = await postForm(standIn.settings.GOOGLE_REVOKE_URL, { token: refreshToken });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_token' } });
  });

  it('revokeAll ends every grant, as a person removing the access at Google', async () => {
    const first = await link();
    const second = await link();
    standIn.revokeAll();
    expect((await refresh(first.refreshToken)).body.error).toBe('invalid_grant');
    expect((await refresh(second.refreshToken)).body.error).toBe('invalid_grant');
  });

  it('refuses a wrong client secret', async () => {
    const { refreshToken } = await link();
    const response = await postForm(standIn.settings.GOOGLE_TOKEN_URL, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: standIn.settings.GOOGLE_CLIENT_ID,
      client_secret: 'not-the-secret',
    });
    expect(response).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});

describe('Sheets v4', () => {
  let accessToken: string;
  beforeAll(async () => {
    ({ accessToken } = await link());
  });

  it("answers a spreadsheet's title and tabs, 404 for an unknown one, 401 without a good token", async () => {
    const id = standIn.addSpreadsheet({
      title: 'Products',
      tabs: [{ title: 'Feed', sheetId: 7 }, { title: "Bob's tab" }],
    });
    const fields = '?fields=properties.title,sheets.properties(sheetId,title,gridProperties)';
    const { status, body } = await sheets(accessToken, 'GET', `${id}${fields}`);
    expect(status).toBe(200);
    expect(body.properties).toMatchObject({ title: 'Products' });
    expect(body.sheets).toMatchObject([
      { properties: { sheetId: 7, title: 'Feed' } },
      { properties: { sheetId: 1, title: "Bob's tab" } },
    ]);
    expect(parseSheetUrl(standIn.sheetUrl(id, 7))).toEqual({ spreadsheetId: id, gid: 7 });

    const missing = await sheets(accessToken, 'GET', 'no-such-spreadsheet-id');
    expect(missing).toMatchObject({
      status: 404,
      body: { error: { code: 404, status: 'NOT_FOUND' } },
    });
    expect((await sheets('ya29.made-up', 'GET', id)).status).toBe(401);
  });

  it('keeps every value as the text written RAW, and reads it back the same', async () => {
    const id = standIn.addSpreadsheet({ tabs: [{ title: "Bob's feed" }] });
    const range = "'Bob''s feed'!A1:F3";
    const values = [
      ['root', 'mod', 'var1', 'var2', 'var3', 'url'],
      ['00042', '=SUM(A1)', '12345678901234567890', '2024-01-02', '', 'https://x.test/a'],
      ['shoes'],
    ];
    const written = await sheets(
      accessToken,
      'PUT',
      valuesPath(id, range, '?valueInputOption=RAW'),
      {
        range,
        majorDimension: 'ROWS',
        values,
      },
    );
    expect(written).toMatchObject({ status: 200, body: { updatedRows: 3, updatedCells: 13 } });
    expect(standIn.spreadsheet(id).tabs[0]!.rows[1]).toEqual(values[1]);

    const read = await sheets(
      accessToken,
      'GET',
      valuesPath(
        id,
        "'Bob''s feed'!A1:F10000",
        '?majorDimension=ROWS&valueRenderOption=FORMATTED_VALUE',
      ),
    );
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ majorDimension: 'ROWS', values });
    expect(read.body.range).toBe("'Bob''s feed'!A1:F3");

    const userEntered = await sheets(
      accessToken,
      'PUT',
      valuesPath(id, range, '?valueInputOption=USER_ENTERED'),
      { values },
    );
    expect(userEntered.status).toBe(400);
  });

  it('reads the range it is asked for, trailing empty cells and rows left out', async () => {
    const id = standIn.addSpreadsheet({
      tabs: [
        { title: 'First', rows: [['a1', 'b1', ''], ['a2'], ['', '', ''], ['a4', 'b4', 'c4']] },
        { title: 'Second tab', rows: [['x']] },
      ],
    });
    const read = async (range: string) =>
      (await sheets(accessToken, 'GET', valuesPath(id, range))).body.values;
    expect(await read('First!A1:B2')).toEqual([['a1', 'b1'], ['a2']]);
    expect(await read('First!B1:C')).toEqual([['b1'], [], [], ['b4', 'c4']]);
    expect(await read('A4:C4')).toEqual([['a4', 'b4', 'c4']]);
    expect(await read("'Second tab'!A:Z")).toEqual([['x']]);
    expect(await read('First!A5:F9')).toBeUndefined();
    expect((await sheets(accessToken, 'GET', valuesPath(id, "'No tab'!A1:B2"))).status).toBe(400);
  });

  it('clears a range', async () => {
    const id = standIn.addSpreadsheet({
      tabs: [
        {
          rows: [
            ['a', 'b', 'c'],
            ['d', 'e', 'f'],
          ],
        },
      ],
    });
    const cleared = await sheets(accessToken, 'POST', `${valuesPath(id, 'Sheet1!B:Z')}:clear`, {});
    expect(cleared.status).toBe(200);
    expect(standIn.spreadsheet(id).tabs[0]!.rows).toEqual([['a'], ['d']]);
    await sheets(accessToken, 'POST', `${valuesPath(id, "'Sheet1'!A:Z")}:clear`, {});
    expect(standIn.spreadsheet(id).tabs[0]!.rows).toEqual([]);
  });

  it(`takes at most ${STAND_IN_MAX_ROWS_PER_REQUEST} rows per values request`, async () => {
    const rows = Array.from({ length: STAND_IN_MAX_ROWS_PER_REQUEST + 1 }, (_, i) => [`r${i}`]);
    const id = standIn.addSpreadsheet({ tabs: [{ rows }] });
    const tooMany = await sheets(accessToken, 'GET', valuesPath(id, 'Sheet1!A1:F20000'));
    expect(tooMany.status).toBe(400);
    const batch = await sheets(accessToken, 'GET', valuesPath(id, 'Sheet1!A10001:F20000'));
    expect(batch.body.values).toEqual([[`r${STAND_IN_MAX_ROWS_PER_REQUEST}`]]);
    const write = await sheets(
      accessToken,
      'PUT',
      valuesPath(id, 'Sheet1!A1:A10001', '?valueInputOption=RAW'),
      { values: rows },
    );
    expect(write.status).toBe(400);
  });

  it('answers the failures it is told to, then works again', async () => {
    const id = standIn.addSpreadsheet();
    standIn.failNext(2, 429);
    expect((await sheets(accessToken, 'GET', id)).body).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED' },
    });
    expect((await sheets(accessToken, 'GET', id)).status).toBe(429);
    expect((await sheets(accessToken, 'GET', id)).status).toBe(200);

    standIn.failNext(1, 503);
    expect((await sheets(accessToken, 'GET', id)).status).toBe(503);

    standIn.quotaExhausted(true);
    expect((await sheets(accessToken, 'GET', id)).status).toBe(429);
    expect((await sheets(accessToken, 'GET', id)).status).toBe(429);
    standIn.quotaExhausted(false);
    expect((await sheets(accessToken, 'GET', id)).status).toBe(200);
  });

  it('logs each request with the token it carried', async () => {
    const id = standIn.addSpreadsheet();
    const before = standIn.requests.length;
    await sheets(accessToken, 'GET', id);
    expect(standIn.requests.slice(before)).toEqual([
      {
        method: 'GET',
        path: `/v4/spreadsheets/${id}`,
        authorization: `Bearer ${accessToken}`,
        body: '',
      },
    ]);
  });

  it('answers 401 for an expired access token until it is refreshed', async () => {
    const { refreshToken } = await link();
    const id = standIn.addSpreadsheet();
    standIn.expireAccessTokens();
    expect((await sheets(accessToken, 'GET', id)).status).toBe(401);
    const fresh = (await refresh(refreshToken)).body.access_token as string;
    expect((await sheets(fresh, 'GET', id)).status).toBe(200);
    accessToken = fresh;
  });
});
