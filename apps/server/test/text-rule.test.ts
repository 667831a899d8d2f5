import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  TEMPLATE_SAVE_PATHS,
  TEXT_LONE_SURROGATE_MESSAGE,
  TEXT_NUL_MESSAGE,
  buildRecordPath,
  loopSettingsPath,
} from '@adloom/contract';
import { TEST_PASSWORD, startTestApp, type TestApp } from './helpers.ts';

/**
 * NUL and unpaired surrogates are 400 naming the field on every route the server implements.
 * The routes come from the contract's API paths (and the methods the server registers for
 * them), so a new route without a row here fails the first test.
 */

/** A request whose field `field` holds `bad` (in the body, or in the URL when `inUrl`). */
interface Probe {
  field: string;
  /** The bad text travels %-encoded in the URL (a lone surrogate cannot be: see below). */
  inUrl?: boolean;
  build(bad: string): { path: string; body?: unknown };
}

interface RouteRow {
  isAuthed: boolean;
  probes: Probe[];
}

/** Calls of later issues: listed here on purpose, and checked to have no route yet. */
const NOT_IMPLEMENTED: readonly string[] = [];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const SHEET_URL = 'https://docs.google.com/spreadsheets/d/abcdefghijklmnop/edit';
/** A client id nobody has: the rule answers before the route looks for the client. */
const CLIENT_ID = '0b6f1c2e-1111-4222-8333-944455556666';

const inQuery = (path: string): Probe => ({
  field: 'q',
  inUrl: true,
  build: (bad) => ({ path: `${path}?q=${encodeURIComponent(`a${bad}b`)}` }),
});
const inBody = (field: string, path: string, body: (bad: string) => unknown): Probe => ({
  field,
  build: (bad) => ({ path, body: body(bad) }),
});

function templateSave(
  kind: keyof typeof TEMPLATE_SAVE_PATHS,
  field: string,
  template: (bad: string) => unknown,
): RouteRow {
  return {
    isAuthed: true,
    probes: [
      inBody(field, TEMPLATE_SAVE_PATHS[kind], (bad) => ({
        name: 'C',
        templates: [{ name: 'Fine' }, template(bad)],
      })),
    ],
  };
}

