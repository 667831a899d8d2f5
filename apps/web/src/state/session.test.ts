import { describe, expect, it, vi } from 'vitest';
import type { Session } from '@adloom/contract';
import {
  clearAppStorage,
  createSessionController,
  readSession,
  SESSION_KEYS,
  toStoredSession,
  writeSession,
  type SessionClock,
} from './session.ts';

const user = {
  _id: 'u1',
  email: 'ann@example.com',
  role: 'user',
  integrations: [],
  tutorial: { disabled: false, tutorialSteps: [] },
};
const answer: Session = { token: 'tok', expiresIn: 3600, user };

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let now = start;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: SessionClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      const i = timers.findIndex((t) => t.id === id);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  return {
    clock,
    pending: () => timers.length,
    advance(ms: number) {
      now += ms;
      for (const t of [...timers].sort((a, b) => a.at - b.at)) {
        if (t.at <= now && timers.includes(t)) {
          timers.splice(timers.indexOf(t), 1);
          t.fn();
        }
      }
    },
  };
}

describe('readSession', () => {
  it('finds nothing in empty storage', () => {
    expect(readSession(memoryStorage(), 0)).toEqual({ kind: 'none' });
  });

  it('restores a session whose expiry is ahead', () => {
    const storage = memoryStorage();
    writeSession(storage, toStoredSession(answer, 1000));
    expect(readSession(storage, 1000 + 3599_000)).toEqual({
      kind: 'active',
      session: { token: 'tok', expiresAt: 1000 + 3600_000, user },
    });
  });

  it('reports a session whose expiry has passed as expired', () => {
    const storage = memoryStorage();
    writeSession(storage, toStoredSession(answer, 1000));
    expect(readSession(storage, 1000 + 3600_000)).toEqual({ kind: 'expired' });
  });

  it.each([
    ['no expiry', { [SESSION_KEYS.token]: 't', [SESSION_KEYS.user]: JSON.stringify(user) }],
    [
      'a damaged expiry',
      {
        [SESSION_KEYS.token]: 't',
        [SESSION_KEYS.expiresAt]: 'soon',
        [SESSION_KEYS.user]: JSON.stringify(user),
      },
    ],
    [
      'a damaged user',
      {
        [SESSION_KEYS.token]: 't',
        [SESSION_KEYS.expiresAt]: '9999999999999',
        [SESSION_KEYS.user]: '{oops',
      },
    ],
    [
      'a user of the wrong shape',
      {
        [SESSION_KEYS.token]: 't',
        [SESSION_KEYS.expiresAt]: '9999999999999',
        [SESSION_KEYS.user]: '{"email":1}',
      },
    ],
    ['no token', { [SESSION_KEYS.expiresAt]: '9999999999999' }],
  ])('treats %s as expired', (_name, values) => {
    const storage = memoryStorage();
    for (const [k, v] of Object.entries(values)) storage.setItem(k, v);
    expect(readSession(storage, 0).kind).toBe('expired');
  });
});

describe('session controller', () => {
  it('clears an expired stored session on load', () => {
    const storage = memoryStorage();
    const t = fakeClock(10_000_000);
    writeSession(storage, toStoredSession(answer, 0));
    const controller = createSessionController(storage, t.clock);
    expect(controller.restore()).toBe('expired');
    expect(controller.get()).toBeNull();
    expect(storage.map.size).toBe(0);
  });

  it('stores token, expiry and user on sign-in', () => {
    const storage = memoryStorage();
    const t = fakeClock(5000);
    const controller = createSessionController(storage, t.clock);
    controller.signIn(answer);
    expect(storage.map.get(SESSION_KEYS.token)).toBe('tok');
    expect(storage.map.get(SESSION_KEYS.expiresAt)).toBe(String(5000 + 3600_000));
    expect(JSON.parse(storage.map.get(SESSION_KEYS.user) ?? '')).toEqual(user);
  });

  it('ends the session when its time is up and says why', () => {
    const storage = memoryStorage();
    const t = fakeClock(0);
    const controller = createSessionController(storage, t.clock);
    const onSignedOut = vi.fn();
    controller.onSignedOut(onSignedOut);
    controller.signIn(answer);
    t.advance(3599_999);
    expect(controller.get()?.token).toBe('tok');
    t.advance(1);
    expect(controller.get()).toBeNull();
    expect(storage.map.size).toBe(0);
    expect(onSignedOut).toHaveBeenCalledWith('expired');
  });

  it('waits in steps for sessions longer than one browser timer', () => {
    const storage = memoryStorage();
    const t = fakeClock(0);
    const controller = createSessionController(storage, t.clock);
    controller.signIn({ ...answer, expiresIn: 40 * 24 * 3600 }); // 40 days
    t.advance(30 * 24 * 3600 * 1000);
    expect(controller.get()).not.toBeNull();
    t.advance(10 * 24 * 3600 * 1000);
    expect(controller.get()).toBeNull();
  });

  it('restores an active session and arms the timer', () => {
    const storage = memoryStorage();
    writeSession(storage, toStoredSession(answer, 0));
    const t = fakeClock(1000);
    const controller = createSessionController(storage, t.clock);
    expect(controller.restore()).toBe('active');
    expect(t.pending()).toBe(1);
    t.advance(3600_000);
    expect(controller.get()).toBeNull();
  });

  it('log out clears storage and stops the timer', () => {
    const storage = memoryStorage();
    const t = fakeClock(0);
    const controller = createSessionController(storage, t.clock);
    controller.signIn(answer);
    controller.signOut('logout');
    expect(controller.get()).toBeNull();
    expect(storage.map.size).toBe(0);
    expect(t.pending()).toBe(0);
  });

  it('updates the stored user', () => {
    const storage = memoryStorage();
    const controller = createSessionController(storage, fakeClock(0).clock);
    controller.signIn(answer);
    controller.updateUser((u) => ({ ...u, tutorial: { ...u.tutorial, disabled: true } }));
    expect(JSON.parse(storage.map.get(SESSION_KEYS.user) ?? '').tutorial.disabled).toBe(true);
    expect(controller.get()?.user.tutorial.disabled).toBe(true);
  });
});

describe('clearAppStorage', () => {
  it('removes every adloom key and nothing else', () => {
    localStorage.setItem('adloom.token', 't');
    localStorage.setItem('adloom.draft', 'd');
    localStorage.setItem('other-site', 'keep');
    clearAppStorage(localStorage);
    expect(localStorage.getItem('adloom.token')).toBeNull();
    expect(localStorage.getItem('adloom.draft')).toBeNull();
    expect(localStorage.getItem('other-site')).toBe('keep');
  });
});
