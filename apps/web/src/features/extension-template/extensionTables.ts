import {
  type ExportTableKind,
  EXTENSION_TYPE_DEFINITIONS,
  calloutsTable,
  sitelinksTable,
  structuredSnippetsTable,
  type BuildStatus,
  type ExtensionTypeName,
  type GeneratedExtension,
  type Table,
} from '@adloom/engine';

/**
 * What Copy puts on the clipboard: the place (Campaign, Ad Group) and every field of the type in
 * the editor's order, so a structured snippet copies as Header, Snippet Values, Upgraded extension
 * (spec section 2) and callouts and sitelinks carry their Upgraded extension too.
 */
export function extensionCopyTable(
  type: ExtensionTypeName,
  extensions: readonly GeneratedExtension[],
): Table {
  const titles = EXTENSION_TYPE_DEFINITIONS[type].fields.map((f) => f.title);
  return {
    headers: ['Campaign', 'Ad Group', ...titles],
    rows: {
      *[Symbol.iterator]() {
        for (const e of extensions)
          yield [e.campaign, e.adGroup, ...titles.map((t) => e.values[t] ?? '')];
      },
    },
  };
}

/**
 * The Google Ads Editor table of a type (its headers even when nothing was generated), with its
 * Status column when some row of the run is paused (`status`).
 */
export function extensionEditorTable(
  type: ExtensionTypeName,
  extensions: readonly GeneratedExtension[],
  status?: BuildStatus,
): Table {
  if (type === 'Sitelink') return sitelinksTable(extensions, status);
  if (type === 'Structured Snippet') return structuredSnippetsTable(extensions, status);
  return calloutsTable(extensions, status);
}

/** The table kind each extension type exports (the format names its file). */
export const EXTENSION_TABLE_KINDS = {
  Callout: 'callouts',
  Sitelink: 'sitelinks',
  'Structured Snippet': 'structured-snippets',
} as const satisfies Record<ExtensionTypeName, ExportTableKind>;
