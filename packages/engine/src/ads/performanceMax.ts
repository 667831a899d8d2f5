/** Performance Max ads: per asset group the first fallback valid for its row (spec section 5). */
import { FEED_COLUMNS } from '../feedColumns.ts';
import type { RowIssue } from '../issues.ts';
import {
  AD_TEXT_MIN_CHARS,
  PMAX_BUSINESS_NAME_MAX_CHARS,
  PMAX_DESCRIPTION_MAX_CHARS,
  PMAX_HEADLINE_MAX_CHARS,
  PMAX_LONG_HEADLINE_MAX_CHARS,
  PMAX_PATH_MAX_CHARS,
  PMAX_SHORT_DESCRIPTION_MAX_CHARS,
  PMAX_SHORT_HEADLINE_MAX_CHARS,
  PMAX_TEXT_COUNTS,
} from '../limits.ts';
import { RowValues, type PlaceholderValues, type ValueFacts } from '../text.ts';
import type {
  CallToAction,
  FeedRow,
  PerformanceMaxFallback,
  PerformanceMaxTemplate,
} from '../types.ts';
import {
  compileTexts,
  countFailure,
  factsFor,
  fillTexts,
  findRowUrlFailure,
  describeFailure,
  labelIssues,
  missingRowIssue,
  PATH_ORDER_FAILURE,
  replaceLabelDate,
  rowFinder,
  ruleFailure,
  noAdIssue,
  splitLabels,
  type CompiledTexts,
  type GenerateAdsInputBase,
  type GenerateAdsResult,
  type TextFailure,
} from './shared.ts';

