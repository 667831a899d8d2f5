// Legacy expanded text ad templates: kept as they are, listed, converted to RSA templates.
export { LegacyAdsPanel } from './LegacyAdsPanel.tsx';
