import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationStore,
  NOTIFICATION_FADE_IN_MS,
  NOTIFICATION_LIFETIME_MS,
} from './notifications.ts';

describe('notification store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives auto-incrementing ids', () => {
    const store = createNotificationStore();
    expect(store.notify('error', 'a')).toBe(1);
    expect(store.notify('success', 'b')).toBe(2);
    store.dismiss(1);
    expect(store.notify('info', 'c')).toBe(3);
    expect(store.get().notifications.map((n) => n.id)).toEqual([2, 3]);
  });

  it('shows a message already on screen once, and again once it is gone', () => {
    const store = createNotificationStore();
    const first = store.notify('error', 'Unauthorized');
    expect(store.notify('error', 'Unauthorized')).toBe(first);
    expect(store.notify('success', 'Unauthorized')).not.toBe(first);
    expect(store.get().notifications).toHaveLength(2);
    store.dismiss(first);
    expect(store.notify('error', 'Unauthorized')).not.toBe(first);
    expect(store.get().notifications).toHaveLength(2);
  });

  it('keeps a message said again for its whole lifetime from then', () => {
    const store = createNotificationStore();
    const first = store.notify('success', 'Templates successfully updated');
    vi.advanceTimersByTime(NOTIFICATION_LIFETIME_MS - 100);
    expect(store.notify('success', 'Templates successfully updated')).toBe(first);
    vi.advanceTimersByTime(NOTIFICATION_LIFETIME_MS - 1);
    expect(store.get().notifications.map((n) => n.id)).toEqual([first]);
    vi.advanceTimersByTime(1);
    expect(store.get().notifications).toEqual([]);
  });

  it('shows a notification after 50 ms', () => {
    const store = createNotificationStore();
    store.notify('error', 'Boom');
    expect(store.get().notifications[0]).toMatchObject({
      message: 'Boom',
      type: 'error',
      isVisible: false,
    });
    vi.advanceTimersByTime(NOTIFICATION_FADE_IN_MS - 1);
    expect(store.get().notifications[0]?.isVisible).toBe(false);
    vi.advanceTimersByTime(1);
    expect(store.get().notifications[0]?.isVisible).toBe(true);
  });

  it('removes a notification after 5000 ms', () => {
    const store = createNotificationStore();
    store.notify('success', 'first');
    vi.advanceTimersByTime(1000);
    store.notify('success', 'second');
    vi.advanceTimersByTime(NOTIFICATION_LIFETIME_MS - 1000);
    expect(store.get().notifications.map((n) => n.message)).toEqual(['second']);
    vi.advanceTimersByTime(1000);
    expect(store.get().notifications).toEqual([]);
  });

  it('removes a notification at once when closed, and cancels its timers', () => {
    const store = createNotificationStore();
    const id = store.notify('error', 'close me');
    store.dismiss(id);
    expect(store.get().notifications).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells listeners about every change', () => {
    const store = createNotificationStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.notify('info', 'x'); // added
    vi.advanceTimersByTime(NOTIFICATION_LIFETIME_MS); // shown, removed
    expect(listener).toHaveBeenCalledTimes(3);
  });

  it('keeps the submitting flag, initially false', () => {
    const store = createNotificationStore();
    expect(store.get().isSubmitting).toBe(false);
    store.setSubmitting(true);
    expect(store.get().isSubmitting).toBe(true);
  });
});
