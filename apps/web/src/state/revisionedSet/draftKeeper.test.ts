import { describe, expect, it, vi } from 'vitest';
import { DraftKeeper } from './draftKeeper.ts';
import { createMemoryDraftStorage } from './draftStorage.ts';

interface TestDraft {
  key: string;
  text: string;
}

function setup() {
  const storage = createMemoryDraftStorage<TestDraft>();
  const put = vi.spyOn(storage, 'put');
  let text: string | null = 'edited';
  const kept: boolean[] = [];
  const offers: (TestDraft | null)[] = [];
  const keeper = new DraftKeeper<TestDraft>({
    storage,
    delayMs: () => 800,
    compose: () => (text === null ? null : { key: 'u|client|Acme', text }),
    onKept: (isKept) => kept.push(isKept),
    onOffer: (draft) => offers.push(draft),
  });
  return { storage, put, keeper, kept, offers, setText: (next: string | null) => (text = next) };
}

describe('DraftKeeper', () => {
  it('writes once per edit: a flush after the draft holds every edit writes nothing', async () => {
    const { storage, put, keeper, kept } = setup();
    await keeper.open('u|client|Acme');
    keeper.changed();
    await keeper.flush();
    expect((await storage.find('u|client|Acme'))?.text).toBe('edited');
    await keeper.flush();
    expect(put).toHaveBeenCalledTimes(1);
    expect(kept).toEqual([true]);
    keeper.changed();
    expect(kept).toEqual([true, false]);
  });

  it('writes nothing over an offered draft, and keeps it when a save leaves the set clean', async () => {
    const { storage, put, keeper, offers } = setup();
    await storage.put({ key: 'u|client|Acme', text: 'earlier' });
    put.mockClear();
    const draft = await keeper.open('u|client|Acme');
    keeper.offer(draft!);
    keeper.changed();
    await keeper.flush();
    await keeper.clean();
    expect(put).not.toHaveBeenCalled();
    expect((await storage.find('u|client|Acme'))?.text).toBe('earlier');
    expect(keeper.takeOffer()?.text).toBe('earlier');
    expect(offers.at(-1)).toBeNull();
  });

  it('removes a draft that holds what was loaded instead of offering it, and offers any other', async () => {
    const { storage, keeper, offers } = setup();
    await storage.put({ key: 'u|client|Acme', text: 'saved meanwhile' });
    const same = await keeper.open('u|client|Acme');
    expect(await keeper.offerUnlessLoaded(same!, true)).toBe(false);
    expect(keeper.hasOffer).toBe(false);
    expect(await storage.find('u|client|Acme')).toBeUndefined();

    await storage.put({ key: 'u|client|Acme', text: 'unsaved' });
    const other = await keeper.open('u|client|Acme');
    expect(await keeper.offerUnlessLoaded(other!, false)).toBe(true);
    expect(offers.at(-1)?.text).toBe('unsaved');
    expect((await storage.find('u|client|Acme'))?.text).toBe('unsaved');
  });

  it('counts a restored draft as kept, and drops the draft once the set is clean', async () => {
    const { storage, put, keeper, kept } = setup();
    await storage.put({ key: 'u|client|Acme', text: 'earlier' });
    put.mockClear();
    keeper.offer((await keeper.open('u|client|Acme'))!);
    keeper.takeOffer();
    keeper.restored();
    expect(kept).toEqual([true]);
    await keeper.flush();
    expect(put).not.toHaveBeenCalled();
    await keeper.clean();
    expect(await storage.find('u|client|Acme')).toBeUndefined();
  });

  it('never removes a draft for lack of edits to write (a flush before the offer arrives)', async () => {
    const { storage, keeper, setText } = setup();
    await storage.put({ key: 'u|client|Acme', text: 'earlier' });
    setText(null);
    await keeper.open('u|client|Acme');
    await keeper.flush();
    expect((await storage.find('u|client|Acme'))?.text).toBe('earlier');
  });

  it('writes no draft composed before a save left the set clean', async () => {
    const storage = createMemoryDraftStorage<TestDraft>();
    let finishCompose: (draft: TestDraft) => void = () => undefined;
    const keeper = new DraftKeeper<TestDraft>({
      storage,
      delayMs: () => 800,
      // A big set is composed in slices, across tasks: the save lands in between.
      compose: () => new Promise<TestDraft>((resolve) => (finishCompose = resolve)),
      onKept: () => undefined,
      onOffer: () => undefined,
    });
    await keeper.open('u|client|Acme');
    keeper.changed();
    const writing = keeper.flush();
    await keeper.clean();
    finishCompose({ key: 'u|client|Acme', text: 'edited' });
    await writing;
    expect(await storage.find('u|client|Acme')).toBeUndefined();
  });
});
