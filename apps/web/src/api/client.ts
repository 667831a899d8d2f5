import { notifyError } from '../state/notifications.ts';
import { session } from '../state/session.ts';
import { navigateTo } from '../state/navigation.ts';
import { track } from './analytics.ts';
import { createErrorHandler, SLOW_REQUEST_MESSAGE } from './errors.ts';
import { createHttpClient } from './http.ts';

/** The app's generic error handler (spec section 8). */
export const handleApiError = createErrorHandler({
  notifyError: (message, status) => notifyError(message, undefined, status),
  navigate: (to) => navigateTo(to),
  track,
  signOut: () => session.signOut('unauthorized'),
});

/** The app's one HTTP client. */
export const http = createHttpClient({
  getToken: () => session.get()?.token ?? null,
  onSlowRequest: () => notifyError(SLOW_REQUEST_MESSAGE),
  onError: (error) => handleApiError(error),
});