/** Every route of the server, by `METHOD url` as registered, with a probe per field kind. */
const ROUTES: Record<string, RouteRow> = {
  [`GET ${API.health}`]: { isAuthed: false, probes: [inQuery(API.health)] },
  [`GET ${API.ready}`]: { isAuthed: false, probes: [inQuery(API.ready)] },
  [`GET ${API.config}`]: { isAuthed: false, probes: [inQuery(API.config)] },
  [`POST ${API.users.register}`]: {
    isAuthed: false,
    probes: [
      inBody('email', API.users.register, (bad) => ({
        email: `new${bad}@example.com`,
        password: TEST_PASSWORD,
        'password-confirm': TEST_PASSWORD,
        recaptchaToken: '',
      })),
    ],
  },
  [`POST ${API.users.login}`]: {
    isAuthed: false,
    probes: [
      inBody('email', API.users.login, (bad) => ({
        email: `a${bad}@example.com`,
        password: 'whatever',
      })),
    ],
  },
  [`POST ${API.users.forgot}`]: {
    isAuthed: false,
    probes: [inBody('email', API.users.forgot, (bad) => ({ email: `a${bad}@example.com` }))],
  },
  [`GET ${API.users.reset}:token`]: {
    isAuthed: false,
    probes: [
      {
        field: 'token',
        inUrl: true,
        build: (bad) => ({ path: `${API.users.reset}${encodeURIComponent(`abc${bad}def`)}` }),
      },
    ],
  },
  [`POST ${API.users.reset}:token`]: {
    isAuthed: false,
    probes: [
      {
        field: 'token',
        inUrl: true,
        build: (bad) => ({
          path: `${API.users.reset}${encodeURIComponent(`abc${bad}def`)}`,
          body: { password: 'new password', 'password-confirm': 'new password' },
        }),
      },
      inBody('password', `${API.users.reset}abcdef`, (bad) => ({
        password: `new${bad}password`,
        'password-confirm': `new${bad}password`,
      })),
    ],
  },
  [`POST ${API.users.verifyEmail}:token`]: {
    isAuthed: false,
    probes: [
      {
        field: 'token',
        inUrl: true,
        build: (bad) => ({
          path: `${API.users.verifyEmail}${encodeURIComponent(`abc${bad}def`)}`,
          body: {},
        }),
      },
    ],
  },
  [`POST ${API.users.sendVerification}`]: {
    isAuthed: true,
    // The body has no text field of its own: the rule covers any field sent.
    probes: [inBody('note', API.users.sendVerification, (bad) => ({ note: bad }))],
  },
  [`POST ${API.users.changeEmail}`]: {
    isAuthed: true,
    probes: [
      inBody('email', API.users.changeEmail, (bad) => ({
        email: `new${bad}@example.com`,
        password: TEST_PASSWORD,
      })),
      inBody('password', API.users.changeEmail, (bad) => ({
        email: 'new@example.com',
        password: `secret${bad}word`,
      })),
    ],
  },
  [`POST ${API.users.delete}`]: {
    isAuthed: true,
    probes: [inBody('password', API.users.delete, (bad) => ({ password: `secret${bad}word` }))],
  },
  [`POST ${API.users.toggleTutorials}`]: {
    isAuthed: true,
    // The body has no text field of its own: the rule covers any field sent.
    probes: [
      inBody('note', API.users.toggleTutorials, (bad) => ({ shouldDisable: true, note: bad })),
    ],
  },
  [`POST ${API.users.setTutorialDoneStatus}`]: {
    isAuthed: true,
    probes: [
      inBody('target', API.users.setTutorialDoneStatus, (bad) => ({
        target: `step${bad}`,
        isDone: true,
      })),
    ],
  },
  [`POST ${API.users.resetTutorials}`]: {
    isAuthed: true,
    probes: [inBody('message', API.users.resetTutorials, (bad) => ({ message: `x${bad}` }))],
  },
  [`GET ${API.users.me}`]: { isAuthed: true, probes: [inQuery(API.users.me)] },
  [`GET ${API.users.myData}`]: { isAuthed: true, probes: [inQuery(API.users.myData)] },
  // The Admin calls (the shared token is an operator's): the search text is the field.
  ...Object.fromEntries(
    Object.values(API.admin).map((path) => [
      `GET ${path}`,
      { isAuthed: true, probes: [inQuery(path)] },
    ]),
  ),
  // The rule answers before the handler, so the shared token is not ended by these two.
  [`POST ${API.users.logout}`]: {
    isAuthed: true,
    probes: [inBody('note', API.users.logout, (bad) => ({ note: `x${bad}` }))],
  },
  [`POST ${API.users.logoutEverywhere}`]: {
    isAuthed: true,
    probes: [inBody('note', API.users.logoutEverywhere, (bad) => ({ note: `x${bad}` }))],
  },
  [`POST ${API.app.waitingList}`]: {
    isAuthed: false,
    probes: [inBody('email', API.app.waitingList, (bad) => ({ email: `w${bad}@example.com` }))],
  },
  [`GET ${API.app.clients}`]: { isAuthed: true, probes: [inQuery(API.app.clients)] },
  [`POST ${API.app.clients}`]: {
    isAuthed: true,
    probes: [inBody('name', API.app.clients, (bad) => ({ name: `Acme${bad}` }))],
  },
  [`DELETE ${API.app.clients}`]: {
    isAuthed: true,
    probes: [inBody('name', API.app.clients, (bad) => ({ name: `Acme${bad}` }))],
  },
  [`GET ${API.app.clients}/*`]: {
    isAuthed: true,
    probes: [
      {
        field: 'name',
        inUrl: true,
        build: (bad) => ({ path: `${API.app.clients}/${encodeURIComponent(`Acme${bad}`)}` }),
      },
    ],
  },
  [`POST ${API.app.fetchXml}`]: {
    isAuthed: true,
    probes: [
      inBody('url', API.app.fetchXml, (bad) => ({ url: `https://shop.example.com/${bad}` })),
    ],
  },
  [`GET ${API.app.lists}`]: { isAuthed: true, probes: [inQuery(API.app.lists)] },
  [`POST ${API.app.lists}`]: {
    isAuthed: true,
    probes: [
      inBody('feeds.0.rows.1.root', API.app.lists, (bad) => ({
        feeds: [{ name: 'l', dataType: 'list', rows: [{ root: 'fine' }, { root: `x${bad}` }] }],
      })),
    ],
  },
  [`POST ${API.app.feeds}`]: {
    isAuthed: true,
    probes: [
      inBody('feeds.1.rows.2.var2', API.app.feeds, (bad) => ({
        name: 'C',
        feeds: [
          { name: 'a', rows: [{ root: 'a' }] },
          { name: 'b', rows: [{ root: 'a' }, { root: 'b' }, { root: 'c', var2: `v${bad}` }] },
        ],
      })),
    ],
  },
  [`POST ${API.app.saveCampaignTemplates}`]: templateSave(
    'campaignTemplates',
    'templates.1.keywords.0.keyword',
    (bad) => ({ name: 'T', keywords: [{ keyword: `kw${bad}` }] }),
  ),
  [`POST ${API.app.saveAdTemplates}`]: templateSave(
    'adTemplates',
    'templates.1.templates.0.h1',
    (bad) => ({ name: 'T', templates: [{ h1: `h${bad}` }] }),
  ),
  [`POST ${API.app.saveRsaTemplates}`]: templateSave(
    'rsaTemplates',
    'templates.1.templates.0.headlines.1.text',
    (bad) => ({ name: 'T', templates: [{ headlines: ['fine', { text: `h${bad}`, pos: 1 }] }] }),
  ),
  [`POST ${API.app.savePerformanceMaxTemplates}`]: templateSave(
    'performanceMaxTemplates',
    'templates.1.templates.0.businessName',
    (bad) => ({ name: 'T', templates: [{ businessName: `b${bad}` }] }),
  ),
  [`POST ${API.app.saveExtensionTemplates}`]: templateSave(
    'extensionTemplates',
    'templates.1.templates.0.Link text',
    (bad) => ({ name: 'T', extensionType: 'Sitelink', templates: [{ 'Link text': `l${bad}` }] }),
  ),
  [`GET ${API.google.status}`]: { isAuthed: true, probes: [inQuery(API.google.status)] },
  [`GET ${API.google.consent}`]: { isAuthed: true, probes: [inQuery(API.google.consent)] },
  [`POST ${API.google.accessToken}`]: {
    isAuthed: true,
    probes: [
      inBody('code', API.google.accessToken, (bad) => ({ code: `c${bad}`, state: 'state' })),
    ],
  },
  [`POST ${API.google.unlinkGoogleSheets}`]: {
    isAuthed: true,
    probes: [inBody('user', API.google.unlinkGoogleSheets, (bad) => ({ user: `u${bad}` }))],
  },
  [`POST ${API.google.downloadData}`]: {
    isAuthed: true,
    probes: [
      inBody('activeFeed.name', API.google.downloadData, (bad) => ({
        activeFeed: { name: `f${bad}`, sheetUrl: SHEET_URL },
      })),
    ],
  },
  [`POST ${API.google.downloadList}`]: {
    isAuthed: true,
    probes: [
      inBody('activeList.sheetUrl', API.google.downloadList, (bad) => ({
        activeList: { name: 'l', sheetUrl: `${SHEET_URL}${bad}` },
      })),
    ],
  },
  [`POST ${API.google.uploadData}`]: {
    isAuthed: true,
    probes: [
      inBody('rows.0.root', API.google.uploadData, (bad) => ({
        activeFeed: { name: 'f', sheetUrl: SHEET_URL },
        rows: [{ root: `r${bad}` }],
      })),
    ],
  },
  [`POST ${API.google.uploadList}`]: {
    isAuthed: true,
    probes: [
      inBody('activeList.rows.0.url', API.google.uploadList, (bad) => ({
        activeList: { name: 'l', sheetUrl: SHEET_URL, rows: [{ url: `u${bad}` }] },
      })),
    ],
  },
  // Named as the check below finds it (hasRoute ignores a parameter's name): the route's is :id.
  [`GET ${API.google.progress}:token`]: {
    isAuthed: true,
    probes: [
      {
        field: 'id',
        inUrl: true,
        build: (bad) => ({ path: `${API.google.progress}${encodeURIComponent(`p${bad}`)}` }),
      },
    ],
  },
  [`GET ${API.geoStatus}`]: { isAuthed: true, probes: [inQuery(API.geoStatus)] },
  [`POST ${API.geo}`]: {
    isAuthed: true,
    probes: [
      inBody('params.canonicalName', API.geo, (bad) => ({
        params: { targetType: 'City', countryCode: 'DE', canonicalName: `b${bad}` },
      })),
    ],
  },
  [`POST ${API.geoSearch}`]: {
    isAuthed: true,
    probes: [
      inBody('params.canonicalName', API.geoSearch, (bad) => ({
        params: { targetType: 'City', countryCode: 'DE', canonicalName: `b${bad}` },
        limit: 5,
      })),
    ],
  },
  [`POST ${API.geoTargets}`]: {
    isAuthed: true,
    probes: [inBody('ids.0', API.geoTargets, (bad) => ({ ids: [`2840${bad}`] }))],
  },
  [`POST ${API.feedback}`]: {
    isAuthed: true,
    probes: [
      inBody('message', API.feedback, (bad) => ({
        type: 'Idea',
        message: `A long enough idea ${bad}`,
      })),
    ],
  },
  // A client's builds and loop settings (issue 35): the ids in the URL, the settings' label.
  ...Object.fromEntries(
    (
      [
        ['GET', API.clients.builds],
        ['POST', API.clients.builds],
        ['GET', API.clients.latestBuild],
        ['GET', API.clients.loopSettings],
      ] as const
    ).map(([method, pattern]) => [
      `${method} ${pattern}`,
      {
        isAuthed: true,
        probes: [
          {
            field: 'id',
            inUrl: true,
            build: (bad: string) => ({
              path: pattern.replace(':id', encodeURIComponent(`c${bad}`)),
            }),
          },
        ],
      },
    ]),
  ),
  [`GET ${API.clients.buildRecord}`]: {
    isAuthed: true,
    probes: [
      {
        field: 'buildId',
        inUrl: true,
        build: (bad) => ({ path: buildRecordPath(CLIENT_ID, `b${bad}`) }),
      },
    ],
  },
  [`PATCH ${API.clients.loopSettings}`]: {
    isAuthed: true,
    probes: [inBody('label', loopSettingsPath(CLIENT_ID), (bad) => ({ label: `ad${bad}loom` }))],
  },
  // The rule answers before the route looks at the user's domain or the model.
  [`POST ${API.ai.suggestions}`]: {
    isAuthed: true,
    probes: [
      inBody('params.0.values', API.ai.suggestions, (bad) => ({
        type: 'headlines',
        description: 'We sell shoes',
        params: [{ promptTitle: 'USPs', values: `free${bad}` }],
      })),
    ],
  },
};

