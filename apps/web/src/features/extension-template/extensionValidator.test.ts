import { describe, expect, it } from 'vitest';
import { newExtensionTemplate, type ExtensionTemplate } from '@adloom/engine';
import { FeedStore } from '../feed-grid/index.ts';
import { selectedRowsSource, setEngineWorkerFactory } from '../generation/index.ts';
import type { ValidationResult } from '../validation/checks.ts';
import { createExtensionValidator } from './extensionValidator.ts';
import { FakeWorker } from '../generation/testing/FakeWorker.ts';

setEngineWorkerFactory(() => new FakeWorker() as unknown as Worker);

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function callout(text: string): ExtensionTemplate {
  const template = newExtensionTemplate('Callouts', 'Callout');
  return { ...template, templates: [{ 'Callout text': text }] };
}

const scored = (valid: number): ValidationResult => ({
  valid,
  total: 2,
  failures: [],
  failing: 2 - valid,
});

describe('createExtensionValidator', () => {
  it('keeps the worker and its rows while a person types: stale checks are dropped, not cut off', async () => {
    const store = new FeedStore();
    store.load([
      { id: 'r1', root: 'nike' },
      { id: 'r2', root: 'puma' },
    ]);
    store.setSelected(store.getSlotAt(0), true);
    store.setSelected(store.getSlotAt(1), true);
    const lane = `extensions-${Math.random()}`;
    const validator = createExtensionValidator(2, 1, selectedRowsSource(store), lane);
    const workersBefore = FakeWorker.made.length;

    // Three keystrokes: each change aborts the previous check's signal, as ValidatorScore does.
    const first = new AbortController();
    const running = validator.validate(
      { template: callout('A'), campaign: null },
      first.signal,
      'Extension',
    );
    await tick();
    const worker = FakeWorker.made.at(-1)!;
    expect(FakeWorker.made.length).toBe(workersBefore + 1);
    expect(worker.jobs()).toHaveLength(1);
    first.abort();
    const second = new AbortController();
    const stale = validator.validate(
      { template: callout('Al'), campaign: null },
      second.signal,
      'Extension',
    );
    second.abort();
    const newest = validator.validate(
      { template: callout('All {root}'), campaign: null },
      new AbortController().signal,
      'Extension',
    );
    await expect(stale).rejects.toThrow('cancelled');

    // The running check finishes in the same worker; only the newest one runs next.
    expect(worker.isTerminated).toBe(false);
    worker.answer(scored(1));
    await expect(running).rejects.toThrow('cancelled');
    await tick();
    const jobs = worker.jobs();
    expect(jobs).toHaveLength(2);
    expect((jobs[1]!.input as { template: ExtensionTemplate }).template.templates).toEqual([
      { 'Callout text': 'All {root}' },
    ]);
    worker.answer(scored(2));
    await expect(newest).resolves.toEqual(scored(2));
    expect(worker.isTerminated).toBe(false);
    expect(worker.posted.filter((m) => m.type === 'rows-begin')).toHaveLength(1);
    expect(FakeWorker.made.length).toBe(workersBefore + 1);
  });
});
