// The Responsive Search Ads and Performance Max Ads tabs of the campaign builder.
export { RsaTab, PerformanceTab } from './AdTabs.tsx';
export { openFallback } from './openFallback.ts';
export { PMAX_LIST_RULES, RSA_LIST_RULES, putInNextFree, setFallback } from './fallbackEdit.ts';
