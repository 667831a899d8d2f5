import { describe, expect, it } from 'vitest';
import type { FeedRow } from '@adloom/engine';
import { testJobContext } from '../generation/testing/jobContext.ts';
import { measureTextsJob, validateFallbacksJob } from './validationJobs.ts';

function row(id: string, root: string): FeedRow {
  return { id, root, mod: '', var1: '', var2: '', var3: '', url: 'https://shop.test' };
}

// Three selected rows of a feed: grid rows 2, 17 and 53 (positions 1, 16, 52).
const rows = [row('a', 'Nike'), row('b', 'Asics'), row('c', 'New Balance Made In USA Limite')];
const ctx = testJobContext(rows, { positions: [1, 16, 52] });

describe('the validation jobs name the grid row, not the place among the selected rows', () => {
  it('measureTexts: the longest comes from grid row 53', async () => {
    const [longest, fixed] = await measureTextsJob(
      { texts: ['Buy {root}', 'Free'], constant: '' },
      ctx,
    );
    expect(longest).toEqual({ length: 34, rowIndex: 52 });
    expect(fixed).toEqual({ length: 4, rowIndex: -1 });
  });

  it('validateFallbacks: the failing row is grid row 53 (3 of 3 selected)', async () => {
    const result = await validateFallbacksJob(
      {
        kind: 'rsa',
        fallbacks: [
          {
            headlines: ['{root} Shoes', 'Free Delivery', 'Official Store'].map((text) => ({
              text,
              pos: 0,
            })),
            descriptions: ['Buy now.', 'Free returns.'].map((text) => ({ text, pos: 0 })),
            paths: ['', ''],
            labels: [],
          },
        ],
      },
      ctx,
    );
    expect(result.valid).toBe(2);
    expect(result.failures.map((f) => [f.rowNumber, f.feedRowNumber])).toEqual([[3, 53]]);
  });
});
