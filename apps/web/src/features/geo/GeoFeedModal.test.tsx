import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import {
  API,
  GEO_MESSAGES,
  GEO_REMOVAL_PLANNED,
  matchesGeoFilters,
  type GeoStatus,
  type GeoTarget,
} from '@adloom/contract';
import type { FeedRow } from '@adloom/engine';
import { notifications } from '../../state/notifications.ts';
import { GEO_FEED_TEXTS, GeoFeedModal } from './GeoFeedModal.tsx';
import { json } from '../../api/testResponses.ts';

const RELEASE: NonNullable<GeoStatus['release']> = {
  date: '2024-08-13',
  source: 'geotargets-2024-08-13.csv',
  rows: 98_790,
  loadedAt: '2026-11-26T10:00:00.000Z',
};

function target(criteriaId: number, canonicalName: string, status = 'Active'): GeoTarget {
  const parts = canonicalName.split(',');
  return {
    criteriaId,
    name: parts[0]!,
    canonicalName: parts,
    parentId: 20226,
    countryCode: 'DE',
    targetType: 'City',
    status,
  };
}

const TARGETS = [
  target(1003854, 'Berlin,Berlin,Germany'),
  target(1003855, 'Berlinchen,Brandenburg,Germany', GEO_REMOVAL_PLANNED),
  target(1004000, 'Hamburg,Hamburg,Germany'),
];

/**
 * The server as these tests need it: its geo targets (or none), answering the three geo calls
 * with the contract's rule. `POST /api/geo` answers every target of the type and code, so the
 * tests see the modal filter again on the client (spec section 5).
 */
let server: {
  status: GeoStatus;
  targets: GeoTarget[];
  /** Holds back search answers until released (by search number, from 1). */
  holdSearch?: (n: number) => Promise<void>;
  geoAnswer?: () => Response;
  /** Answers every search with this. */
  searchAnswer?: unknown;
};
let calls: { path: string; body: unknown }[];

beforeEach(() => {
  calls = [];
  server = { status: { release: RELEASE }, targets: TARGETS };
  let searches = 0;
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ path, body });
    if (path === API.geoStatus) return json(200, server.status);
    if (server.status.release === null)
      return json(409, { error: { code: 'geo_not_loaded', message: GEO_MESSAGES.notLoaded } });
    const { params } = body as { params: Record<string, string> };
    if (path === API.geoSearch && server.searchAnswer) return json(200, server.searchAnswer);
    const ofType = server.targets.filter(
      (t) => t.targetType === params.targetType && t.countryCode === params.countryCode,
    );
    if (path === API.geoSearch) {
      searches += 1;
      await server.holdSearch?.(searches);
      const matches = ofType.filter((t) => matchesGeoFilters(t, params));
      return json(200, {
        count: matches.length,
        removalPlanned: matches.filter((t) => t.status === GEO_REMOVAL_PLANNED).length,
        targets: matches.slice(0, (body as { limit: number }).limit),
      });
    }
    if (path === API.geo) return server.geoAnswer?.() ?? json(200, ofType);
    return json(404, { error: { code: 'not_found', message: 'Not found' } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clear();
});

function renderModal(options: { failCreate?: Error } = {}) {
  const created: { name: string; rows: Omit<FeedRow, 'id'>[] }[] = [];
  function Harness() {
    const [opened, setOpened] = useState(true);
    return (
      <GeoFeedModal
        opened={opened}
        onClose={() => setOpened(false)}
        onCreate={(name, rows) => {
          if (options.failCreate) throw options.failCreate;
          created.push({ name, rows });
        }}
      />
    );
  }
  render(
    <MantineProvider>
      <Harness />
    </MantineProvider>,
  );
  return created;
}

const dialog = () => screen.getByRole('dialog', { name: GEO_FEED_TEXTS.title() });
const submit = () => within(dialog()).getByRole('button', { name: GEO_FEED_TEXTS.submit() });
/** The toasts as a person reads them: kind, words and, when the toast shows one, the HTTP status. */
const messages = () =>
  notifications
    .get()
    .notifications.map(
      (n) => `${n.type}: ${n.message}${n.status === undefined ? '' : ` (HTTP ${n.status})`}`,
    );
const searchCalls = () => calls.filter((call) => call.path === API.geoSearch);

async function fill(fields: { name?: string; type?: string; code?: string; filter?: string }) {
  const form = within(await screen.findByRole('form', { name: GEO_FEED_TEXTS.title() }));
  if (fields.name !== undefined) await userEvent.type(form.getByLabelText(/^Name/), fields.name);
  if (fields.type !== undefined)
    await userEvent.selectOptions(form.getByLabelText(/^Target Type/), fields.type);
  if (fields.code !== undefined)
    await userEvent.type(form.getByLabelText(/^Country Code/), fields.code);
  if (fields.filter !== undefined)
    await userEvent.type(form.getByLabelText('Canonical Name Filter'), fields.filter);
  return form;
}

