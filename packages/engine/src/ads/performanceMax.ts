/** Performance Max ads: per asset group the first fallback valid for its row (spec section 5). */
import type { RowIssue } from '../issues.ts';
import {
  AD_TEXT_MIN_CHARS,
  PMAX_BUSINESS_NAME_MAX_CHARS,
  PMAX_DESCRIPTION_MAX_CHARS,
  PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  PMAX_HEADLINE_MAX_CHARS,
  PMAX_LONG_HEADLINE_MAX_CHARS,
  PMAX_PATH_MAX_CHARS,
  PMAX_TEXT_COUNTS,
} from '../limits.ts';
import {
  compilePattern,
  RowValues,
  type CompiledPattern,
  type PlaceholderValues,
  type ValueFacts,
} from '../text.ts';
import type { CallToAction, PerformanceMaxFallback, PerformanceMaxTemplate } from '../types.ts';
import {
  countFailure,
  describeFailure,
  factsFor,
  fillTexts,
  findTemplateTextIssues,
  replaceLabelDate,
  reportFinalUrl,
  rowMap,
  missingRowIssue,
  skippedIssue,
  type GenerateAdsInputBase,
  type GenerateAdsResult,
  type TextFailure,
} from './shared.ts';

const PMAX_RULES = {
  headline: { field: 'Headline', min: AD_TEXT_MIN_CHARS, max: PMAX_HEADLINE_MAX_CHARS },
  longHeadline: {
    field: 'Long headline',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_LONG_HEADLINE_MAX_CHARS,
  },
  description: {
    field: 'Description',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_DESCRIPTION_MAX_CHARS,
    firstMax: PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  },
  path: { field: 'Path', min: 0, max: PMAX_PATH_MAX_CHARS },
  businessName: {
    field: 'Business name',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_BUSINESS_NAME_MAX_CHARS,
  },
} as const;

/** One generated Performance Max ad (asset group assets). */
export interface PerformanceMaxAd {
  campaign: string;
  assetGroup: string;
  rowId: string;
  fallbackIndex: number;
  headlines: string[];
  longHeadlines: string[];
  descriptions: string[];
  paths: [string, string];
  labels: string[];
  businessName: string;
  callToAction: CallToAction;
  finalUrl: string;
}

/** A compiled Performance Max fallback. */
export interface CompiledPerformanceMaxFallback {
  headlines: CompiledPattern[];
  longHeadlines: CompiledPattern[];
  descriptions: CompiledPattern[];
  paths: CompiledPattern[];
  businessName: CompiledPattern;
  labels: string[];
  callToAction: CallToAction;
  /** Too few or too many headlines, long headlines or descriptions: fails every row. */
  countFailure: TextFailure | undefined;
  /** Reused by each fill of this fallback to check texts before they are copied out. */
  scratch: string[];
}

/** Compiles the fallbacks of a Performance Max template. */
export function compilePerformanceMaxTemplate(
  t: PerformanceMaxTemplate,
): CompiledPerformanceMaxFallback[] {
  return t.templates.map((f: PerformanceMaxFallback) => ({
    headlines: f.headlines.map((h) => compilePattern(h.text)),
    longHeadlines: f.longHeadlines.map((h) => compilePattern(h.text)),
    descriptions: f.descriptions.map((h) => compilePattern(h.text)),
    paths: [compilePattern(f.paths[0] ?? ''), compilePattern(f.paths[1] ?? '')],
    businessName: compilePattern(f.businessName),
    labels: f.labels.filter((l) => l.trim() !== ''),
    callToAction: f.callToAction === 'None' ? '' : f.callToAction,
    countFailure:
      countListFailure('Headline', f.headlines, PMAX_TEXT_COUNTS.headlines) ??
      countListFailure('Long headline', f.longHeadlines, PMAX_TEXT_COUNTS.longHeadlines) ??
      countListFailure('Description', f.descriptions, PMAX_TEXT_COUNTS.descriptions),
    scratch: [],
  }));
}

/** Filled Performance Max texts for one row, or the first failure. */
export type FilledPerformanceMax =
  | {
      ok: true;
      headlines: string[];
      longHeadlines: string[];
      descriptions: string[];
      paths: [string, string];
      businessName: string;
    }
  | { ok: false; failure: TextFailure };

/**
 * Fills and checks one Performance Max fallback: 3..5 headlines of 1..30, 1..5 long headlines of
 * 1..90, 2..5 descriptions of 1..90 with the first at most 60, paths up to 15, business name
 * 1..25.
 */
