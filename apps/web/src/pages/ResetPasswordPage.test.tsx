import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { session } from '../state/session.ts';
import { notifications } from '../state/notifications.ts';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';
import { json } from '../api/testResponses.ts';

const user = {
  _id: 'u1',
  email: 'ann@example.com',
  role: 'user',
  integrations: [],
  tutorial: { disabled: false, tutorialSteps: [] },
};

/** The reset calls as the server answers them: the token is good until it is used once. */
function stubServer() {
  let isSpent = false;
  const checks: number[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'GET') {
        checks.push(Date.now());
        return isSpent
          ? json(400, { type: 'error', message: 'Password reset token is invalid or has expired' })
          : json(200, { type: 'success', message: 'Token is valid' });
      }
      isSpent = true;
      return json(200, { token: 't', expiresIn: 3600, user, type: 'success', message: 'Done' });
    }),
  );
  return { checks };
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/reset/:token', element: <ResetPasswordPage /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { router, view };
}

afterEach(() => {
  vi.unstubAllGlobals();
  session.signOut('logout');
  notifications.clear();
});

describe('ResetPasswordPage', () => {
  it('does not check a token it has just used again, so a second mount never sends the person to login', async () => {
    const { checks } = stubServer();
    const first = renderAt('/reset/once');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Reset Password' }).hasAttribute('disabled')).toBe(
        false,
      ),
    );
    await userEvent.type(screen.getByLabelText(/^Password/), 'new-password-2');
    await userEvent.type(screen.getByLabelText(/^Confirm Password/), 'new-password-2');
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/campaign-builder'));
    expect(session.get()?.token).toBe('t');
    first.view.unmount();

    // Signing in swaps the layout: the page can be mounted again on the same path meanwhile.
    const second = renderAt('/reset/once');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(checks).toHaveLength(1);
    expect(second.router.state.location.pathname).toBe('/reset/once');
  });
});
