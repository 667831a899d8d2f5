import type { PublicUser } from '@adloom/contract';
import { notifyError } from '../state/notifications.ts';
import { session, type SessionController } from '../state/session.ts';
import { navigateTo } from '../state/navigation.ts';

/** Shown when a session ends because its time is up. */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again';

/**
 * Spec section 4: stored values sign the person in on load; an expired stored session is
 * cleared and the person goes to /login; a timer ends the session at its expiry.
 */
export function startSession(
  controller: SessionController = session,
  navigate: (to: string) => void = (to) => navigateTo(to, { replace: true }),
  refreshUser?: () => Promise<PublicUser>,
): () => void {
  const stop = controller.onSignedOut((reason) => {
    if (reason === 'expired') {
      notifyError(SESSION_EXPIRED_MESSAGE);
      navigate('/login');
    } else if (reason === 'unauthorized') {
      navigate('/login');
    }
  });
  const restored = controller.restore();
  if (restored === 'expired') {
    notifyError(SESSION_EXPIRED_MESSAGE);
    navigate('/login');
  } else if (restored === 'active' && refreshUser) {
    // Auto-login: confirm the stored token with the server and take its fresh user record.
    const token = controller.get()?.token;
    refreshUser()
      .then((user) => {
        if (controller.get()?.token === token) controller.updateUser(() => user);
      })
      .catch(() => undefined); // the generic handler has already told the person
  }
  return stop;
}