export function fillPerformanceMaxFallback(
  f: CompiledPerformanceMaxFallback,
  values: PlaceholderValues,
  rowFacts?: ValueFacts,
): FilledPerformanceMax {
  if (f.countFailure) return { ok: false, failure: f.countFailure };
  const facts = factsFor(values, rowFacts);
  const h = fillTexts(f.headlines, values, PMAX_RULES.headline, facts, f.scratch);
  if (h.failure) return { ok: false, failure: h.failure };
  const lh = fillTexts(f.longHeadlines, values, PMAX_RULES.longHeadline, facts, f.scratch);
  if (lh.failure) return { ok: false, failure: lh.failure };
  const d = fillTexts(f.descriptions, values, PMAX_RULES.description, facts, f.scratch);
  if (d.failure) return { ok: false, failure: d.failure };
  const p = fillTexts(f.paths, values, PMAX_RULES.path, facts, f.scratch);
  if (p.failure) return { ok: false, failure: p.failure };
  const b = fillTexts([f.businessName], values, PMAX_RULES.businessName, facts, f.scratch);
  if (b.failure) return { ok: false, failure: b.failure };
  return {
    ok: true,
    headlines: h.texts,
    longHeadlines: lh.texts,
    descriptions: d.texts,
    paths: [p.texts[0] ?? '', p.texts[1] ?? ''],
    businessName: b.texts[0] ?? '',
  };
}

/** Input of `generatePerformanceMaxAds`. */
export interface GeneratePerformanceMaxAdsInput extends GenerateAdsInputBase<PerformanceMaxTemplate> {
  /** Asset groups (their id is the feed row id), read in order. */
  assetGroups: ReadonlyArray<{ campaign: string; assetGroup: string; id: string }>;
}

const OUTPUT_PMAX = 'performance max ads';

/**
 * One Performance Max ad per asset group from the first fallback valid for its row; a missing or
 * unusable final URL is a warning; keyword insertions without default text are reported once per
 * template text.
 */
export function generatePerformanceMaxAds(
  input: GeneratePerformanceMaxAdsInput,
): GenerateAdsResult<PerformanceMaxAd> {
  const fallbacks = compilePerformanceMaxTemplate(input.template);
  const byId = rowMap(input.rows);
  const current = new RowValues();
  const { values, facts: rowFacts } = current;
  const ads: PerformanceMaxAd[] = [];
  const issues: RowIssue[] = findTemplateTextIssues(
    OUTPUT_PMAX,
    input.template.templates.map((f, i) => ({
      label: `Fallback ${i + 1}`,
      texts: [
        ['Headline', f.headlines.map((h) => h.text)],
        ['Long headline', f.longHeadlines.map((h) => h.text)],
        ['Description', f.descriptions.map((d) => d.text)],
      ],
    })),
  );
  for (const g of input.assetGroups) {
    const found = byId.get(g.id);
    if (!found) {
      issues.push(missingRowIssue(OUTPUT_PMAX, g.id, `asset group "${g.assetGroup}"`));
      continue;
    }
    const { row, rowNumber } = found;
    current.setRow(row);
    let firstFailure: TextFailure | undefined;
    let done = false;
    for (let i = 0; i < fallbacks.length && !done; i++) {
      const f = fallbacks[i] as CompiledPerformanceMaxFallback;
      const filled = fillPerformanceMaxFallback(f, values, rowFacts);
      if (!filled.ok) {
        firstFailure ??= filled.failure;
        continue;
      }
      done = true;
      ads.push({
        campaign: g.campaign,
        assetGroup: g.assetGroup,
        rowId: row.id,
        fallbackIndex: i,
        headlines: filled.headlines,
        longHeadlines: filled.longHeadlines,
        descriptions: filled.descriptions,
        paths: filled.paths,
        labels: f.labels.map((l) => replaceLabelDate(l, input.today)),
        businessName: filled.businessName,
        callToAction: f.callToAction,
        finalUrl: row.url.trim(),
      });
    }
    if (done) reportFinalUrl(issues, OUTPUT_PMAX, row, rowNumber, `Asset group "${g.assetGroup}"`);
    if (!done) {
      const reason = firstFailure
        ? `no valid fallback (${describeFailure(firstFailure)})`
        : 'The template has no fallback';
      issues.push(
        skippedIssue(
          OUTPUT_PMAX,
          row.id,
          rowNumber,
          'no-valid-fallback',
          `Asset group "${g.assetGroup}": ${reason}`,
        ),
      );
    }
  }
  return { ads, issues };
}

/** `countFailure` of one list against its fewest and most. */
function countListFailure(
  what: string,
  list: readonly unknown[],
  counts: { min: number; max: number },
): TextFailure | undefined {
  return countFailure(what, list.length, counts.min, counts.max);
}
