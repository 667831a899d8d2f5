import { describe, expect, it } from 'vitest';
import { createGoogleAccessTokens } from './google-oauth.ts';

describe('access tokens in memory', () => {
  /** A loader that hands out numbered tokens good for `lifetimeS` and counts its calls. */
  function loader(lifetimeS: number) {
    const state = { calls: 0 };
    const load = async () => {
      state.calls += 1;
      return { accessToken: `token-${state.calls}`, expiresInSeconds: lifetimeS };
    };
    return { state, load };
  }

  it('keeps a token until a minute before it expires, per user', async () => {
    let now = 1_000_000;
    const tokens = createGoogleAccessTokens(() => now);
    const alice = loader(3600);
    const bob = loader(3600);
    expect(await tokens.get('alice', 'link-1', alice.load)).toBe('token-1');
    expect(await tokens.get('bob', 'link-1', bob.load)).toBe('token-1');
    now += 3600_000 - 61_000;
    expect(await tokens.get('alice', 'link-1', alice.load)).toBe('token-1');
    expect(alice.state.calls).toBe(1);
    now += 2_000;
    expect(await tokens.get('alice', 'link-1', alice.load)).toBe('token-2');
    expect(alice.state.calls).toBe(2);
    // Bob's expired too: his next call loads his own.
    expect(await tokens.get('bob', 'link-1', bob.load)).toBe('token-2');
  });

  it('shares one load among calls at the same time, and keeps no failure', async () => {
    const tokens = createGoogleAccessTokens();
    const { state, load } = loader(3600);
    const both = await Promise.all([
      tokens.get('alice', 'link-1', load),
      tokens.get('alice', 'link-1', load),
    ]);
    expect(both).toEqual(['token-1', 'token-1']);
    expect(state.calls).toBe(1);

    const failing = async (): Promise<never> => {
      throw new Error('Google is down');
    };
    await expect(tokens.get('bob', 'link-1', failing)).rejects.toThrow('Google is down');
    expect(await tokens.get('bob', 'link-1', load)).toBe('token-2');
  });

  it('forgets a user on request', async () => {
    const tokens = createGoogleAccessTokens();
    const { load } = loader(3600);
    expect(await tokens.get('alice', 'link-1', load)).toBe('token-1');
    tokens.forget('alice');
    expect(await tokens.get('alice', 'link-1', load)).toBe('token-2');
  });

  it('loads every time a token that lives less than the minute of margin', async () => {
    const tokens = createGoogleAccessTokens();
    const { state, load } = loader(30);
    await tokens.get('alice', 'link-1', load);
    await tokens.get('alice', 'link-1', load);
    expect(state.calls).toBe(2);
  });

  it('loads again once the stored link is another one (linked again, maybe through another server)', async () => {
    const tokens = createGoogleAccessTokens();
    const { state, load } = loader(3600);
    expect(await tokens.get('alice', 'link-1', load)).toBe('token-1');
    expect(await tokens.get('alice', 'link-2', load)).toBe('token-2');
    expect(await tokens.get('alice', 'link-2', load)).toBe('token-2');
    expect(state.calls).toBe(2);
  });
});
