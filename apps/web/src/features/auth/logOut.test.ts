import { describe, expect, it, vi } from 'vitest';
import { API } from '@adloom/contract';
import { ApiError } from '../../api/errors.ts';
import { createHttpClient } from '../../api/http.ts';
import { endEverySession, endSession } from '../../api/users.ts';
import { createSessionController, SESSION_KEYS } from '../../state/session.ts';
import { logOut, logOutEverywhere, type LogOutDeps } from './logOut.ts';
import { testSession } from '../../state/testSession.ts';
import { json } from '../../api/testResponses.ts';

const answer = testSession('tok-1');

const LOGGED_OUT = { type: 'success', message: 'You have been logged out.' };
const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'Unauthorized' } };

/**
 * A signed-in session over memory storage and the real HTTP client and calls, with the network
 * answering `reply` (a Response, or an Error to throw as an unreachable server would).
 */
function setup(reply: () => Response | Error) {
  const map = new Map<string, string>();
  const storage = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
  const controller = createSessionController(storage);
  controller.signIn(answer);
  const calls: { url: string; init: RequestInit | undefined; signedIn: boolean }[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init, signedIn: controller.get() !== null });
    const next = reply();
    if (next instanceof Error) throw next;
    return next;
  });
  const onError = vi.fn();
  const client = createHttpClient({
    fetch: fetch as unknown as typeof globalThis.fetch,
    getToken: () => controller.get()?.token ?? null,
    onSlowRequest: () => undefined,
    onError,
  });
  const clearLocal = vi.fn();
  const deps: LogOutDeps = {
    session: controller,
    endSession: (token) => endSession(token, client),
    endEverySession: () => endEverySession(client),
    clearLocal,
  };
  return { deps, calls, map, controller, onError, clearLocal };
}

function header(init: RequestInit | undefined, name: string): string | undefined {
  return (init?.headers as Record<string, string> | undefined)?.[name];
}

describe('Log Out', () => {
  it('signs out here at once, then asks the server to end that token', async () => {
    const t = setup(() => json(200, LOGGED_OUT));
    const confirmed = logOut(t.deps);
    // Already signed out before the server answers.
    expect(t.controller.get()).toBeNull();
    expect(t.map.has(SESSION_KEYS.token)).toBe(false);
    expect(t.clearLocal).toHaveBeenCalledTimes(1);
    await expect(confirmed).resolves.toBe(true);

    expect(t.calls).toHaveLength(1);
    const call = t.calls[0];
    expect(call?.url).toBe(API.users.logout);
    expect(call?.init?.method).toBe('POST');
    // Signed with the ended token, though the session here is gone.
    expect(call?.signedIn).toBe(false);
    expect(header(call?.init, 'authorization')).toBe('Bearer tok-1');
    expect(call?.init?.body).toBe('{}');
    expect(call?.init?.keepalive).toBe(true);
    expect(call?.init?.signal).toBeInstanceOf(AbortSignal);
  });

  it.each([
    ['the server is unreachable', () => new TypeError('Failed to fetch')],
    ['the server already refuses the token', () => json(401, UNAUTHORIZED)],
    ['the server fails', () => json(503, { error: { code: 'database_unavailable' } })],
    ['the answer is not understood', () => json(200, { nonsense: true })],
  ])('still signs out here, without an error, when %s', async (_case, reply) => {
    const t = setup(reply);
    await expect(logOut(t.deps)).resolves.toBe(false);
    expect(t.controller.get()).toBeNull();
    expect(t.map.size).toBe(0);
    expect(t.clearLocal).toHaveBeenCalledTimes(1);
    expect(t.calls).toHaveLength(1);
    // The generic handler (which would show the service-down page) is not involved.
    expect(t.onError).not.toHaveBeenCalled();
  });

  it('calls nothing when no one is signed in', async () => {
    const t = setup(() => json(200, LOGGED_OUT));
    t.controller.signOut('logout');
    await expect(logOut(t.deps)).resolves.toBe(false);
    expect(t.calls).toHaveLength(0);
  });
});

describe('log out everywhere', () => {
  it('ends every session on the server, leaves the page, then signs out here', async () => {
    const t = setup(() => json(200, { type: 'success', message: 'logged out everywhere' }));
    const leave = vi.fn(() => {
      // The page leaves while the session is still there, as delete account does.
      expect(t.controller.get()).not.toBeNull();
    });
    await logOutEverywhere(t.deps, leave);
    expect(leave).toHaveBeenCalledTimes(1);
    expect(t.controller.get()).toBeNull();
    expect(t.clearLocal).toHaveBeenCalledTimes(1);
    expect(t.calls.map((c) => c.url)).toEqual([API.users.logoutEverywhere]);
    expect(header(t.calls[0]?.init, 'authorization')).toBe('Bearer tok-1');
    expect(t.calls[0]?.signedIn).toBe(true);
  });

  it('signs out here when the server says this session had already ended', async () => {
    const t = setup(() => json(401, UNAUTHORIZED));
    await logOutEverywhere(t.deps);
    expect(t.controller.get()).toBeNull();
  });

  it.each([
    ['the server is unreachable', () => new TypeError('Failed to fetch'), 0],
    ['the server fails', () => json(503, { error: { code: 'database_unavailable' } }), 503],
  ])('stays signed in and rejects when %s', async (_case, reply, status) => {
    const t = setup(reply);
    const leave = vi.fn();
    const failure = await logOutEverywhere(t.deps, leave).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(status);
    expect(leave).not.toHaveBeenCalled();
    expect(t.controller.get()?.token).toBe('tok-1');
    expect(t.clearLocal).not.toHaveBeenCalled();
  });
});
