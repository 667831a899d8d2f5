/** Callout, sitelink and structured snippet extensions from extension templates. */
import type { RowIssue } from './issues.ts';
import {
  SNIPPET_HEADERS,
  SNIPPET_MAX_VALUES,
  SNIPPET_MIN_VALUES,
  SNIPPET_VALUE_MAX_CHARS,
  type SnippetHeader,
} from './limits.ts';
import {
  compilePattern,
  countAdTextLength,
  fillPattern,
  NO_ROW_VALUES,
  type CompiledPattern,
  type PlaceholderValues,
} from './text.ts';
import type { ExtensionTemplate, ExtensionTypeName, ExtensionValues, FeedRow } from './types.ts';

/** One generated extension: its type and field values (by field title). */
export interface GeneratedExtension {
  type: ExtensionTypeName;
  values: ExtensionValues;
  rowId: string;
}

const HEADER_BY_LOWER = new Map<string, SnippetHeader>(
  SNIPPET_HEADERS.map((h) => [h.toLowerCase(), h]),
);

/** A snippet header in any case; undefined when not in the fixed list. */
export function findSnippetHeader(x: string): SnippetHeader | undefined {
  return HEADER_BY_LOWER.get(x.trim().toLowerCase());
}

/** Splits snippet values: separated by ';' or new lines, trimmed, empties dropped. */
export function splitSnippetValues(text: string): string[] {
  return text
    .split(/[;\n\r]+/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** Why an extension's values are not valid, or undefined when they are. */
export function findExtensionProblem(
  template: ExtensionTemplate,
  values: ExtensionValues,
): string | undefined {
  const type = template.extensionType;
  for (const f of type.fields) {
    if (f.isStatic) continue;
    const v = values[f.title] ?? '';
    if (type.name === 'Structured Snippet' && f.title === 'Snippet Values') {
      const list = splitSnippetValues(v);
      if (list.length < SNIPPET_MIN_VALUES || list.length > SNIPPET_MAX_VALUES) {
        return `Snippet Values needs ${SNIPPET_MIN_VALUES} to ${SNIPPET_MAX_VALUES} values, has ${list.length}`;
      }
      const long = list.find((s) => countAdTextLength(s) > SNIPPET_VALUE_MAX_CHARS);
      if (long !== undefined)
        return `Snippet value "${long}" is longer than ${SNIPPET_VALUE_MAX_CHARS} characters`;
      continue;
    }
    const n = countAdTextLength(v);
    if (n === 0) return `${f.title} is empty`;
    if (f.maxLength > 0 && n > f.maxLength)
      return `${f.title} has ${n} characters (max ${f.maxLength}): "${v}"`;
  }
  // Google needs a sitelink's final URL even though the field is static (filled from the row).
  if (type.name === 'Sitelink' && (values['Final URL'] ?? '').trim() === '')
    return 'Final URL is empty';
  if (type.name === 'Structured Snippet' && findSnippetHeader(values.Header ?? '') === undefined) {
    return `Header "${values.Header ?? ''}" is not one of ${SNIPPET_HEADERS.join(', ')}`;
  }
  return undefined;
}

/** The fields of one extension fallback, compiled. */
export type CompiledExtensionFields = ReadonlyArray<{ title: string; pattern: CompiledPattern }>;

/** Compiles the fallbacks of an extension template. */
export function compileExtensionTemplate(template: ExtensionTemplate): CompiledExtensionFields[] {
  const fields = template.extensionType.fields;
  return template.templates.map((t) =>
    fields.map((f) => ({ title: f.title, pattern: compilePattern(t[f.title] ?? '') })),
  );
}

/**
 * The values of one fallback for one row: placeholders substituted, a sitelink's empty Final URL
 * taken from the row, the snippet header spelled as in the fixed list, values joined with '; '.
 */
export function fillExtensionValues(
  type: ExtensionTypeName,
  fields: CompiledExtensionFields,
  values: PlaceholderValues,
): ExtensionValues {
  const v: ExtensionValues = {};
  for (const f of fields) v[f.title] = fillPattern(f.pattern, values);
  if (type === 'Sitelink' && (v['Final URL'] ?? '') === '') v['Final URL'] = values.row.url.trim();
  if (type === 'Structured Snippet') {
    v.Header = findSnippetHeader(v.Header ?? '') ?? v.Header ?? '';
    v['Snippet Values'] = splitSnippetValues(v['Snippet Values'] ?? '').join('; ');
  }
  return v;
}

/** Input of `generateExtensions`. */
export interface GenerateExtensionsInput {
  template: ExtensionTemplate;
  rows: readonly FeedRow[];
}

/**
 * Per row, the first fallback whose fields are valid (length above 0 and within maxLength, or the
 * field is static), placeholders substituted. A sitelink's empty Final URL takes the row's URL;
 * snippet headers are spelled as in the fixed list and values joined with '; '. Identical
 * extensions are emitted once.
 */
export function generateExtensions(input: GenerateExtensionsInput): {
  extensions: GeneratedExtension[];
  issues: RowIssue[];
} {
  const { template, rows } = input;
  const type = template.extensionType;
  const compiled = template.templates.map((t) =>
    type.fields.map((f) => ({ title: f.title, pattern: compilePattern(t[f.title] ?? '') })),
  );
  const extensions: GeneratedExtension[] = [];
  const issues: RowIssue[] = [];
  const seen = new Set<string>();
  const values: PlaceholderValues = { row: NO_ROW_VALUES };
  const output = `${type.name.toLowerCase()} extensions`;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as FeedRow;
    values.row = row;
    let problem: string | undefined;
    let chosen: ExtensionValues | undefined;
    for (const fields of compiled) {
      const v = fillExtensionValues(type.name, fields, values);
      const p = findExtensionProblem(template, v);
      if (p === undefined) {
        chosen = v;
        break;
      }
      problem ??= p;
    }
    if (!chosen) {
      issues.push({
        kind: 'skipped',
        output,
        rowId: row.id,
        rowNumber: r + 1,
        code: 'no-valid-fallback',
        message: problem ?? 'The template has no values',
      });
      continue;
    }
    const key = type.fields.map((f) => chosen[f.title] ?? '').join('\u001f');
    if (seen.has(key)) continue;
    seen.add(key);
    extensions.push({ type: type.name, values: chosen, rowId: row.id });
  }
  return { extensions, issues };
}
