import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import { newRsaTemplate, type FeedRow, type RsaTemplate } from '@adloom/engine';
import { FeedStore } from '../feed-grid/index.ts';
import type { EngineJobContext } from '../generation/jobTypes.ts';
import { findPreviewRowJob } from './previewJobs.ts';
import { selectedPreviewRows } from './previewRows.ts';

function row(i: number, root: string): FeedRow {
  return { id: `r${i}`, root, mod: '', var1: '', var2: '', var3: '', url: 'https://s.example' };
}

function context(rows: FeedRow[]): EngineJobContext {
  return testJobContext(rows);
}

const template: RsaTemplate = {
  ...newRsaTemplate('T'),
  templates: [
    {
      headlines: [
        { text: '{root}', pos: 0 },
        { text: 'Free delivery', pos: 0 },
        { text: 'Official store', pos: 0 },
      ],
      descriptions: [
        { text: 'Shop now.', pos: 0 },
        { text: 'Great prices.', pos: 0 },
      ],
      paths: ['', ''],
      labels: [''],
    },
  ],
};

describe('the preview over every selected row', () => {
  it('finds the first valid row past the first 2000 in the worker job, or -1', () => {
    const tooLong = 'x'.repeat(31);
    const rows = Array.from({ length: 5000 }, (_, i) => row(i, i === 4321 ? 'Nike' : tooLong));
    expect(findPreviewRowJob({ kind: 'rsa', template }, context(rows))).toBe(4321);
    rows[4321] = row(4321, tooLong);
    expect(findPreviewRowJob({ kind: 'rsa', template }, context(rows))).toBe(-1);
  });

  it('reads the selected rows of a store one at a time, in feed order, and follows changes', () => {
    const store = new FeedStore();
    store.load(Array.from({ length: 3000 }, (_, i) => ({ id: `r${i}`, root: `root ${i}` })));
    for (const p of [5, 2500, 2999]) store.setSelected(store.getSlotAt(p), true);
    const rows = selectedPreviewRows(store);
    expect(rows.count).toBe(3);
    expect(rows.rowAt(0)).toMatchObject({ id: 'r5', root: 'root 5' });
    expect(rows.rowAt(1)).toMatchObject({ id: 'r2500', root: 'root 2500', url: '' });
    expect(rows.rowAt(2)?.root).toBe('root 2999');
    expect(rows.rowAt(3)).toBeUndefined();
    expect(rows.rowAt(-1)).toBeUndefined();
    // The grid row a person sees beside each one.
    expect([0, 1, 2, 3].map((i) => rows.gridRowAt(i))).toEqual([6, 2501, 3000, 0]);
    store.setSelected(store.getSlotAt(5), false);
    expect(rows.count).toBe(2);
    expect(rows.rowAt(0)?.root).toBe('root 2500');
    expect(rows.gridRowAt(0)).toBe(2501);
  });
});
