import { describe, expect, it } from 'vitest';
import { GEO_REMOVAL_PLANNED, type GeoTarget } from '@adloom/contract';
import {
  EMPTY_GEO_FORM,
  canCreateGeoFeed,
  cleanCountryCode,
  cleanParentId,
  findCountryCodeProblem,
  toGeoFeedRows,
  toGeoParams,
  toTargetType,
  type GeoForm,
} from './geoForm.ts';

const form = (patch: Partial<GeoForm>): GeoForm => ({ ...EMPTY_GEO_FORM, ...patch });

function target(
  criteriaId: number,
  canonicalName: string,
  parentId: number | null,
  status = 'Active',
): GeoTarget {
  const parts = canonicalName.split(',');
  return {
    criteriaId,
    name: parts[0]!,
    canonicalName: parts,
    parentId,
    countryCode: 'DE',
    targetType: 'City',
    status,
  };
}

describe('the New Geo Feed form (spec section 5)', () => {
  it.each([
    ['de', 'DE'],
    ['dEu', 'DE'],
    ['1d-e', 'DE'],
    ['', ''],
    ['ö', ''],
  ])('forces the country code %j to upper case and two letters: %j', (typed, shown) => {
    expect(cleanCountryCode(typed)).toBe(shown);
  });

  it('keeps only the digits of a parent ID', () => {
    expect(cleanParentId('20 22a9')).toBe('20229');
    expect(cleanParentId('1'.repeat(25))).toBe('1'.repeat(19));
  });

  it('reads only the 25 target types', () => {
    expect(toTargetType('City')).toBe('City');
    expect(toTargetType('city')).toBe('');
    expect(toTargetType('')).toBe('');
  });

  it.each([
    [{}, false],
    [{ name: 'Cities' }, false],
    [{ name: 'Cities', targetType: 'City' }, false],
    [{ name: 'Cities', targetType: 'City', countryCode: 'D' }, false],
    [{ name: 'Cities', targetType: 'City', countryCode: 'DE' }, true],
    [{ name: '  ', targetType: 'City', countryCode: 'DE' }, false],
    [{ name: 'Countries', targetType: 'Country' }, true],
    [{ name: 'Countries', targetType: 'Country', countryCode: 'D' }, false],
  ] as const)('needs a name, a type and a code but for Country: %j -> %s', (patch, can) => {
    expect(canCreateGeoFeed(form(patch))).toBe(can);
  });

  it('sends the filled filters only, trimmed', () => {
    expect(toGeoParams(form({ targetType: 'Country' }))).toEqual({ targetType: 'Country' });
    expect(
      toGeoParams(
        form({
          targetType: 'City',
          countryCode: 'DE',
          parentId: '20229',
          canonicalName: '  burg ',
        }),
      ),
    ).toEqual({ targetType: 'City', countryCode: 'DE', parentId: '20229', canonicalName: 'burg' });
    expect(toGeoParams(form({ targetType: 'City' }))).toBeNull();
  });

  it('names the problem of a one-letter country code', () => {
    expect(findCountryCodeProblem(form({ countryCode: 'D' }))).toMatch(/Two letters/);
    expect(findCountryCodeProblem(form({ countryCode: 'DE' }))).toBeUndefined();
    expect(findCountryCodeProblem(form({}))).toBeUndefined();
  });
});

describe('the rows of a geo feed (spec sections 3 and 5)', () => {
  const targets = [
    target(1003854, 'Berlin,Berlin,Germany', 20226),
    target(1004074, 'Augsburg,Bavaria,Germany', 20229),
    target(1004130, 'Würzburg,Bavaria,Germany', 20229, GEO_REMOVAL_PLANNED),
    target(9000001, 'Neuburg an der Donau,Bavaria,Germany', null),
  ];

  it('holds the criteria ID in root and the name in mod, the other cells empty', () => {
    expect(
      toGeoFeedRows(targets.slice(0, 1), EMPTY_GEO_FORM, { leaveOutRemovalPlanned: true }),
    ).toEqual([
      { root: '1003854', mod: 'Berlin', var1: '', var2: '', var3: '', url: '', status: '' },
    ]);
  });

  it('filters again on the client: canonical name text (any case) and parent ID', () => {
    const roots = (patch: Partial<GeoForm>) =>
      toGeoFeedRows(targets, form(patch), { leaveOutRemovalPlanned: false }).map((r) => r.root);
    expect(roots({ canonicalName: 'BURG' })).toEqual(['1004074', '1004130', '9000001']);
    expect(roots({ canonicalName: 'burg', parentId: '20229' })).toEqual(['1004074', '1004130']);
    expect(roots({ parentId: '020226' })).toEqual(['1003854']);
    expect(roots({ canonicalName: 'WÜRZ' })).toEqual(['1004130']);
    expect(roots({ canonicalName: 'Bavaria,Germany' })).toEqual([]);
  });

  it('leaves out the targets Google marks Removal Planned when asked', () => {
    const roots = (leaveOutRemovalPlanned: boolean) =>
      toGeoFeedRows(targets, form({ parentId: '20229' }), { leaveOutRemovalPlanned }).map(
        (r) => r.root,
      );
    expect(roots(true)).toEqual(['1004074']);
    expect(roots(false)).toEqual(['1004074', '1004130']);
  });
});
