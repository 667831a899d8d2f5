import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { API, VERIFY_MESSAGES, verifyEmailPath } from '@adloom/contract';
import { session } from '../state/session.ts';
import { notifications } from '../state/notifications.ts';
import { testSession } from '../state/testSession.ts';
import { VerifyEmailPage } from './VerifyEmailPage.tsx';
import { json } from '../api/testResponses.ts';

/** The server as it answers: a link verifies once; /me then lists the tools. */
function stubServer() {
  const spent = new Set<string>();
  const calls: { path: string; authorization: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = String(url);
      calls.push({ path, authorization: new Headers(init?.headers).get('authorization') });
      if (path.startsWith(API.users.verifyEmail)) {
        if (spent.has(path))
          return json(400, {
            error: { code: 'bad_request', message: VERIFY_MESSAGES.invalidLink },
          });
        spent.add(path);
        return json(200, { type: 'success', message: VERIFY_MESSAGES.verified });
      }
      if (path === API.users.me) {
        const { user } = testSession('tok');
        return json(200, { user: { ...user, emailVerified: true, tools: ['ai-helper'] } });
      }
      return json(404, { error: { code: 'not_found', message: 'Not found' } });
    }),
  );
  return { calls };
}

function renderAt(path: string) {
  return render(
    <MantineProvider>
      <RouterProvider
        router={createMemoryRouter(
          [{ path: '/verify-email/:token', element: <VerifyEmailPage /> }],
          {
            initialEntries: [path],
          },
        )}
      />
    </MantineProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut('logout');
  notifications.clear();
});

describe('VerifyEmailPage', () => {
  it('verifies once with the session, takes the tools into the user record, and a second mount reads no used link', async () => {
    const { calls } = stubServer();
    const answer = testSession('tok');
    session.signIn({ ...answer, user: { ...answer.user, pendingTools: ['ai-helper'] } });
    const first = renderAt('/verify-email/link-token');
    expect(await screen.findByText(VERIFY_MESSAGES.verified)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the Campaign Builder' })).toBeTruthy();
    await vi.waitFor(() => expect(session.get()?.user.tools).toEqual(['ai-helper']));
    expect(session.get()?.user.emailVerified).toBe(true);
    first.unmount();

    renderAt('/verify-email/link-token');
    expect(await screen.findByText(VERIFY_MESSAGES.verified)).toBeTruthy();
    const verifications = calls.filter((call) => call.path === verifyEmailPath('link-token'));
    expect(verifications).toEqual([
      { path: verifyEmailPath('link-token'), authorization: 'Bearer tok' },
    ]);
  });

  it('says a used link is used, and offers Log In when signed out', async () => {
    stubServer();
    // Another page load (another tab, say) used this link.
    await fetch(verifyEmailPath('used-token'), { method: 'POST' });
    renderAt('/verify-email/used-token');
    expect((await screen.findByRole('alert')).textContent).toBe(VERIFY_MESSAGES.invalidLink);
    expect(screen.getByRole('link', { name: 'Log In' })).toBeTruthy();
  });

  it('says the address is verified when a signed-in person opens their used link again', async () => {
    stubServer();
    session.signIn(testSession('tok'));
    await fetch(verifyEmailPath('again-token'), { method: 'POST' });
    renderAt('/verify-email/again-token');
    expect(await screen.findByText(VERIFY_MESSAGES.alreadyVerified)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(session.get()?.user.emailVerified).toBe(true);
  });
});
