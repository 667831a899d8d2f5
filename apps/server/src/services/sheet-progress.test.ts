import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SheetProgress } from '@adloom/contract';
import { startTestApp, type TestApp } from '../../test/helpers.ts';
import { SheetProgressRegistry } from './sheet-progress.ts';

/** What `find` answers once it stops changing into something else than `expected` (10 s at most). */
async function settle(
  find: () => Promise<SheetProgress | undefined>,
  expected: SheetProgress | undefined,
): Promise<SheetProgress | undefined> {
  for (let tries = 0; ; tries += 1) {
    const found = await find();
    if (JSON.stringify(found) === JSON.stringify(expected) || tries >= 200) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('SheetProgressRegistry', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp();
    alice = (await t.signUp()).user._id;
    bob = (await t.signUp()).user._id;
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers a call's progress to its user only, and drops it a while after it ends", async () => {
    const registry = new SheetProgressRegistry(t.db, 1000);
    const reporter = registry.start(alice, 'p1');
    expect(await registry.find(alice, 'p1')).toEqual({ phase: 'reading', done: 0, total: 0 });
    reporter.report('writing', 20_000, 100_001);
    expect(await registry.find(alice, 'p1')).toEqual({
      phase: 'writing',
      done: 20_000,
      total: 100_001,
    });
    expect(await registry.find(bob, 'p1')).toBeUndefined();
    expect(await registry.find(alice, 'p2')).toBeUndefined();
    reporter.finish();
    expect(await registry.find(alice, 'p1')).toEqual({
      phase: 'done',
      done: 100_001,
      total: 100_001,
    });
    expect(await settle(() => registry.find(alice, 'p1'), undefined)).toBeUndefined();
  });

  it('answers a call running on another server on the same database', async () => {
    const running = new SheetProgressRegistry(t.db, 60_000);
    const other = new SheetProgressRegistry(t.db, 60_000);
    const reporter = running.start(alice, 'shared');
    reporter.report('writing', 5, 10);
    const writing = { phase: 'writing', done: 5, total: 10 } as const;
    expect(await settle(() => other.find(alice, 'shared'), writing)).toEqual(writing);
    expect(await other.find(bob, 'shared')).toBeUndefined();
    reporter.finish();
    const done = { phase: 'done', done: 10, total: 10 } as const;
    expect(await settle(() => other.find(alice, 'shared'), done)).toEqual(done);
  });

  it('keeps a new call with a reused id when the earlier one ends', async () => {
    const registry = new SheetProgressRegistry(t.db, 500);
    const first = registry.start(alice, 'p');
    first.finish();
    const second = registry.start(alice, 'p');
    second.report('reading', 5, 10);
    // Past the first call's keeping time.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await registry.find(alice, 'p')).toEqual({ phase: 'reading', done: 5, total: 10 });
  });

  it('keeps nothing for a call without a progress id', async () => {
    const registry = new SheetProgressRegistry(t.db);
    const reporter = registry.start(alice, undefined);
    reporter.report('reading', 1, 2);
    reporter.finish();
    expect(await registry.find(alice, 'undefined')).toBeUndefined();
  });
});
