import { newCampaignTemplate } from '@adloom/engine';
import { describe, expect, it } from 'vitest';
import { findMissingPattern } from './namePatterns.ts';

describe('findMissingPattern', () => {
  it.each([
    [
      'search',
      '',
      '{root}',
      '',
      "Type a campaign name pattern first (for example {root} - Search): it names each row's campaign.",
    ],
    [
      'search',
      '{root}',
      '  ',
      '',
      "Type an ad group name pattern first (for example {root} {mod} - {mt}): it names each row's ad group.",
    ],
    ['search', '{root}', '{mod}', '', null],
    [
      'performance',
      'PMax',
      '{mod}',
      '',
      "Type an asset group pattern first (for example {root} {mod}): it names each row's asset group.",
    ],
    ['performance', 'PMax', '', '{root} {mod}', null],
  ] as const)(
    '%s, campaign %j, ad group %j, asset group %j: %j',
    (type, campaign, adGroup, assetGroup, expected) => {
      const template = { ...newCampaignTemplate('T'), type, campaign, adGroup, assetGroup };
      expect(findMissingPattern(template)).toBe(expected);
    },
  );
});
