import { PublicUserSchema, type PublicUser, type Session } from '@adloom/contract';
import { keptForPage } from './pageState.ts';
import { createStore } from './store.ts';

/** Local-storage keys of the session (spec section 3: token, expiry and user). */
export const SESSION_KEYS = {
  token: 'adloom.token',
  expiresAt: 'adloom.expiresAt',
  user: 'adloom.user',
} as const;

/** Longest delay a browser timer accepts (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/** A signed-in session as the browser keeps it. */
export interface StoredSession {
  token: string;
  /** Epoch milliseconds at which the token expires. */
  expiresAt: number;
  user: PublicUser;
}

/** What was found in storage on load. */
export type StoredSessionState =
  { kind: 'none' } | { kind: 'expired' } | { kind: 'active'; session: StoredSession };

/** The subset of `Storage` the session uses. */
export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Turns a login, register or reset answer into a stored session, `now` in epoch ms. */
export function toStoredSession(answer: Session, now: number): StoredSession {
  return { token: answer.token, expiresAt: now + answer.expiresIn * 1000, user: answer.user };
}

/** Writes the session to storage. */
export function writeSession(storage: SessionStorage, session: StoredSession): void {
  storage.setItem(SESSION_KEYS.token, session.token);
  storage.setItem(SESSION_KEYS.expiresAt, String(session.expiresAt));
  storage.setItem(SESSION_KEYS.user, JSON.stringify(session.user));
}

/** Removes every stored session value. */
export function eraseSession(storage: SessionStorage): void {
  for (const key of Object.values(SESSION_KEYS)) storage.removeItem(key);
}

/** Prefix of every key the app keeps in local storage. */
export const APP_STORAGE_PREFIX = 'adloom.';

/** Spec section 4: log out clears local storage — every key of this app, not other sites' data. */
export function clearAppStorage(storage: Pick<Storage, 'key' | 'length' | 'removeItem'>): void {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key?.startsWith(APP_STORAGE_PREFIX)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

/**
 * Reads the stored session. A token whose expiry has passed (or whose values are damaged)
 * is reported as expired so the caller clears it and sends the person to /login.
 */
export function readSession(storage: SessionStorage, now: number): StoredSessionState {
  const token = storage.getItem(SESSION_KEYS.token);
  const rawExpiry = storage.getItem(SESSION_KEYS.expiresAt);
  const rawUser = storage.getItem(SESSION_KEYS.user);
  if (!token && !rawExpiry && !rawUser) return { kind: 'none' };
  if (!token) return { kind: 'expired' };
  const expiresAt = Number(rawExpiry);
  if (!rawExpiry || !Number.isFinite(expiresAt) || expiresAt <= now) return { kind: 'expired' };
  let user: PublicUser;
  try {
    const parsed = PublicUserSchema.safeParse(JSON.parse(rawUser ?? 'null'));
    if (!parsed.success) return { kind: 'expired' };
    user = parsed.data;
  } catch {
    return { kind: 'expired' };
  }
  return { kind: 'active', session: { token, expiresAt, user } };
}

/** Milliseconds until the session expires, never negative. */
export function msUntilExpiry(session: StoredSession, now: number): number {
  return Math.max(0, session.expiresAt - now);
}

/** Clock and timers, injectable for tests. */
export interface SessionClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: SessionClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Why a session ended. */
export type SignOutReason = 'logout' | 'expired' | 'unauthorized' | 'deleted';

/** The session controller: current session, sign in and out, and the expiry timer. */
export interface SessionController {
  get(): StoredSession | null;
  subscribe(listener: () => void): () => void;
  /**
   * Reads storage on app load. Returns 'expired' when stale values were found and cleared
   * (the caller then goes to /login).
   */
  restore(): StoredSessionState['kind'];
  signIn(answer: Session): StoredSession;
  signOut(reason: SignOutReason): void;
  /** Replaces the user record (integrations, tutorial) of the current session. */
  updateUser(update: (user: PublicUser) => PublicUser): void;
  /** Called when the timer ends a session, with the reason. */
  onSignedOut(listener: (reason: SignOutReason) => void): () => void;
}

/** Creates a session controller over a storage and a clock. */
export function createSessionController(
  storage: SessionStorage,
  clock: SessionClock = realClock,
): SessionController {
  const store = createStore<StoredSession | null>(null);
  const signedOutListeners = new Set<(reason: SignOutReason) => void>();
  let timer: unknown;

  function stopTimer(): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  }

  function startTimer(session: StoredSession): void {
    stopTimer();
    const wait = msUntilExpiry(session, clock.now());
    // Long sessions outlast one browser timer: wait in steps and check again.
    timer = clock.setTimeout(
      () => {
        timer = undefined;
        const current = store.get();
        if (!current || current.token !== session.token) return;
        if (msUntilExpiry(current, clock.now()) > 0) startTimer(current);
        else signOut('expired');
      },
      Math.min(wait, MAX_TIMER_MS),
    );
  }

  function signOut(reason: SignOutReason): void {
    stopTimer();
    eraseSession(storage);
    const wasSignedIn = store.get() !== null;
    store.set(null);
    if (wasSignedIn || reason === 'expired') for (const l of [...signedOutListeners]) l(reason);
  }

  return {
    get: store.get,
    subscribe: store.subscribe,
    restore() {
      const state = readSession(storage, clock.now());
      if (state.kind === 'active') {
        store.set(state.session);
        startTimer(state.session);
      } else if (state.kind === 'expired') {
        eraseSession(storage);
        store.set(null);
      }
      return state.kind;
    },
    signIn(answer) {
      const session = toStoredSession(answer, clock.now());
      writeSession(storage, session);
      store.set(session);
      startTimer(session);
      return session;
    },
    signOut,
    updateUser(update) {
      const current = store.get();
      if (!current) return;
      const next = { ...current, user: update(current.user) };
      writeSession(storage, next);
      store.set(next);
    },
    onSignedOut(listener) {
      signedOutListeners.add(listener);
      return () => signedOutListeners.delete(listener);
    },
  };
}

function browserStorage(): SessionStorage {
  try {
    if (typeof localStorage !== 'undefined') return localStorage;
  } catch {
    // Storage can be blocked (private modes); fall back to memory below.
  }
  const memory = new Map<string, string>();
  return {
    getItem: (k) => memory.get(k) ?? null,
    setItem: (k, v) => void memory.set(k, v),
    removeItem: (k) => void memory.delete(k),
  };
}

/** The app's one session. */
export const session = createSessionController(browserStorage());
keptForPage(() => session.signOut('logout'));
