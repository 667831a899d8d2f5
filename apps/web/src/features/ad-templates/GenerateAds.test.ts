import { describe, expect, it } from 'vitest';
import { findGenerateBlocker } from './GenerateAds.tsx';

describe('findGenerateBlocker', () => {
  it.each([
    ['rsa', 0, 'search', 3, 'Have you remembered to select a feed and rows?'],
    ['rsa', 5, 'performance', 3, 'RSAs cannot be generated for performance campaigns'],
    ['rsa', 5, 'search', null, 'Generate keywords before generating ads'],
    ['rsa', 5, null, 0, 'Generate keywords before generating ads'],
    ['rsa', 5, 'search', 3, null],
    ['performance', 0, 'performance', 3, 'Have you remembered to select a feed and rows?'],
    ['performance', 5, 'search', 3, 'Performance ads cannot be generated for Search campaigns'],
    ['performance', 5, 'performance', null, 'Generate assets before generating ads'],
    ['performance', 5, 'performance', 2, null],
  ] as const)(
    '%s with %i rows, a %s campaign and %s groups: %s',
    (kind, rowCount, campaignType, groupCount, expected) => {
      expect(findGenerateBlocker({ kind, rowCount, campaignType, groupCount })).toBe(expected);
    },
  );
});
