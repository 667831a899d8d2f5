import { keptForPage } from '../../state/pageState.ts';

/**
 * Reset tokens this page has just used to set a password. Signing in swaps the page's layout,
 * which mounts the reset page again while the move to /campaign-builder is still under way (its
 * screen loads lazily): that mount must not check the spent token and send the person to login.
 */
const spentTokens = new Set<string>();
keptForPage(() => spentTokens.clear());

/** Notes that `token` set a password on this page. */
export function markResetTokenSpent(token: string): void {
  spentTokens.add(token);
}

/** Whether `token` set a password on this page already. */
export function isResetTokenSpent(token: string): boolean {
  return spentTokens.has(token);
}
