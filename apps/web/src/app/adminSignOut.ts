import { keptForPage } from '../state/pageState.ts';
import { session } from '../state/session.ts';

/**
 * Whether the last sign-out happened on the Admin page (Log Out there, or the session ending):
 * that operator goes to /login as from any signed-in page, not to the 404 page.
 */
let signedOutOnAdminPage = false;
keptForPage(() => {
  signedOutOnAdminPage = false;
});
session.onSignedOut(() => {
  signedOutOnAdminPage = window.location.pathname === '/admin';
});
// A later sign-in starts afresh (kept for the page's lifetime otherwise: one flag, no timer).
session.subscribe(() => {
  if (session.get()) signedOutOnAdminPage = false;
});

/** See `signedOutOnAdminPage`. */
export function wasSignedOutOnAdminPage(): boolean {
  return signedOutOnAdminPage;
}