/** Every path string of the contract's API object. */
function contractPaths(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  return Object.values(node as Record<string, unknown>).flatMap(contractPaths);
}

const BAD_TEXTS = [
  ['NUL', '\0', TEXT_NUL_MESSAGE],
  ['a lone surrogate', '\uD83D', TEXT_LONE_SURROGATE_MESSAGE],
] as const;

const CASES = Object.entries(ROUTES).flatMap(([route, row]) =>
  row.probes.flatMap((probe) =>
    BAD_TEXTS
      // A lone surrogate has no UTF-8 form, so it cannot be %-encoded (encodeURIComponent
      // throws): URL probes take a NUL here, and a raw malformed escape in the test below.
      .filter(([kind]) => !(probe.inUrl && kind === 'a lone surrogate'))
      .map(([kind, bad, msg]) => ({ route, row, probe, kind, bad, msg })),
  ),
);

describe('NUL and lone surrogates are 400 naming the field, on every route', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // An operator (ADMIN_EMAILS, verified), so the Admin calls answer too.
    t = await startTestApp({ adminEmails: ['rule-ops@example.com'] });
    ({ token } = await t.signUp('rule-ops@example.com', { verified: true }));
    await t.request('POST', API.app.clients, { token, body: { name: 'C' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a row for every route the server registers under the contract paths', () => {
    const registered: string[] = [];
    for (const path of contractPaths(API)) {
      const urls = [path, `${path}/*`, ...(path.endsWith('/') ? [`${path}:token`] : [])];
      const own = METHODS.flatMap((method) =>
        urls.filter((url) => t.app.hasRoute({ method, url })).map((url) => `${method} ${url}`),
      );
      if (NOT_IMPLEMENTED.includes(path)) expect([path, own]).toEqual([path, []]);
      else expect([path, own.length > 0]).toEqual([path, true]);
      registered.push(...own);
    }
    expect([...new Set(registered)].sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it.each(CASES)('$route: $kind in $probe.field', async ({ route, row, probe, bad, msg }) => {
    const method = route.split(' ')[0]!;
    const { path, body } = probe.build(bad);
    const response = await t.request(method, path, {
      ...(body !== undefined ? { body } : {}),
      ...(row.isAuthed ? { token } : {}),
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([{ msg, path: probe.field }]);
  });

  it('refuses a lone surrogate sent as a raw %-escape in the URL with 400', async () => {
    for (const path of [`${API.users.reset}abc%ED%A0%BDdef`, `${API.app.clients}/Acme%ED%A0%BD`]) {
      const response = await t.request('GET', path, { token });
      expect([path, response.status, response.body.error.code]).toEqual([path, 400, 'bad_request']);
    }
  });

  it('stored nothing: the waiting list, the clients and the feedback are as before', async () => {
    const clients = await t.request('GET', API.app.clients, { token });
    expect(clients.body).toEqual(['C']);
    const waiting = await t.db.query<{ n: number | string }>(
      'select count(*)::int as n from waiting_list',
    );
    expect(Number(waiting[0]?.n)).toBe(0);
    const feedback = await t.db.query<{ n: number | string }>(
      'select count(*)::int as n from feedback',
    );
    expect(Number(feedback[0]?.n)).toBe(0);
  });
});
