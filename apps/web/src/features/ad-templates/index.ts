// The Responsive Search Ads and Performance Max Ads tabs of the campaign builder.
export { RsaTab, PerformanceTab } from './AdTabs.tsx';
