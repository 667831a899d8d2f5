import { ApiError } from '../../api/errors.ts';
import { endEverySession, endSession } from '../../api/users.ts';
import { notifications } from '../../state/notifications.ts';
import { clearAppStorage, session, type SessionController } from '../../state/session.ts';

/** What logging out needs: the session, the two server calls, and the rest of the local state. */
export interface LogOutDeps {
  session: SessionController;
  /** Ends one token on the server. */
  endSession(token: string): Promise<unknown>;
  /** Ends every token of the signed-in account on the server. */
  endEverySession(): Promise<unknown>;
  /** Forgets the rest of what this browser keeps (the app's storage, the notifications). */
  clearLocal(): void;
}

const appDeps: LogOutDeps = {
  session,
  endSession: (token) => endSession(token),
  endEverySession: () => endEverySession(),
  clearLocal: () => {
    clearAppStorage(localStorage);
    notifications.clear();
  },
};

function signOutHere(deps: LogOutDeps): void {
  deps.session.signOut('logout');
  deps.clearLocal();
}

/**
 * Log Out: the session ends here at once, then the server is asked to end the token too. That
 * part is best effort: an unreachable server or a token it already refuses changes nothing here,
 * so nobody is ever left signed in. Resolves to whether the server confirmed; never rejects.
 */
export function logOut(deps: LogOutDeps = appDeps): Promise<boolean> {
  const token = deps.session.get()?.token;
  signOutHere(deps);
  if (!token) return Promise.resolve(false);
  return deps.endSession(token).then(
    () => true,
    () => false,
  );
}

/**
 * Log out everywhere: the server ends every session of the account, then this one ends here
 * (after `leave`, which lets a guarded page move away first). A 401 means this session was
 * already ended, so it ends here too. Any other failure leaves the person signed in and rejects:
 * the other devices were not logged out, and they must be told.
 */
export async function logOutEverywhere(
  deps: LogOutDeps = appDeps,
  leave: () => unknown = () => undefined,
): Promise<void> {
  try {
    await deps.endEverySession();
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  await leave();
  signOutHere(deps);
}
