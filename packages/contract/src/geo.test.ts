import { describe, expect, it } from 'vitest';
import {
  GEO_COUNTRY_CODES,
  GEO_TARGET_TYPES,
  GeoBodySchema,
  GeoSearchBodySchema,
  matchesGeoFilters,
} from './index.ts';

describe('geo target types and country codes (spec section 2)', () => {
  it('offers the 25 target types once each, and about 230 unique two-letter codes', () => {
    expect(new Set(GEO_TARGET_TYPES).size).toBe(25);
    expect(GEO_COUNTRY_CODES.length).toBeGreaterThanOrEqual(230);
    expect(new Set(GEO_COUNTRY_CODES).size).toBe(GEO_COUNTRY_CODES.length);
    expect(GEO_COUNTRY_CODES.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
    expect(GEO_COUNTRY_CODES).toEqual(expect.arrayContaining(['DE', 'US', 'GB', 'XK']));
  });
});

describe('GeoBodySchema (spec section 5)', () => {
  const parse = (params: Record<string, unknown>) => GeoBodySchema.safeParse({ params });

  it('forces the country code to upper case', () => {
    const result = parse({ countryCode: ' de ', targetType: 'City' });
    expect(result.success && result.data.params.countryCode).toBe('DE');
  });

  it('needs a country code unless the type is Country', () => {
    expect(parse({ targetType: 'City' }).success).toBe(false);
    expect(parse({ targetType: 'City', countryCode: '' }).success).toBe(false);
    expect(parse({ targetType: 'Country' }).success).toBe(true);
    expect(parse({ targetType: 'Country', countryCode: 'de' }).success).toBe(true);
  });

  it('refuses a code longer than two letters, an unknown type and a parent ID that is not a number', () => {
    expect(parse({ targetType: 'City', countryCode: 'DEU' }).success).toBe(false);
    expect(parse({ targetType: 'City', countryCode: 'D1' }).success).toBe(false);
    expect(parse({ targetType: 'Village', countryCode: 'DE' }).success).toBe(false);
    expect(parse({ targetType: 'City', countryCode: 'DE', parentId: '20226x' }).success).toBe(
      false,
    );
    expect(parse({ targetType: 'City', countryCode: 'DE', parentId: '20226' }).success).toBe(true);
    expect(parse({ targetType: 'City', countryCode: 'DE', parentId: 20226 }).success).toBe(true);
  });

  it('limits a search preview to 100 targets and defaults to 20', () => {
    const params = { targetType: 'Country' };
    const parsed = GeoSearchBodySchema.safeParse({ params });
    expect(parsed.success && parsed.data.limit).toBe(20);
    expect(GeoSearchBodySchema.safeParse({ params, limit: 101 }).success).toBe(false);
  });
});

describe('matchesGeoFilters (spec section 5: client-side filters)', () => {
  const berlin = { canonicalName: ['Berlin', 'Berlin', 'Germany'], parentId: 20226 };
  const orebro = { canonicalName: ['Örebro', 'Orebro County', 'Sweden'], parentId: null };

  it('matches the typed text in some entry, case-insensitively, non-ASCII capitals too', () => {
    expect(matchesGeoFilters(berlin, { canonicalName: 'BERL' })).toBe(true);
    expect(matchesGeoFilters(berlin, { canonicalName: 'germany' })).toBe(true);
    expect(matchesGeoFilters(berlin, { canonicalName: 'munich' })).toBe(false);
    expect(matchesGeoFilters(orebro, { canonicalName: 'örebro' })).toBe(true);
  });

  it('never matches text spanning two entries (it holds the comma between them)', () => {
    expect(matchesGeoFilters(berlin, { canonicalName: 'Berlin,Germany' })).toBe(false);
  });

  it('needs the parent ID to equal the entered number; blank filters match all', () => {
    expect(matchesGeoFilters(berlin, { parentId: '20226' })).toBe(true);
    expect(matchesGeoFilters(berlin, { parentId: 20226 })).toBe(true);
    expect(matchesGeoFilters(berlin, { parentId: '20227' })).toBe(false);
    expect(matchesGeoFilters(orebro, { parentId: '1' })).toBe(false);
    expect(matchesGeoFilters(orebro, { parentId: ' ', canonicalName: '' })).toBe(true);
  });
});