describe('New Geo Feed (spec sections 2, 5 and 7)', () => {
  it('offers the spec fields, the footnotes and a disabled Create Feed that says why', async () => {
    renderModal();
    const form = await fill({});
    expect(form.getByText(GEO_MESSAGES.footnotes)).toBeTruthy();
    expect(form.getByText(/Google geo targets of 2024-08-13/)).toBeTruthy();
    const types = form.getByLabelText(/^Target Type/) as HTMLSelectElement;
    expect([...types.options].map((o) => o.value).filter(Boolean)).toHaveLength(25);
    expect(submit().getAttribute('aria-disabled')).toBe('true');
    const hint = document.getElementById(submit().getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe(GEO_MESSAGES.required);
    // It stays reachable by keyboard, and its tooltip shows on focus; a click creates nothing.
    submit().focus();
    expect(document.activeElement).toBe(submit());
    expect((await screen.findByRole('tooltip')).textContent).toBe(GEO_MESSAGES.required);
    await userEvent.click(submit());
    expect(dialog()).toBeTruthy();
    expect(searchCalls()).toEqual([]);
  });

  it('forces the country code to two upper-case letters and keeps the parent ID numeric', async () => {
    renderModal();
    const form = await fill({ code: 'd1eu' });
    expect(form.getByLabelText(/^Country Code/)).toHaveProperty('value', 'DE');
    await userEvent.type(form.getByLabelText(/^Parent ID/), '20a226');
    expect(form.getByLabelText(/^Parent ID/)).toHaveProperty('value', '20226');
  });

  it('shows how many targets match, flags Removal Planned, lists the first, and creates the feed', async () => {
    const created = renderModal();
    const form = await fill({ name: 'Berlin cities', type: 'City', code: 'de', filter: 'berlin' });
    await waitFor(() =>
      expect(form.getByRole('status').textContent).toBe(
        '2 targets match, 1 marked Removal Planned by Google',
      ),
    );
    expect(searchCalls().at(-1)?.body).toEqual({
      params: { targetType: 'City', countryCode: 'DE', canonicalName: 'berlin' },
      limit: 20,
    });
    const preview = form.getByRole('table', { name: GEO_FEED_TEXTS.previewLabel });
    const rows = within(preview).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      '1003854',
      '1003855',
    ]);
    expect(within(rows[1]!).getByText(GEO_REMOVAL_PLANNED)).toBeTruthy();
    expect(form.getByRole('checkbox', { name: /Leave out targets marked/ })).toHaveProperty(
      'checked',
      true,
    );

    expect(submit().getAttribute('aria-disabled')).toBe('false');
    await userEvent.click(submit());
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toEqual({
      name: 'Berlin cities',
      rows: [{ root: '1003854', mod: 'Berlin', var1: '', var2: '', var3: '', url: '', status: '' }],
    });
    expect(calls.find((call) => call.path === API.geo)?.body).toEqual({
      params: { targetType: 'City', countryCode: 'DE', canonicalName: 'berlin' },
    });
    expect(messages()).toEqual([`success: ${GEO_MESSAGES.creating(1, 1)}`]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the targets marked Removal Planned when the box is cleared', async () => {
    const created = renderModal();
    const form = await fill({ name: 'b', type: 'City', code: 'DE', filter: 'BERLIN' });
    await userEvent.click(await form.findByRole('checkbox', { name: /Leave out targets marked/ }));
    await userEvent.click(submit());
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]!.rows.map((row) => [row.root, row.mod])).toEqual([
      ['1003854', 'Berlin'],
      ['1003855', 'Berlinchen'],
    ]);
  });

  it('says no targets were found and stays open when the filters match none', async () => {
    const created = renderModal();
    const form = await fill({ name: 'none', type: 'City', code: 'DE', filter: 'zzz' });
    await waitFor(() =>
      expect(form.getByRole('status').textContent).toBe('No targets match these filters'),
    );
    await userEvent.click(submit());
    await waitFor(() =>
      expect(messages()).toEqual(['error: No geo targets were found. Check filters and try again']),
    );
    expect(created).toEqual([]);
    expect(dialog()).toBeTruthy();
  });

  it('says how an operator loads the targets on a server without them, with no submit', async () => {
    server.status = { release: null };
    renderModal();
    expect((await within(dialog()).findByRole('alert')).textContent).toContain(
      GEO_MESSAGES.notLoaded,
    );
    expect(within(dialog()).queryByRole('button', { name: GEO_FEED_TEXTS.submit() })).toBeNull();
    await userEvent.click(within(dialog()).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the not-loaded notice when the targets go away before Create Feed', async () => {
    const created = renderModal();
    await fill({ name: 'b', type: 'City', code: 'DE' });
    server.geoAnswer = () =>
      json(409, { error: { code: 'geo_not_loaded', message: GEO_MESSAGES.notLoaded } });
    await userEvent.click(submit());
    expect((await within(dialog()).findByRole('alert')).textContent).toContain(
      GEO_MESSAGES.notLoaded,
    );
    expect(messages()).toEqual([`error: ${GEO_MESSAGES.notLoaded} (HTTP 409)`]);
    expect(created).toEqual([]);
  });

  it("says the server's message when more targets match than a feed holds", async () => {
    const created = renderModal();
    await fill({ name: 'b', type: 'City', code: 'DE' });
    const message = GEO_MESSAGES.tooMany(300_000, 250_000);
    server.geoAnswer = () => json(413, { error: { code: 'geo_too_many', message } });
    await userEvent.click(submit());
    await waitFor(() => expect(messages()).toEqual([`error: ${message} (HTTP 413)`]));
    expect(created).toEqual([]);
    expect(submit().getAttribute('aria-disabled')).toBe('false');
  });

  it('warns while more targets match than a feed holds', async () => {
    server.searchAnswer = { count: 300_000, removalPlanned: 0, targets: [] };
    renderModal();
    const form = await fill({ type: 'Postal Code', code: 'US' });
    expect(await form.findByText(GEO_MESSAGES.tooMany(300_000, 250_000))).toBeTruthy();
    expect(form.getByRole('status').textContent).toBe('300,000 targets match');
  });

  it('shows the answer of the newest search, never one a later keystroke made stale', async () => {
    let releaseFirst = () => {};
    server.holdSearch = (n) =>
      n === 1 ? new Promise<void>((resolve) => (releaseFirst = resolve)) : Promise.resolve();
    renderModal();
    const form = await fill({ type: 'City', code: 'DE' });
    await waitFor(() => expect(searchCalls()).toHaveLength(1));
    await userEvent.type(form.getByLabelText('Canonical Name Filter'), 'hamburg');
    await waitFor(() => expect(form.getByRole('status').textContent).toBe('1 target matches'));
    releaseFirst();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(form.getByRole('status').textContent).toBe('1 target matches');
    expect(searchCalls()).toHaveLength(2);
  });

  it('says in plain words that the server could not be reached when Create Feed gets no answer', async () => {
    const created = renderModal();
    await fill({ name: 'b', type: 'City', code: 'DE' });
    server.geoAnswer = () => {
      throw new TypeError('Failed to fetch');
    };
    await userEvent.click(submit());
    await waitFor(() =>
      expect(messages()).toEqual([
        'error: Could not reach the server. Check your connection and try again',
      ]),
    );
    expect(created).toEqual([]);
    expect(dialog()).toBeTruthy();
  });

  it.each([
    [
      502,
      'upstream_failed',
      'error: There seems to be a problem with the server. Please try again later 🛠️ (HTTP 502)',
    ],
    [401, 'unauthorized', 'error: Unauthorized. Please log in to continue 🔒 (HTTP 401)'],
  ])(
    'shows the spec words of a %i on Create Feed, with the status',
    async (status, code, toast) => {
      const created = renderModal();
      await fill({ name: 'b', type: 'City', code: 'DE' });
      server.geoAnswer = () => json(status, { error: { code, message: 'server text' } });
      await userEvent.click(submit());
      await waitFor(() => expect(messages()).toEqual([toast]));
      expect(created).toEqual([]);
    },
  );

  it('says a failed live search in plain words, and a server failure as the spec does', async () => {
    server.searchAnswer = undefined;
    renderModal();
    const form = await fill({ type: 'City' });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
      if (String(url) === API.geoSearch) throw new TypeError('Failed to fetch');
      return realFetch(url, init);
    });
    await userEvent.type(form.getByLabelText(/^Country Code/), 'DE');
    await waitFor(() =>
      expect(form.getByRole('status').textContent).toBe(
        'Could not reach the server. Check your connection and try again',
      ),
    );
    expect(messages()).toEqual([]);
    vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
      if (String(url) === API.geoSearch)
        return json(502, { error: { code: 'upstream_failed', message: 'server text' } });
      return realFetch(url, init);
    });
    await userEvent.type(form.getByLabelText('Canonical Name Filter'), 'b');
    await waitFor(() =>
      expect(messages()).toEqual([
        'error: There seems to be a problem with the server. Please try again later 🛠️ (HTTP 502)',
      ]),
    );
    expect(form.getByRole('status').textContent).toBe('The search failed. Try again.');
  });

  it('says in plain words when the feed could not be made in the browser', async () => {
    renderModal({ failCreate: new TypeError("Cannot read properties of undefined (reading 'x')") });
    await fill({ name: 'b', type: 'City', code: 'DE' });
    await userEvent.click(submit());
    await waitFor(() =>
      expect(messages()).toEqual([
        "error: Geo feed not created: something unexpected went wrong in the browser (Cannot read properties of undefined (reading 'x')). Your rows and templates are kept: try again, and if it happens again, send feedback with these words",
      ]),
    );
    expect(dialog()).toBeTruthy();
  });
});
