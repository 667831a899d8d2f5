// The Extensions tab: callout, sitelink and structured snippet templates and their generation.
export { ExtensionsTab, EXTENSIONS_TAB_TEXTS } from './ExtensionsTab.tsx';
export { ExtensionEditor, type ExtensionEditorProps } from './ExtensionEditor.tsx';
export { generateExtensionsJob, type GeneratedExtensionsOutput } from './extensionJobs.ts';
