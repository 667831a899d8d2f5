import { describe, expect, it } from 'vitest';
import { convertLegacyAdTemplate, newAdFallback, restoreAdTemplate } from '@adloom/engine';
import { SaveRsaTemplatesBodySchema } from '@adloom/contract';
import { LEGACY_ADS_TEXTS, summarizeLegacyAd } from './LegacyAdsPanel.tsx';

describe('summarizeLegacyAd', () => {
  it('shows the first fallback: its headlines joined by | and the first description', () => {
    const first = { ...newAdFallback(), h1: '{root} Shoes', h2: 'Free Delivery', dl1: 'Buy now.' };
    expect(summarizeLegacyAd({ name: 'A', templates: [[first, newAdFallback()]] })).toBe(
      '{root} Shoes | Free Delivery — Buy now.',
    );
  });

  it('says Empty for a template without text', () => {
    expect(summarizeLegacyAd({ name: 'A', templates: [[newAdFallback()]] })).toBe('Empty');
    expect(summarizeLegacyAd({ name: 'A', templates: [] })).toBe('Empty');
  });
});

describe('LEGACY_ADS_TEXTS.converted', () => {
  it('names the new template or templates', () => {
    expect(LEGACY_ADS_TEXTS.converted('Old', ['Old'])).toBe(
      '"Old" converted to the RSA template "Old"',
    );
    expect(LEGACY_ADS_TEXTS.converted('Old', ['Old v1', 'Old v2'])).toBe(
      '"Old" converted to the RSA templates "Old v1", "Old v2"',
    );
  });
});

describe('Convert to RSA template', () => {
  it('makes RSA templates the RSA save accepts unchanged', () => {
    const legacy = restoreAdTemplate({
      name: 'Shoes',
      templates: [[{ h1: '{root} Shoes', h2: 'Free Delivery', dl1: 'Buy now.', label: 'a;b' }]],
    });
    const { templates } = convertLegacyAdTemplate(legacy, []);
    const parsed = SaveRsaTemplatesBodySchema.parse({ name: 'Client', templates });
    expect(parsed.templates).toEqual(templates);
    expect(parsed.templates[0]!.templates[0]!.labels).toEqual(['a', 'b']);
  });
});
