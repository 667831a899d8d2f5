import { describe, expect, it } from 'vitest';
import { restoreRsaTemplate } from './restore.ts';
import { makeScore, scoreBand, scorePercent, scoreRsaTemplate } from './scores.ts';
import type { FeedRow } from './types.ts';

describe('scores', () => {
  it.each([
    [0, 10, 0],
    [1, 1000, 1],
    [1, 300, 1],
    [3, 300, 1],
    [199, 200, 99],
    [2, 3, 66],
    [10, 10, 100],
    [0, 0, 0],
  ])('%i/%i -> %i%%', (valid, total, percent) => {
    expect(scorePercent(valid, total)).toBe(percent);
  });

  it.each([
    [0, 'low'],
    [49, 'low'],
    [50, 'fair'],
    [79, 'fair'],
    [80, 'good'],
    [99, 'good'],
    [100, 'perfect'],
  ])('%i%% is %s', (percent, band) => {
    expect(scoreBand(percent)).toBe(band);
  });

  it('formats valid/total (percent) emoji, or NO FEED SELECTED!', () => {
    expect(makeScore(4, 5).text).toBe('4/5 (80%) 🙂');
    expect(makeScore(0, 0).text).toBe('NO FEED SELECTED!');
  });

  it('scores an RSA template over rows', () => {
    const t = restoreRsaTemplate({
      templates: [{ headlines: ['{root}', 'b', 'c'], descriptions: ['d', 'e'] }],
    });
    // Root 'c' repeats headline 'c' (Google rejects duplicates); '' leaves {root} with nothing.
    const rows: FeedRow[] = ['a', '', 'c', 'x'.repeat(31), 'z'].map((root, i) => ({
      id: String(i),
      root,
      mod: '',
      var1: '',
      var2: '',
      var3: '',
      url: 'https://shop.com/',
    }));
    expect(scoreRsaTemplate(t, rows)).toMatchObject({
      valid: 2,
      total: 5,
      percent: 40,
      band: 'low',
    });
    expect(scoreRsaTemplate(t, rows.slice(0, 2))).toMatchObject({
      valid: 1,
      total: 2,
      percent: 50,
      band: 'fair',
    });
    // A row without an http(s) final URL gets no ad.
    expect(scoreRsaTemplate(t, [{ ...rows[0]!, url: 'shop.com' }])).toMatchObject({ valid: 0 });
    // {const} comes from the campaign template.
    const withConst = restoreRsaTemplate({
      templates: [{ headlines: ['{root} at {const}', 'b', 'c'], descriptions: ['d', 'e'] }],
    });
    expect(scoreRsaTemplate(withConst, rows.slice(0, 1))).toMatchObject({ valid: 0 });
    expect(scoreRsaTemplate(withConst, rows.slice(0, 1), 'Paris')).toMatchObject({ valid: 1 });
  });
});
