import { useSyncExternalStore } from 'react';
import { session, type StoredSession } from './session.ts';

/** The current session, or null when signed out. */
export function useSession(): StoredSession | null {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