const PMAX_RULES = {
  headline: {
    field: 'Headline',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_HEADLINE_MAX_CHARS,
    isHeadline: true,
    isDistinct: true,
    isEditorial: true,
  },
  longHeadline: {
    field: 'Long headline',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_LONG_HEADLINE_MAX_CHARS,
    isHeadline: true,
    isDistinct: true,
    isEditorial: true,
  },
  description: {
    field: 'Description',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_DESCRIPTION_MAX_CHARS,
    isDistinct: true,
    isEditorial: true,
  },
  path: { field: 'Path', min: 0, max: PMAX_PATH_MAX_CHARS, isEditorial: true },
  businessName: {
    field: 'Business name',
    min: AD_TEXT_MIN_CHARS,
    max: PMAX_BUSINESS_NAME_MAX_CHARS,
    isEditorial: true,
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
  headlines: CompiledTexts;
  longHeadlines: CompiledTexts;
  descriptions: CompiledTexts;
  paths: CompiledTexts;
  businessName: CompiledTexts;
  /** Labels written (those with ';' are refused, see `splitLabels`). */
  labels: string[];
  refusedLabels: string[];
  callToAction: CallToAction;
  /** Too few or too many headlines, long headlines or descriptions: fails every row. */
  countFailure: TextFailure | undefined;
  /** A text with a keyword insertion (`{KeyWord:…}`): fails every row (no keywords to insert). */
  keywordFailure: TextFailure | undefined;
  /** Reused by each fill of this fallback to check texts before they are copied out. */
  scratch: string[];
}

/** Compiles the fallbacks of a Performance Max template. */
export function compilePerformanceMaxTemplate(
  t: PerformanceMaxTemplate,
): CompiledPerformanceMaxFallback[] {
  return t.templates.map((f: PerformanceMaxFallback) => {
    const labels = splitLabels(f.labels);
    return {
      headlines: compileTexts(f.headlines),
      longHeadlines: compileTexts(f.longHeadlines),
      descriptions: compileTexts(f.descriptions),
      paths: compileTexts([f.paths[0] ?? '', f.paths[1] ?? '']),
      businessName: compileTexts([f.businessName]),
      labels: labels.kept,
      refusedLabels: labels.refused,
      callToAction: f.callToAction === 'None' ? '' : f.callToAction,
      countFailure:
        countListFailure('Headline', f.headlines, PMAX_TEXT_COUNTS.headlines) ??
        countListFailure('Long headline', f.longHeadlines, PMAX_TEXT_COUNTS.longHeadlines) ??
        countListFailure('Description', f.descriptions, PMAX_TEXT_COUNTS.descriptions),
      keywordFailure: findKeywordInsertion([
        ['Headline', f.headlines.map((h) => h.text)],
        ['Long headline', f.longHeadlines.map((h) => h.text)],
        ['Description', f.descriptions.map((d) => d.text)],
        ['Path', f.paths],
        ['Business name', [f.businessName]],
      ]),
      scratch: [],
    };
  });
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
 * Fills and checks one Performance Max fallback with Google's rules: an http(s) final URL;
 * 3..15 headlines of 1..30 (one of 15 or fewer), 1..5 long headlines of 1..90, 2..5 descriptions
 * of 1..90 (one of 60 or fewer), none repeating another of its list (ignoring case); every
 * placeholder with a value and every text within the editorial rules; paths up to 15, path 2
 * only with path 1; a business name of 1..25.
 */
export function fillPerformanceMaxFallback(
  f: CompiledPerformanceMaxFallback,
  values: PlaceholderValues,
  rowFacts?: ValueFacts,
): FilledPerformanceMax {
  const facts = factsFor(values, rowFacts);
  const url = findRowUrlFailure(values, facts);
  if (url) return { ok: false, failure: url };
  if (f.countFailure) return { ok: false, failure: f.countFailure };
  if (f.keywordFailure) return { ok: false, failure: f.keywordFailure };
  const h = fillTexts(f.headlines, values, PMAX_RULES.headline, facts, f.scratch);
  if (h.failure) return { ok: false, failure: h.failure };
  if (h.shortest > PMAX_SHORT_HEADLINE_MAX_CHARS) return { ok: false, failure: NO_SHORT_HEADLINE };
  const lh = fillTexts(f.longHeadlines, values, PMAX_RULES.longHeadline, facts, f.scratch);
  if (lh.failure) return { ok: false, failure: lh.failure };
  const d = fillTexts(f.descriptions, values, PMAX_RULES.description, facts, f.scratch);
  if (d.failure) return { ok: false, failure: d.failure };
  if (d.shortest > PMAX_SHORT_DESCRIPTION_MAX_CHARS)
    return { ok: false, failure: NO_SHORT_DESCRIPTION };
  const p = fillTexts(f.paths, values, PMAX_RULES.path, facts, f.scratch);
  if (p.failure) return { ok: false, failure: p.failure };
  const paths: [string, string] = [p.texts[0] ?? '', p.texts[1] ?? ''];
  if (paths[0] === '' && paths[1] !== '') return { ok: false, failure: PATH_ORDER_FAILURE };
  const b = fillTexts(f.businessName, values, PMAX_RULES.businessName, facts, f.scratch);
  if (b.failure) return { ok: false, failure: b.failure };
  // A feed value can bring an insertion too (only a value with a brace can).
  if (hasBrace(values)) {
    const filled = findKeywordInsertion([
      ['Headline', h.texts],
      ['Long headline', lh.texts],
      ['Description', d.texts],
      ['Path', paths],
      ['Business name', b.texts],
    ]);
    if (filled) return { ok: false, failure: filled };
  }
  return {
    ok: true,
    headlines: h.texts,
    longHeadlines: lh.texts,
    descriptions: d.texts,
    paths,
    businessName: b.texts[0] ?? '',
  };
}

const NO_SHORT_HEADLINE = ruleFailure(
  'Headlines',
  -1,
  '',
  'no-short-headline',
  `include none of ${PMAX_SHORT_HEADLINE_MAX_CHARS} characters or fewer after substitution (Google needs one)`,
);

const NO_SHORT_DESCRIPTION = ruleFailure(
  'Descriptions',
  -1,
  '',
  'no-short-description',
  `include none of ${PMAX_SHORT_DESCRIPTION_MAX_CHARS} characters or fewer after substitution (Google needs one)`,
);

/** Input of `generatePerformanceMaxAds`. */
export interface GeneratePerformanceMaxAdsInput extends GenerateAdsInputBase<PerformanceMaxTemplate> {
  /** Asset groups (their id is the feed row id), read in order. */
  assetGroups: ReadonlyArray<{ campaign: string; assetGroup: string; id: string }>;
}

const OUTPUT_PMAX = 'performance max ads';

/**
 * One Performance Max ad per asset group from the first fallback valid for its row; a row with a
 * missing or non-http(s) final URL gets none and is reported as skipped; keyword insertions
 * without default text are reported once per template text, labels with ';' once per fallback.
 */
export function generatePerformanceMaxAds(
  input: GeneratePerformanceMaxAdsInput,
): GenerateAdsResult<PerformanceMaxAd> {
  const fallbacks = compilePerformanceMaxTemplate(input.template);
  const findRow = rowFinder(input.rows);
  const current = new RowValues();
  const { values, facts: rowFacts } = current;
  values.const = input.constant ?? '';
  const ads: PerformanceMaxAd[] = [];
  // A keyword insertion fails its fallback for every row: said once per fallback here.
  const issues: RowIssue[] = [];
  fallbacks.forEach((f, i) => {
    const k = f.keywordFailure;
    if (k)
      issues.push({
        kind: 'warning',
        output: OUTPUT_PMAX,
        rowId: '',
        rowNumber: 0,
        code: 'keyword-insertion',
        message: `Fallback ${i + 1}, ${describeFailure(k)}; the fallback makes no ad`,
      });
  });
  issues.push(
    ...labelIssues(
      OUTPUT_PMAX,
      fallbacks.map((f) => ({ refused: f.refusedLabels })),
    ),
  );
  for (const g of input.assetGroups) {
    const at = findRow(g.id);
    if (at < 0) {
      issues.push(missingRowIssue(OUTPUT_PMAX, g.id, `asset group "${g.assetGroup}"`));
      continue;
    }
    const row = input.rows.at(at) as FeedRow;
    const rowNumber = at + 1;
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
    if (done) continue;
    issues.push(
      noAdIssue(OUTPUT_PMAX, `Asset group "${g.assetGroup}"`, firstFailure, row, rowNumber),
    );
  }
  return { ads, issues };
}

/** Google's keyword insertion: `{KeyWord}`, `{KeyWord:default}`, in any case. */
const KEYWORD_INSERTION = /\{\s*keyword\s*(:[^{}]*)?\}/i;

/**
 * The failure of the first text holding a keyword insertion: Performance Max campaigns have no
 * keywords, so Google has nothing to insert (issue 36).
 */
function findKeywordInsertion(
  lists: ReadonlyArray<readonly [field: string, texts: readonly string[]]>,
): TextFailure | undefined {
  for (const [field, texts] of lists)
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i] as string;
      if (KEYWORD_INSERTION.test(text))
        return ruleFailure(
          field,
          i,
          text,
          'keyword-insertion',
          'has a keyword insertion ({KeyWord:…}), which Performance Max cannot fill: it has no keywords',
        );
    }
  return undefined;
}

/** Whether any value of the row holds a brace. */
function hasBrace(values: PlaceholderValues): boolean {
  const row = values.row;
  for (const c of FEED_COLUMNS) if ((row[c] ?? '').includes('{')) return true;
  return (values.const ?? '').includes('{');
}

/** `countFailure` of one list against its fewest and most. */
function countListFailure(
  what: string,
  list: readonly unknown[],
  counts: { min: number; max: number },
): TextFailure | undefined {
  return countFailure(what, list.length, counts.min, counts.max);
}
