// The Extensions tab: callout, sitelink and structured snippet templates and their generation.
export { ExtensionsTab } from './ExtensionsTab.tsx';
