import { createStore, type Store } from './store.ts';
import { keptForPage } from './pageState.ts';

/** Spec section 9: a notification lives 5000 ms. */
export const NOTIFICATION_LIFETIME_MS = 5000;
/** Spec section 9: a notification fades in 50 ms after it is added. */
export const NOTIFICATION_FADE_IN_MS = 50;

/** 'error' is styled as an error; every other type as a notice. */
export type NotificationType = 'error' | 'success' | 'info' | 'warning';

/** A link a toast offers to where the person fixes what it reports ('Go to Account'). */
export interface NotificationAction {
  label: string;
  /** An app path. */
  to: string;
}

/** One toast in the stack. */
export interface AppNotification {
  /** Auto-incrementing number, unique for the lifetime of the store. */
  id: number;
  type: NotificationType;
  message: string;
  action?: NotificationAction;
  /** Spec section 8: the HTTP status of the failed call it reports, when an answer came. */
  status?: number;
  /** False for the first 50 ms, so the toast can fade in. */
  isVisible: boolean;
}

/** The notification state of spec section 3: the list and a submitting flag. */
export interface NotificationState {
  notifications: AppNotification[];
  isSubmitting: boolean;
}

/** Timer functions, injectable for tests. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The notification stack: add, show after 50 ms, remove after 5000 ms or on close. */
export interface NotificationStore extends Store<NotificationState> {
  /** Adds a notification (with the HTTP status of the call it reports) and returns its id. */
  notify(
    type: NotificationType,
    message: string,
    action?: NotificationAction,
    status?: number,
  ): number;
  /** Removes a notification now (the X button). */
  dismiss(id: number): void;
  /** Removes every notification and cancels their timers. */
  clear(): void;
  setSubmitting(isSubmitting: boolean): void;
}

/** Creates a notification store. */
export function createNotificationStore(timers: Timers = realTimers): NotificationStore {
  const store = createStore<NotificationState>({ notifications: [], isSubmitting: false });
  const pending = new Map<number, unknown[]>();
  let nextId = 1;

  function dismiss(id: number): void {
    for (const handle of pending.get(id) ?? []) timers.clearTimeout(handle);
    pending.delete(id);
    store.set((s) =>
      s.notifications.some((n) => n.id === id)
        ? { ...s, notifications: s.notifications.filter((n) => n.id !== id) }
        : s,
    );
  }

  function notify(
    type: NotificationType,
    message: string,
    action?: NotificationAction,
    status?: number,
  ): number {
    // Calls failing together (a rejected token on a page that loads two things) say it once.
    // Said again, it stays its whole lifetime from now: a second save's confirmation must not
    // vanish with the first one's.
    const same = store
      .get()
      .notifications.find(
        (n) =>
          n.type === type && n.message === message && !n.action === !action && n.status === status,
      );
    if (same) {
      const handles = pending.get(same.id) ?? [];
      const removal = handles.pop();
      if (removal !== undefined) timers.clearTimeout(removal);
      handles.push(timers.setTimeout(() => dismiss(same.id), NOTIFICATION_LIFETIME_MS));
      pending.set(same.id, handles);
      return same.id;
    }
    const id = nextId++;
    const notification: AppNotification = { id, type, message, isVisible: false };
    if (action) notification.action = action;
    if (status !== undefined && status > 0) notification.status = status;
    store.set((s) => ({ ...s, notifications: [...s.notifications, notification] }));
    const show = timers.setTimeout(() => {
      store.set((s) => ({
        ...s,
        notifications: s.notifications.map((n) => (n.id === id ? { ...n, isVisible: true } : n)),
      }));
    }, NOTIFICATION_FADE_IN_MS);
    const remove = timers.setTimeout(() => dismiss(id), NOTIFICATION_LIFETIME_MS);
    pending.set(id, [show, remove]);
    return id;
  }

  return {
    ...store,
    notify,
    dismiss,
    clear() {
      for (const id of [...pending.keys()]) dismiss(id);
      store.set((s) => ({ ...s, notifications: [] }));
    },
    setSubmitting(isSubmitting) {
      store.set((s) => (s.isSubmitting === isSubmitting ? s : { ...s, isSubmitting }));
    },
  };
}

/** The app's one notification stack. */
export const notifications = createNotificationStore();
keptForPage(() => {
  notifications.clear();
  notifications.setSubmitting(false);
});

/**
 * Shows an error toast, with a link to where it is fixed when given, and the HTTP status of the
 * failed call it reports (spec section 8; none when no answer came).
 */
export const notifyError = (
  message: string,
  action?: NotificationAction,
  status?: number,
): number => notifications.notify('error', message, action, status);
/** Shows a success toast. */
export const notifySuccess = (message: string): number => notifications.notify('success', message);
/** Shows an information toast. */
export const notifyInfo = (message: string): number => notifications.notify('info', message);
