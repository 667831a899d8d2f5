import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  API,
  GOOGLE_LINK_MESSAGES,
  GOOGLE_SHEETS_INTEGRATION,
  type GoogleStatus,
} from '@adloom/contract';
import { routes } from './routes.tsx';
import { notifications } from '../state/notifications.ts';
import { session } from '../state/session.ts';
import { testSession } from '../state/testSession.ts';
import { ACCOUNT_MESSAGES } from '../pages/AccountPage.tsx';
import { json } from '../api/testResponses.ts';

// The signed-in frame and pages are lazy chunks: load them once here, so that the first test's
// render does not wait on their transform (on a loaded machine, longer than findBy waits).
beforeAll(() => import('./SignedInShell.tsx'), 60_000);

const answer = testSession('tok-google');

/** The server as these tests need it: the Google link of one user. */
let server: {
  status: GoogleStatus;
  exchange: (body: unknown) => { status: number; body: unknown };
};
let calls: { method: string; path: string; body: unknown }[];

function linkAnswer(status: GoogleStatus, integrations: string[]) {
  return { user: { ...answer.user, integrations }, status };
}

beforeEach(() => {
  calls = [];
  server = {
    status: { configured: true, status: 'not_linked' },
    exchange: () => {
      server.status = { configured: true, status: 'linked' };
      return { status: 200, body: linkAnswer(server.status, [GOOGLE_SHEETS_INTEGRATION]) };
    },
  };
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method: init?.method ?? 'GET', path, body });
    if (path === API.google.status) return json(200, server.status);
    if (path === API.google.accessToken) {
      const result = server.exchange(body);
      return json(result.status, result.body);
    }
    if (path === API.google.unlinkGoogleSheets) {
      server.status = { configured: true, status: 'not_linked' };
      return json(200, { ...linkAnswer(server.status, []), revoked: true });
    }
    return json(200, { user: answer.user });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut('logout');
  notifications.clear();
});

function renderAccount(entry = '/account', integrations: string[] = []) {
  session.signIn({ ...answer, user: { ...answer.user, integrations } });
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

const integrations = () => screen.getByRole('region', { name: 'Integrations' });
const messages = () => notifications.get().notifications.map((n) => `${n.type}: ${n.message}`);

describe('Account page, Google Sheets', () => {
  it('exchanges the code Google sent back once, removes it from the address and says so', async () => {
    const router = renderAccount('/account?code=c-1&state=s-1');
    await waitFor(() => expect(messages()).toContain(`success: ${GOOGLE_LINK_MESSAGES.linked}`));
    const exchanges = calls.filter((call) => call.path === API.google.accessToken);
    expect(exchanges).toEqual([
      { method: 'POST', path: API.google.accessToken, body: { code: 'c-1', state: 's-1' } },
    ]);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.location.pathname).toBe('/account');
    expect(await within(integrations()).findByText('Linked', { exact: true })).toBeTruthy();
    expect(session.get()?.user.integrations).toEqual([GOOGLE_SHEETS_INTEGRATION]);
    expect(
      within(integrations()).getByRole('button', { name: 'Unlink Google Sheets' }),
    ).toBeTruthy();
  });

  it('says the link failed when the server refuses the code, and shows the link as it is', async () => {
    server.exchange = () => ({
      status: 502,
      body: { error: { code: 'upstream_failed', message: 'x' } },
    });
    const router = renderAccount('/account?code=c-2&state=s-2');
    await waitFor(() => expect(messages()).toContain(`error: ${GOOGLE_LINK_MESSAGES.linkFailed}`));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await within(integrations()).findByText('Not linked', { exact: true })).toBeTruthy();
    expect(session.get()?.user.integrations).toEqual([]);
  });

  it('says the link failed when the person refused at Google (no code comes back)', async () => {
    renderAccount('/account?error=access_denied&state=s-3');
    await waitFor(() => expect(messages()).toContain(`error: ${GOOGLE_LINK_MESSAGES.linkFailed}`));
    expect(calls.some((call) => call.path === API.google.accessToken)).toBe(false);
  });

  it('names the settings and offers no button on a server without them', async () => {
    server.status = { configured: false, status: 'not_linked' };
    renderAccount();
    expect(
      await within(integrations()).findByText(ACCOUNT_MESSAGES.googleNotConfigured),
    ).toBeTruthy();
    expect(within(integrations()).queryAllByRole('button')).toEqual([]);
  });

  it('unlinks after the warning, and drops the integration from the session', async () => {
    server.status = { configured: true, status: 'linked' };
    renderAccount('/account', [GOOGLE_SHEETS_INTEGRATION]);
    await userEvent.click(
      await within(integrations()).findByRole('button', { name: 'Unlink Google Sheets' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Unlink Google Sheets?' });
    expect(dialog.textContent).toContain(ACCOUNT_MESSAGES.googleUnlinkWarning);
    expect(calls.some((call) => call.path === API.google.unlinkGoogleSheets)).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(messages()).toContain(`success: ${GOOGLE_LINK_MESSAGES.unlinked}`));
    expect(session.get()?.user.integrations).toEqual([]);
    expect(
      await within(integrations()).findByRole('button', { name: 'Link Google Sheets' }),
    ).toBeTruthy();
  });

  it('asks to link again when Google no longer accepts the link, and drops the integration', async () => {
    server.status = { configured: true, status: 'needs_consent' };
    renderAccount('/account', [GOOGLE_SHEETS_INTEGRATION]);
    expect(await within(integrations()).findByText('Needs linking again')).toBeTruthy();
    expect(within(integrations()).getByRole('button', { name: 'Link again' })).toBeTruthy();
    expect(session.get()?.user.integrations).toEqual([]);
  });
});
