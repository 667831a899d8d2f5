import { describe, expect, it } from 'vitest';
import { createStore } from '../../state/store.ts';
import { OutputRegistry } from './outputRegistry.ts';

describe('OutputRegistry', () => {
  it('gives the same client store for a key and resets it when the client is dropped', () => {
    const outputs = new OutputRegistry();
    const store = outputs.clientStore<number | null>('answer', null);
    store.set(42);
    expect(outputs.clientStore<number | null>('answer', null)).toBe(store);
    outputs.dropClient();
    expect(store.get()).toBeNull();
    expect(outputs.clientStore<number | null>('answer', null)).toBe(store);
  });

  it('keeps session entries when the client is dropped', () => {
    const outputs = new OutputRegistry();
    const store = outputs.session('kept', () => createStore(0));
    store.set(7);
    outputs.dropClient();
    expect(outputs.session('kept', () => createStore(0)).get()).toBe(7);
  });

  it('tells a generation started before a reset that its result no longer belongs here', () => {
    const outputs = new OutputRegistry();
    const before = outputs.ownership();
    expect(before()).toBe(true);
    outputs.dropClient(); // a sign-out, or the same client chosen again
    expect(before()).toBe(false);
    expect(outputs.ownership()()).toBe(true);
  });
});
