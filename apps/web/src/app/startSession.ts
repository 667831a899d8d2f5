import { notifyError } from '../features/notifications/notificationStore.ts';
import { session, type SessionController } from '../features/session/session.ts';
import { navigateTo } from './navigation.ts';

/** Shown when a session ends because its time is up. */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again';

/**
 * Spec section 4: stored values sign the person in on load; an expired stored session is
 * cleared and the person goes to /login; a timer ends the session at its expiry.
 */
export function startSession(
  controller: SessionController = session,
  navigate: (to: string) => void = (to) => navigateTo(to, { replace: true }),
): () => void {
  const stop = controller.onSignedOut((reason) => {
    if (reason === 'expired') {
      notifyError(SESSION_EXPIRED_MESSAGE);
      navigate('/login');
    } else if (reason === 'unauthorized') {
      navigate('/login');
    }
  });
  if (controller.restore() === 'expired') {
    notifyError(SESSION_EXPIRED_MESSAGE);
    navigate('/login');
  }
  return stop;
}
