import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { NotificationStack } from './NotificationStack.tsx';
import { createNotificationStore } from '../state/notifications.ts';
import { setNavigator } from '../state/navigation.ts';

describe('NotificationStack', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('announces errors as alerts and other notices as status, and closes on X', () => {
    const store = createNotificationStore();
    render(
      <MantineProvider>
        <NotificationStack store={store} />
      </MantineProvider>,
    );
    // The live region is there before the first toast, so its toasts are announced.
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    act(() => {
      store.notify('error', 'Something failed');
      store.notify('success', 'Saved');
    });
    expect(screen.getByRole('alert').textContent).toContain('Something failed');
    expect(screen.getByRole('status').textContent).toContain('Saved');
    const closeButtons = screen.getAllByRole('button', { name: 'Close notification' });
    expect(closeButtons).toHaveLength(2);
    fireEvent.click(closeButtons[0]!);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(store.get().notifications.map((n) => n.message)).toEqual(['Saved']);
  });

  it('shows the HTTP status of an answered call under the words, and none without one', () => {
    const store = createNotificationStore();
    render(
      <MantineProvider>
        <NotificationStack store={store} />
      </MantineProvider>,
    );
    act(() => {
      store.notify('error', 'Unable to create client: name taken', undefined, 409);
      store.notify('error', 'Could not reach the server. Check your connection and try again');
    });
    const [answered, unanswered] = screen.getAllByRole('alert');
    expect(answered!.textContent).toBe('Unable to create client: name takenHTTP status 409');
    expect(unanswered!.textContent).not.toContain('HTTP');
  });

  it('offers the action a notice names and closes the notice when it is followed', () => {
    const store = createNotificationStore();
    const visited: string[] = [];
    setNavigator((to) => visited.push(to));
    render(
      <MantineProvider>
        <NotificationStack store={store} />
      </MantineProvider>,
    );
    act(() => {
      store.notify('error', 'No Google account linked', { label: 'Go to Account', to: '/account' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Go to Account' }));
    expect(visited).toEqual(['/account']);
    expect(store.get().notifications).toEqual([]);
  });
});
