import { describe, expect, it } from 'vitest';
import { newAdFallback, restoreRsaTemplate } from '../restore.ts';
import type { AdFallback, AdTemplate } from '../types.ts';
import { convertLegacyAdFallback, convertLegacyAdTemplate } from './legacyToRsa.ts';
import { generateResponsiveSearchAds } from './rsa.ts';

function fallback(over: Partial<AdFallback>): AdFallback {
  return { ...newAdFallback(), adType: 'Expanded text ad', ...over };
}

const FULL = fallback({
  h1: '{root} Shoes',
  h2: 'Free Delivery',
  h3: '{KeyWord:Best Shoes}',
  dl1: 'Buy {root} {mod} online today.',
  dl2: 'Returns within 30 days.',
  p1: '{root}',
  p2: 'sale',
  label: 'yyyymmdd-v1',
});

describe('convertLegacyAdFallback', () => {
  it('maps h1-h3 to headlines, dl1-dl2 to descriptions, p1/p2 to paths and label to labels', () => {
    expect(convertLegacyAdFallback(FULL)).toEqual({
      headlines: [
        { text: '{root} Shoes', pos: 0 },
        { text: 'Free Delivery', pos: 0 },
        { text: '{KeyWord:Best Shoes}', pos: 0 },
      ],
      descriptions: [
        { text: 'Buy {root} {mod} online today.', pos: 0 },
        { text: 'Returns within 30 days.', pos: 0 },
      ],
      paths: ['{root}', 'sale'],
      labels: ['yyyymmdd-v1'],
    });
  });

  it.each([
    ['', ['']],
    ['brand', ['brand']],
    ['brand; summer ;', ['brand', 'summer']],
  ])('turns the label %j into the labels %j', (label, labels) => {
    expect(convertLegacyAdFallback(fallback({ label })).labels).toEqual(labels);
  });

  it('keeps empty headlines and descriptions as inputs, so 3 and 2 show', () => {
    const rsa = convertLegacyAdFallback(fallback({ h1: 'A', h2: 'B' }));
    expect(rsa.headlines.map((h) => h.text)).toEqual(['A', 'B', '']);
    expect(rsa.descriptions.map((d) => d.text)).toEqual(['', '']);
  });
});

describe('convertLegacyAdTemplate', () => {
  it('makes one RSA template of the same name and lists nothing to fill in for a full ad', () => {
    const legacy: AdTemplate = { _id: 'old-id', name: 'Shoes ETA', templates: [[FULL]] };
    const { templates, notes } = convertLegacyAdTemplate(legacy, ['Other']);
    expect(templates).toHaveLength(1);
    expect(templates[0]!.name).toBe('Shoes ETA');
    expect(templates[0]).not.toHaveProperty('_id');
    expect(templates[0]!.templates).toEqual([convertLegacyAdFallback(FULL)]);
    expect(notes).toEqual([]);
    // The legacy template is not changed.
    expect(legacy).toEqual({ _id: 'old-id', name: 'Shoes ETA', templates: [[FULL]] });
  });

  it('keeps the fallbacks in order and makes the name unique with (n)', () => {
    const second = fallback({ h1: 'Short', h2: 'Two', h3: 'Three', dl1: 'D', dl2: 'E' });
    const { templates } = convertLegacyAdTemplate({ name: 'Shoes', templates: [[FULL, second]] }, [
      'Shoes',
      'Shoes (1)',
    ]);
    expect(templates[0]!.name).toBe('Shoes (2)');
    expect(templates[0]!.templates.map((f) => f.headlines[0]!.text)).toEqual([
      '{root} Shoes',
      'Short',
    ]);
  });

  it('turns each version into its own template', () => {
    const { templates } = convertLegacyAdTemplate(
      { name: 'Multi', templates: [[FULL], [fallback({ h1: 'V2' })]] },
      ['Multi v2'],
    );
    expect(templates.map((t) => t.name)).toEqual(['Multi v1', 'Multi v2 (1)']);
    expect(templates[1]!.templates[0]!.headlines[0]!.text).toBe('V2');
  });

  it('names the headlines and descriptions still to be filled in', () => {
    const { notes } = convertLegacyAdTemplate(
      { name: 'Gaps', templates: [[fallback({ h1: 'A', h2: 'B', dl1: 'C' })]] },
      [],
    );
    expect(notes).toEqual([
      'Gaps, fallback 1: Headline 3 is empty; a responsive search ad needs at least 3 headlines.',
      'Gaps, fallback 1: Description 2 is empty; a responsive search ad needs at least 2 descriptions.',
    ]);
  });

  it('gives a version without fallbacks the default RSA fallback', () => {
    const { templates } = convertLegacyAdTemplate({ name: 'Empty', templates: [[]] }, []);
    expect(templates[0]!.templates[0]!.headlines).toHaveLength(4);
  });

  it('makes a template that restores unchanged and the engine generates from', () => {
    const { templates } = convertLegacyAdTemplate({ name: 'Shoes', templates: [[FULL]] }, []);
    expect(restoreRsaTemplate(templates[0])).toEqual(templates[0]);
    const row = {
      id: 'r1',
      root: 'Nike',
      mod: 'running',
      var1: '',
      var2: '',
      var3: '',
      url: 'https://shop.test/nike',
    };
    const result = generateResponsiveSearchAds({
      template: templates[0]!,
      rows: [row],
      adGroups: [{ campaign: 'Nike', adGroup: 'Nike running', id: 'r1' }],
      today: '20261123',
    });
    expect(result.ads).toHaveLength(1);
    expect(result.ads[0]!.headlines).toEqual([
      'Nike Shoes',
      'Free Delivery',
      '{KeyWord:Best Shoes}',
    ]);
    expect(result.ads[0]!.paths).toEqual(['Nike', 'sale']);
    expect(result.ads[0]!.labels).toEqual(['20261123-v1']);
  });
});
