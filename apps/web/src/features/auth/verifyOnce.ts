import { verifyEmail } from '../../api/users.ts';
import { keptForPage } from '../../state/pageState.ts';
import { refreshSignedInUser } from './VerifyEmailNotice.tsx';

/**
 * One request per verification token for the page's life: the link works once, so the
 * verification page mounting again (signing in swaps the layout) must not send it a second time
 * and read its own success as a used link.
 */
const verifications = new Map<string, Promise<void>>();
keptForPage(() => verifications.clear());

/** Verifies the address of `token` (once per page), then takes this browser's user record again. */
export function verifyOnce(token: string): Promise<void> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = verifyEmail(token).then(async () => {
      // This browser's user record takes the tools the address now opens.
      await refreshSignedInUser().catch(() => undefined);
    });
    verifications.set(token, pending);
  }
  return pending;
}
