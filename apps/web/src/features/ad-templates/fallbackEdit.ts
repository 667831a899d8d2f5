/**
 * Immutable edits of RSA and Performance Max templates and the count rules of spec sections 2
 * and 5: the most texts of each kind, the fewest shown, which entries may be deleted, and the
 * first fallback that can never be deleted.
 */
import {
  newPerformanceMaxFallback,
  newRsaFallback,
  PMAX_TEXT_COUNTS,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  type PerformanceMaxFallback,
  type PerformanceMaxTemplate,
  type PinnedText,
  type RsaFallback,
  type RsaTemplate,
} from '@adloom/engine';

/** A list of pinned texts of a fallback and its count rules. */
export interface TextListRule {
  /** Most entries. */
  max: number;
  /** Fewest entries shown: a stored list with fewer shows empty ones after its own. */
  minShown: number;
  /** Delete buttons show only for entries whose index is above this. */
  deletableAbove: number;
}

/**
 * RSA: up to 15 headlines (delete above index 2) and 4 descriptions (delete above index 1); at
 * least 3 and 2 shown.
 */
export const RSA_LIST_RULES = {
  headlines: { max: RSA_MAX_HEADLINES, minShown: RSA_MIN_HEADLINES, deletableAbove: 2 },
  descriptions: { max: RSA_MAX_DESCRIPTIONS, minShown: RSA_MIN_DESCRIPTIONS, deletableAbove: 1 },
} as const satisfies Record<string, TextListRule>;

/** A Performance Max list's most entries, and as many shown as it needs at the fewest. */
function pmaxCounts(list: keyof typeof PMAX_TEXT_COUNTS): { max: number; minShown: number } {
  const counts = PMAX_TEXT_COUNTS[list];
  return { max: counts.max, minShown: counts.min };
}

/**
 * Performance Max (Google's counts): up to 15 headlines, 5 long headlines and 5 descriptions;
 * delete above index 2, 1 and 0; at least 3, 1 and 2 shown.
 */
export const PMAX_LIST_RULES = {
  headlines: { ...pmaxCounts('headlines'), deletableAbove: 2 },
  longHeadlines: { ...pmaxCounts('longHeadlines'), deletableAbove: 0 },
  descriptions: { ...pmaxCounts('descriptions'), deletableAbove: 1 },
} as const satisfies Record<string, TextListRule>;

/** Labels: any number; every label but the first may be deleted. */
export const LABEL_RULE: TextListRule = {
  max: Number.POSITIVE_INFINITY,
  minShown: 0,
  deletableAbove: 0,
};

/**
 * The entries an editor shows: the stored ones, then empty ones up to the rule's fewest (a
 * template saved with fewer, e.g. by the old app, shows 3 headlines and 2 descriptions). Only
 * shown: the stored list changes when the person edits it, and is then written as shown.
 */
export function padPinned(list: readonly PinnedText[], rule: TextListRule): PinnedText[] {
  const shown = [...list];
  while (shown.length < rule.minShown) shown.push({ text: '', pos: 0 });
  return shown;
}

/** Whether entry `index` shows a delete button. */
export function canDeleteEntry(rule: TextListRule, index: number): boolean {
  return index > rule.deletableAbove;
}

/** Whether another entry may be added. */
export function canAddEntry(rule: TextListRule, count: number): boolean {
  return count < rule.max;
}

/** The list with entry `index` replaced. */
export function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  return list.map((x, i) => (i === index ? value : x));
}

/** The list with entry `index` removed, if the rule allows it. */
export function removeAt<T>(list: readonly T[], index: number, rule: TextListRule): T[] {
  if (!canDeleteEntry(rule, index) || index >= list.length) return [...list];
  return list.filter((_, i) => i !== index);
}

/** The list with an empty entry added at the end, if the rule allows it. */
export function addPinned(list: readonly PinnedText[], rule: TextListRule): PinnedText[] {
  return canAddEntry(rule, list.length) ? [...list, { text: '', pos: 0 }] : [...list];
}

/** A template's fallbacks, whichever kind. */
type WithFallbacks<F> = { templates: F[] };

/** The template with fallback `index` replaced. */
export function setFallback<F, T extends WithFallbacks<F>>(template: T, index: number, next: F): T {
  return { ...template, templates: replaceAt(template.templates, index, next) };
}

/** Whether fallback `index` may be deleted (never the first). */
export function canDeleteFallback(index: number, count: number): boolean {
  return index > 0 && index < count;
}

/** The template without fallback `index` (the first is never deleted). */
export function deleteFallback<F, T extends WithFallbacks<F>>(template: T, index: number): T {
  if (!canDeleteFallback(index, template.templates.length)) return template;
  return { ...template, templates: template.templates.filter((_, i) => i !== index) };
}

/** The RSA template with a new default fallback (4 headlines, 2 descriptions, 2 paths, 1 label). */
export function addRsaFallback(template: RsaTemplate): RsaTemplate {
  return { ...template, templates: [...template.templates, newRsaFallback()] };
}

/** The Performance Max template with a new default fallback. */
export function addPerformanceMaxFallback(
  template: PerformanceMaxTemplate,
): PerformanceMaxTemplate {
  return { ...template, templates: [...template.templates, newPerformanceMaxFallback()] };
}

/** An RSA fallback with its two paths always present. */
export function rsaPaths(f: RsaFallback | PerformanceMaxFallback): [string, string] {
  return [f.paths[0] ?? '', f.paths[1] ?? ''];
}

/**
 * The list with `text` in its first empty entry, or appended when none is empty and the rule
 * allows one more; null when the list is full.
 */
export function putInNextFree(
  list: readonly PinnedText[],
  rule: TextListRule,
  text: string,
): PinnedText[] | null {
  const shown = padPinned(list, rule);
  const free = shown.findIndex((entry) => entry.text.trim() === '');
  if (free >= 0) return replaceAt(shown, free, { ...(shown[free] as PinnedText), text });
  return canAddEntry(rule, shown.length) ? [...shown, { text, pos: 0 }] : null;
}
