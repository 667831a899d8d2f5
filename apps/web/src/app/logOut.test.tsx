import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { API } from '@adloom/contract';
import { routes } from './routes.tsx';
import { notifications } from '../state/notifications.ts';
import { session, SESSION_KEYS } from '../state/session.ts';
import { ACCOUNT_MESSAGES } from '../pages/AccountPage.tsx';
import { testSession } from '../state/testSession.ts';
import { json } from '../api/testResponses.ts';

// The signed-in frame and pages are lazy chunks: load them once here, so that the first test's
// render does not wait on their transform (on a loaded machine, longer than findBy waits).
beforeAll(() => import('./SignedInShell.tsx'), 60_000);

const answer = testSession('tok-account');

/** The requests the app sends, answered by `reply` (a Response, or an Error for no network). */
let reply: (path: string) => Response | Error;
let calls: { path: string; authorization: string | undefined }[];

beforeEach(() => {
  calls = [];
  reply = () => json(200, { type: 'success', message: 'ok' });
  vi.stubGlobal('fetch', async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url);
    calls.push({
      path,
      authorization: (init?.headers as Record<string, string> | undefined)?.authorization,
    });
    const next = reply(path);
    if (next instanceof Error) throw next;
    return next;
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut('logout');
  notifications.clear();
});

function renderAccount() {
  session.signIn(answer);
  const router = createMemoryRouter(routes, { initialEntries: ['/account'] });
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

describe('Log Out (sidebar)', () => {
  it('ends the token on the server and signs out', async () => {
    const router = renderAccount();
    await userEvent.click(await screen.findByRole('button', { name: 'Log Out' }));
    expect(router.state.location.pathname).toBe('/login');
    expect(session.get()).toBeNull();
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
    await waitFor(() =>
      expect(calls).toContainEqual({ path: API.users.logout, authorization: 'Bearer tok-account' }),
    );
  });

  it('still signs out when the server cannot be reached', async () => {
    reply = () => new TypeError('Failed to fetch');
    const router = renderAccount();
    await userEvent.click(await screen.findByRole('button', { name: 'Log Out' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(session.get()).toBeNull();
    await waitFor(() => expect(calls.map((c) => c.path)).toContain(API.users.logout));
  });
});

describe('Log out everywhere (account page)', () => {
  it('has an explained control that asks first, then ends every session and goes to /login', async () => {
    const router = renderAccount();
    expect(
      await screen.findByText(
        'Ends every session of this account, on every device, including this one.',
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Log Out Everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log out everywhere?' });
    // The account page asks for the Google link's status (and the frame for the public settings,
    // for the consent banner); nothing else is sent before Confirm.
    const accountCalls = () =>
      calls.filter((call) => call.path !== API.google.status && call.path !== API.config);
    expect(accountCalls()).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log Out Everywhere' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(session.get()).toBeNull();
    expect(accountCalls()).toEqual([
      { path: API.users.logoutEverywhere, authorization: 'Bearer tok-account' },
    ]);
    expect(await screen.findByText(ACCOUNT_MESSAGES.loggedOutEverywhere)).toBeTruthy();
  });

  it('stays signed in and says so when the server cannot be reached', async () => {
    reply = () => new TypeError('Failed to fetch');
    const router = renderAccount();
    await userEvent.click(await screen.findByRole('button', { name: 'Log Out Everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log out everywhere?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Log Out Everywhere' }));
    expect(await screen.findByText(ACCOUNT_MESSAGES.logOutEverywhereFailed)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account');
    expect(session.get()?.token).toBe('tok-account');
  });
});
