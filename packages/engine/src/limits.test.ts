import { describe, expect, it } from 'vitest';
import * as L from './limits.ts';

describe('limits from spec section 9 and Google', () => {
  it.each([
    ['RSA_HEADLINE_MAX_CHARS', 30],
    ['RSA_DESCRIPTION_MAX_CHARS', 90],
    ['RSA_PATH_MAX_CHARS', 15],
    ['RSA_MAX_HEADLINES', 15],
    ['RSA_MAX_DESCRIPTIONS', 4],
    ['RSA_MIN_HEADLINES', 3],
    ['RSA_MIN_DESCRIPTIONS', 2],
    ['PMAX_HEADLINE_MAX_CHARS', 30],
    ['PMAX_LONG_HEADLINE_MAX_CHARS', 90],
    ['PMAX_DESCRIPTION_MAX_CHARS', 90],
    ['PMAX_FIRST_DESCRIPTION_MAX_CHARS', 60],
    ['PMAX_PATH_MAX_CHARS', 15],
    ['PMAX_BUSINESS_NAME_MAX_CHARS', 25],
    ['PMAX_MAX_HEADLINES', 15],
    ['PMAX_SHORT_HEADLINE_MAX_CHARS', 15],
    ['PMAX_SHORT_DESCRIPTION_MAX_CHARS', 60],
    ['PMAX_MAX_LONG_HEADLINES', 5],
    ['PMAX_MAX_DESCRIPTIONS', 5],
    ['FEED_CELL_MAX_CHARS', 30],
    ['FEED_URL_MAX_CHARS', 65_536],
    ['BUDGET_MIN', 0.01],
    ['BUDGET_DEFAULT', 0.01],
    ['KEYWORD_MAX_CHARS', 80],
    ['KEYWORD_MAX_WORDS', 10],
    ['CALLOUT_TEXT_MAX_CHARS', 25],
    ['SITELINK_LINK_TEXT_MAX_CHARS', 25],
    ['SITELINK_DESCRIPTION_MAX_CHARS', 35],
    ['SNIPPET_VALUE_MAX_CHARS', 25],
    ['SNIPPET_MIN_VALUES', 3],
    ['SNIPPET_MAX_VALUES', 10],
    ['EXTENSION_INPUT_MAX_CHARS', 2000],
    ['PREVIEW_HEADLINE_SLOTS', 3],
    ['PREVIEW_DESCRIPTION_SLOTS', 2],
    ['AUTOSAVE_INTERVAL_MS', 300000],
  ] as const)('%s = %s', (name, value) => {
    expect(L[name]).toBe(value);
  });

  it('lists the thirteen snippet headers', () => {
    expect(L.SNIPPET_HEADERS).toHaveLength(13);
    expect(L.SNIPPET_HEADERS[0]).toBe('Amenities');
    expect(L.SNIPPET_HEADERS[12]).toBe('Types');
  });

  it('defines the extension fields of the spec', () => {
    const d = L.EXTENSION_TYPE_DEFINITIONS;
    expect(d.Callout.fields.map((f) => [f.title, f.maxLength, f.isStatic])).toEqual([
      ['Callout text', 25, false],
      ['Upgraded extension', 0, true],
    ]);
    expect(d.Sitelink.fields.map((f) => [f.title, f.maxLength, f.isStatic])).toEqual([
      ['Link Text', 25, false],
      ['Description Line 1', 35, false],
      ['Description Line 2', 35, false],
      ['Upgraded extension', 0, true],
      ['Final URL', 0, true],
    ]);
    expect(d['Structured Snippet'].fields.map((f) => f.title)).toEqual([
      'Header',
      'Snippet Values',
      'Upgraded extension',
    ]);
  });
});
