import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configure, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from './routes.tsx';
import { formatPageTitle } from './pageTitle.ts';
import { startSession, SESSION_EXPIRED_MESSAGE } from './startSession.ts';
import { session, SESSION_KEYS } from '../state/session.ts';
import { notifications } from '../state/notifications.ts';
import { testSession } from '../state/testSession.ts';

// The signed-in frame and pages are lazy chunks: load them once here, so that the first test's
// render does not wait on their transform (on a loaded machine, longer than findBy waits), and
// give their first render (a lazy component's two steps, the builder's weight) ten seconds.
configure({ asyncUtilTimeout: 10_000 });
beforeAll(
  () =>
    Promise.all([
      import('./SignedInShell.tsx'),
      import('../pages/CampaignBuilderPage.tsx'),
      import('../pages/AccountPage.tsx'),
      import('@mantine/core/styles.layer.css'),
    ]),
  60_000,
);

const answer = testSession('tok');

function renderAt(path: string | { pathname: string; state: unknown }) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return router;
}

afterEach(() => {
  session.signOut('logout');
  notifications.clear();
});

describe('route guards (spec section 2)', () => {
  it.each(['/campaign-builder', '/account', '/lists'])(
    'signed out, %s goes to /login',
    async (path) => {
      const router = renderAt(path);
      expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/login');
    },
  );

  it('signed in, the landing page goes to the campaign builder', async () => {
    session.signIn(answer);
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Campaign Builder' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/campaign-builder');
  });

  it('signed in, a guarded route opens and the sidebar shows the signed-in links', async () => {
    session.signIn(answer);
    renderAt('/account');
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeTruthy();
    for (const name of ['Campaign Builder', 'Lists', 'Account'])
      expect(screen.getByRole('link', { name })).toBeTruthy();
    for (const name of ['Guides', 'Log Out', 'Feedback'])
      expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('signed out, the landing page opens with a Log In link', async () => {
    const router = renderAt('/');
    expect(await screen.findByRole('button', { name: 'Yes, so ready!' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Log In' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Log Out' })).toBeNull();
    expect(router.state.location.pathname).toBe('/');
  });

  it('an unknown path goes to /404 with a link home', async () => {
    const router = renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });

  it('/admin shows the 404 page signed out and to a signed-in user who is not an operator', async () => {
    const signedOut = renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(signedOut.state.location.pathname).toBe('/404');
    signedOut.dispose();
    document.body.innerHTML = '';

    session.signIn(answer);
    const ordinary = renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(ordinary.state.location.pathname).toBe('/404');
    expect(await screen.findByRole('link', { name: 'Account' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull();
  });

  it('/admin opens for an operator, whose sidebar has the Admin link', async () => {
    session.signIn({ ...answer, user: { ...answer.user, emailVerified: true, isAdmin: true } });
    const router = renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin');
    expect(screen.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
    expect(screen.getByRole('searchbox', { name: 'Search feedback' })).toBeTruthy();
  });

  it('/login reached from the account page goes to /register', async () => {
    const router = renderAt({ pathname: '/login', state: { fromAccountPage: true } });
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('/service-down names the service and links to support', async () => {
    renderAt('/service-down?service=mongo');
    expect(
      await screen.findByRole('heading', { name: 'Our database is not answering' }),
    ).toBeTruthy();
    const mailLinks = screen
      .getAllByRole('link', { name: /support@/ })
      .map((a) => a.getAttribute('href'));
    expect(mailLinks.some((href) => href?.startsWith('mailto:') && href.includes('subject='))).toBe(
      true,
    );
  });
});

describe('page title', () => {
  it('is the product name plus the route title, or the tagline', async () => {
    expect(formatPageTitle('Contact')).toBe('Adloom | Contact');
    expect(formatPageTitle(undefined)).toBe('Adloom | Professional search campaigns in seconds');
    renderAt('/contact');
    await waitFor(() => expect(document.title).toBe('Adloom | Contact'));
  });
});

describe('startSession', () => {
  it('clears an expired stored session and goes to /login', () => {
    localStorage.setItem(SESSION_KEYS.token, 'old');
    localStorage.setItem(SESSION_KEYS.expiresAt, String(Date.now() - 1000));
    localStorage.setItem(SESSION_KEYS.user, JSON.stringify(answer.user));
    const navigate = vi.fn();
    const stop = startSession(session, navigate);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(localStorage.getItem(SESSION_KEYS.token)).toBeNull();
    expect(notifications.get().notifications.map((n) => n.message)).toContain(
      SESSION_EXPIRED_MESSAGE,
    );
    stop();
  });

  it('signs in from stored values that are still valid and refreshes the user', async () => {
    localStorage.setItem(SESSION_KEYS.token, 'live');
    localStorage.setItem(SESSION_KEYS.expiresAt, String(Date.now() + 60_000));
    localStorage.setItem(SESSION_KEYS.user, JSON.stringify(answer.user));
    const navigate = vi.fn();
    const fresh = { ...answer.user, integrations: ['google-sheets'] };
    const stop = startSession(session, navigate, () => Promise.resolve(fresh));
    expect(navigate).not.toHaveBeenCalled();
    expect(session.get()?.token).toBe('live');
    await vi.waitFor(() => expect(session.get()?.user.integrations).toEqual(['google-sheets']));
    stop();
  });
});
