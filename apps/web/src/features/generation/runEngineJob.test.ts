import { describe, expect, it } from 'vitest';
import { FeedStore } from '../feed-grid/index.ts';
import { isJobCancelled, runEngineJob, setEngineWorkerFactory } from './runEngineJob.ts';
import { selectedRowsSource } from './selectedRows.ts';
import { FakeWorker } from './testing/FakeWorker.ts';
import { readRowsChunk } from './rowsChunk.ts';
import { restoreInput } from './inputParts.ts';
import type { EngineJobInput } from './jobTypes.ts';
import type { FeedRow } from '@adloom/engine';

setEngineWorkerFactory(() => new FakeWorker() as unknown as Worker);

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function storeWithRows(): FeedStore {
  const store = new FeedStore();
  store.load(['a', 'b', 'c', 'd', 'e'].map((root, i) => ({ id: `r${i}`, root, mod: `m${i}` })));
  store.setSelected(store.getSlotAt(1), true);
  store.setSelected(store.getSlotAt(3), true);
  return store;
}

describe('runEngineJob', () => {
  it('sends the selected rows once, then runs jobs one at a time in order', async () => {
    const store = storeWithRows();
    const source = selectedRowsSource(store);
    const lane = `lane-${Math.random()}`;
    const input = { table: { headers: [], rowCount: 0, columns: [] } };
    const first = runEngineJob('clipboardText', input, { rows: source, lane });
    const second = runEngineJob('clipboardText', input, { rows: source, lane });
    await tick();
    const worker = FakeWorker.made.at(-1)!;
    const chunk = worker.posted.find((m) => m.type === 'rows-chunk');
    expect(chunk && chunk.type === 'rows-chunk' ? [...chunk.positions] : []).toEqual([1, 3]);
    expect(chunk && chunk.type === 'rows-chunk' ? chunk.texts[0] : '').toBe('bd');
    expect(worker.jobs()).toHaveLength(1);
    worker.answer({ text: 'one' });
    expect(await first).toEqual({ text: 'one' });
    await tick();
    expect(worker.jobs()).toHaveLength(2);
    worker.answer({ text: 'two' });
    expect(await second).toEqual({ text: 'two' });
    expect(worker.posted.filter((m) => m.type === 'rows-begin')).toHaveLength(1);
  });

  it('hands the worker every column of the selected rows, Status included, and their ids', async () => {
    const store = new FeedStore();
    store.load([
      { id: 'r0', root: 'a', url: 'https://a.test', status: '' },
      { id: 'r1', root: 'b', mod: 'm', url: 'https://b.test', status: 'paused' },
      { id: 'r2', root: 'c', status: 'out of stock' },
    ]);
    store.setSelected(store.getSlotAt(1), true);
    store.setSelected(store.getSlotAt(2), true);
    const lane = `lane-${Math.random()}`;
    const input = { table: { headers: [], rowCount: 0, columns: [] } };
    const job = runEngineJob('clipboardText', input, { rows: selectedRowsSource(store), lane });
    await tick();
    const worker = FakeWorker.made.at(-1)!;
    const read: [FeedRow, number][] = [];
    for (const m of worker.posted)
      if (m.type === 'rows-chunk') readRowsChunk(m, (row, position) => read.push([row, position]));
    expect(read).toEqual([
      [
        {
          id: 'r1',
          root: 'b',
          mod: 'm',
          var1: '',
          var2: '',
          var3: '',
          url: 'https://b.test',
          status: 'paused',
        },
        1,
      ],
      [
        {
          id: 'r2',
          root: 'c',
          mod: '',
          var1: '',
          var2: '',
          var3: '',
          url: '',
          status: 'out of stock',
        },
        2,
      ],
    ]);
    worker.answer({ text: 'ok' });
    await job;
  });

  it('puts the long strings sent ahead of a result back in place', async () => {
    const lane = `lane-${Math.random()}`;
    const input = { table: { headers: [], rowCount: 0, columns: [] } };
    const job = runEngineJob('clipboardText', input, { lane });
    await tick();
    const worker = FakeWorker.made.at(-1)!;
    const result = {
      table: { columns: [{ text: 'a'.repeat(40) }, { text: 'b' }] },
      more: 'c'.repeat(40),
    };
    const expected = structuredClone(result);
    worker.answerInParts(result, 40);
    expect(await job).toEqual(expected);
  });

  it('drops a cancelled queued job and ends the worker of a cancelled running one', async () => {
    const store = storeWithRows();
    const source = selectedRowsSource(store);
    const lane = `lane-${Math.random()}`;
    const input = { table: { headers: [], rowCount: 0, columns: [] } };
    const runningAbort = new AbortController();
    const queuedAbort = new AbortController();
    const running = runEngineJob('clipboardText', input, {
      rows: source,
      lane,
      signal: runningAbort.signal,
    });
    const queued = runEngineJob('clipboardText', input, { lane, signal: queuedAbort.signal });
    await tick();
    const worker = FakeWorker.made.at(-1)!;
    queuedAbort.abort();
    await expect(queued).rejects.toSatisfy(isJobCancelled);
    runningAbort.abort();
    await expect(running).rejects.toSatisfy(isJobCancelled);
    expect(worker.isTerminated).toBe(true);
    expect(worker.jobs()).toHaveLength(1);

    // The next job gets a fresh worker, and the rows again.
    const next = runEngineJob('clipboardText', input, { rows: source, lane });
    await tick();
    const fresh = FakeWorker.made.at(-1)!;
    expect(fresh).not.toBe(worker);
    expect(fresh.posted.some((m) => m.type === 'rows-begin')).toBe(true);
    fresh.answer({ text: 'ok' });
    expect(await next).toEqual({ text: 'ok' });
  });

  it('resends the rows after the selection changes', async () => {
    const store = storeWithRows();
    const source = selectedRowsSource(store);
    const lane = `lane-${Math.random()}`;
    const input = { table: { headers: [], rowCount: 0, columns: [] } };
    const first = runEngineJob('clipboardText', input, { rows: source, lane });
    await tick();
    const worker = FakeWorker.made.at(-1)!;
    worker.answer({ text: '1' });
    await first;
    store.setSelected(store.getSlotAt(4), true);
    const second = runEngineJob('clipboardText', input, { rows: source, lane });
    await tick();
    const begins = worker.posted.filter((m) => m.type === 'rows-begin');
    expect(begins.map((m) => (m.type === 'rows-begin' ? m.total : 0))).toEqual([2, 3]);
    worker.answer({ text: '2' });
    await second;
  });

  it("sends a big input's strings and arrays ahead of its job, a few megabytes per message", async () => {
    const lane = `lane-${Math.random()}`;
    const text = 'k'.repeat(1_500_000); // 3 MB as UTF-16
    const codes = new Uint32Array(500_000).map((_, i) => i % 7); // 2 MB
    const other = 'm'.repeat(600_000); // 1.2 MB
    const table = { headers: ['Keyword'], rowCount: 3, columns: [{ texts: [text, other], codes }] };
    const input = { table } as unknown as EngineJobInput<'clipboardText'>;
    const job = runEngineJob('clipboardText', input, { lane });
    const worker = FakeWorker.made.at(-1)!;
    // The first message is posted, then the page gets a turn before the next.
    expect(worker.posted.map((m) => m.type)).toEqual(['input-parts']);
    for (let i = 0; i < 5 && worker.jobs().length === 0; i++) await tick();
    const sent = worker.posted.filter((m) => m.type === 'input-parts');
    expect(sent.map((m) => (m.type === 'input-parts' ? m.values.length : 0))).toEqual([1, 2]); // 3 MB, then 1.2 + 2 MB
    expect(worker.posted.at(-1)?.type).toBe('job');
    const parts = sent.flatMap((m) => (m.type === 'input-parts' ? m.values : []));
    expect(restoreInput(worker.jobs()[0]!.input, parts)).toEqual({ table });
    // The caller's table is as it was.
    expect(table.columns[0]!.texts[0]).toBe(text);
    worker.answer({ text: 'done' });
    expect(await job).toEqual({ text: 'done' });
  });
});
