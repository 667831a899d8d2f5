import { describe, expect, it } from 'vitest';
import { describeMissingAds } from './AdOutputSection.tsx';

describe('describeMissingAds', () => {
  it('says how many groups got no ad, and where the reasons are', () => {
    expect(describeMissingAds('rsa', 987, 990)).toBe(
      '987 ads for 990 ad groups: 3 ad groups have no ad (Skipped and cleaned items says why).',
    );
    expect(describeMissingAds('performance', 1, 2)).toBe(
      '1 ad for 2 asset groups: 1 asset group has no ad (Skipped and cleaned items says why).',
    );
  });
});
