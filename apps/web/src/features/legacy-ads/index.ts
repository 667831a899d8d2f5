// Legacy expanded text ad templates: kept as they are, listed, converted to RSA templates.
export { LegacyAdsPanel, LEGACY_ADS_TEXTS, summarizeLegacyAd } from './LegacyAdsPanel.tsx';
export {
  convertLegacyAdTemplate,
  convertLegacyAdFallback,
  type ConvertedLegacyAd,
} from './convertLegacyAd.ts';
