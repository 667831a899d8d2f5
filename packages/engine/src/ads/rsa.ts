/** Responsive search ads: per ad group the first fallback valid for its row (spec section 5). */
import type { RowIssue } from '../issues.ts';
import {
  AD_TEXT_MIN_CHARS,
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_HEADLINE_MAX_CHARS,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  RSA_PATH_MAX_CHARS,
} from '../limits.ts';
import {
  compilePattern,
  RowValues,
  usedSlots,
  type CompiledPattern,
  type PlaceholderValues,
  type ValueFacts,
} from '../text.ts';
import type { FeedRow, RsaTemplate } from '../types.ts';
import {
  compileTexts,
  countFailure,
  describeFailure,
  factsFor,
  fillTexts,
  findDuplicates,
  findFinalUrlWarning,
  findTemplateTextIssues,
  missingRowIssue,
  skippedIssue,
  findTooFewDistinct,
  finalUrlIssue,
  newRowFold,
  NO_DUPLICATES,
  prepareRowFold,
  replaceLabelDate,
  rowIndexMap,
  withoutDuplicates,
  type CompiledTexts,
  type FinalUrlWarning,
  type GenerateAdsInputBase,
  type AdGroupTarget,
  type GenerateAdsResult,
  type TextFailure,
} from './shared.ts';

const RSA_RULES = {
  headline: { field: 'Headline', min: AD_TEXT_MIN_CHARS, max: RSA_HEADLINE_MAX_CHARS },
  description: { field: 'Description', min: AD_TEXT_MIN_CHARS, max: RSA_DESCRIPTION_MAX_CHARS },
  path: { field: 'Path', min: 0, max: RSA_PATH_MAX_CHARS },
} as const;

/** One generated responsive search ad. */
export interface RsaAd {
  campaign: string;
  adGroup: string;
  rowId: string;
  /** Index of the fallback used (0 = first). */
  fallbackIndex: number;
  headlines: string[];
  /**
   * Each headline's pinned position (1-3; 0 = unpinned). The ads of one fallback share this list
   * (when no headline was dropped as a repeat): do not change it.
   */
  headlinePositions: readonly number[];
  descriptions: string[];
  /** Each description's pinned position (1-2; 0 = unpinned); shared like `headlinePositions`. */
  descriptionPositions: readonly number[];
  paths: [string, string];
  labels: string[];
  finalUrl: string;
}

/** A compiled RSA fallback: compile once, check and fill many rows. */
export interface CompiledRsaFallback {
  headlines: CompiledTexts;
  descriptions: CompiledTexts;
  headlinePositions: readonly number[];
  descriptionPositions: readonly number[];
  paths: CompiledPattern[];
  labels: string[];
  /** Too few or too many headlines or descriptions: the fallback fails every row. */
  countFailure: TextFailure | undefined;
  /** Reused by each fill of this fallback to check texts before they are copied out. */
  scratch: string[];
}

/** Compiles the fallbacks of an RSA template. */
export function compileRsaTemplate(template: RsaTemplate): CompiledRsaFallback[] {
  return template.templates.map((f) => ({
    headlines: compileTexts(f.headlines),
    descriptions: compileTexts(f.descriptions),
    headlinePositions: f.headlines.map((h) => h.pos),
    descriptionPositions: f.descriptions.map((d) => d.pos),
    paths: [compilePattern(f.paths[0] ?? ''), compilePattern(f.paths[1] ?? '')],
    labels: f.labels.filter((l) => l.trim() !== ''),
    countFailure:
      countFailure('Headline', f.headlines.length, RSA_MIN_HEADLINES, RSA_MAX_HEADLINES) ??
      countFailure(
        'Description',
        f.descriptions.length,
        RSA_MIN_DESCRIPTIONS,
        RSA_MAX_DESCRIPTIONS,
      ),
    scratch: [],
  }));
}

/** The filled texts of one fallback for one row (positions as in the fallback), or the first failure. */
export type FilledRsa =
  | {
      ok: true;
      headlines: string[];
      headlinePositions: readonly number[];
      descriptions: string[];
      descriptionPositions: readonly number[];
      paths: [string, string];
    }
  | { ok: false; failure: TextFailure };

/**
 * Fills and checks one compiled RSA fallback for one row: the spec's validity rule (every text
 * 1..limit after substitution, paths within limit), plus Google's: 3..15 headlines and 2..4
 * descriptions that stay that many once repeats are removed, and path 2 needs path 1.
 */
export function fillRsaFallback(
  f: CompiledRsaFallback,
  values: PlaceholderValues,
  rowFacts?: ValueFacts,
): FilledRsa {
  if (f.countFailure) return { ok: false, failure: f.countFailure };
  const facts = factsFor(values, rowFacts);
  const h = fillTexts(f.headlines.patterns, values, RSA_RULES.headline, facts, f.scratch);
  if (h.failure) return { ok: false, failure: h.failure };
  const hd = findTooFewDistinct(h.texts, 'Headline', RSA_MIN_HEADLINES, RSA_MAX_HEADLINES);
  if (hd) return { ok: false, failure: hd };
  const d = fillTexts(f.descriptions.patterns, values, RSA_RULES.description, facts, f.scratch);
  if (d.failure) return { ok: false, failure: d.failure };
  const dd = findTooFewDistinct(d.texts, 'Description', RSA_MIN_DESCRIPTIONS, RSA_MAX_DESCRIPTIONS);
  if (dd) return { ok: false, failure: dd };
  const p = fillTexts(f.paths, values, RSA_RULES.path, facts, f.scratch);
  if (p.failure) return { ok: false, failure: p.failure };
  const paths: [string, string] = [p.texts[0] ?? '', p.texts[1] ?? ''];
  if (paths[0] === '' && paths[1] !== '') {
    return {
      ok: false,
      failure: { field: 'Path', index: 0, text: '', length: 0, min: 1, max: RSA_PATH_MAX_CHARS },
    };
  }
  return {
    ok: true,
    headlines: h.texts,
    headlinePositions: f.headlinePositions,
    descriptions: d.texts,
    descriptionPositions: f.descriptionPositions,
    paths,
  };
}

/** Input of `generateResponsiveSearchAds`. */
export interface GenerateResponsiveSearchAdsInput extends GenerateAdsInputBase<RsaTemplate> {
  /** Ad groups from `generateCampaignStructure`, read in order. */
  adGroups: Iterable<AdGroupTarget>;
}

const OUTPUT_RSA = 'responsive search ads';

/**
 * One responsive search ad per ad group, from the first fallback valid for the group's row.
 * Rows with no valid fallback are reported with the first fallback's reason; headlines or
 * descriptions identical after substitution are reported and emitted once (a fallback left with
 * fewer than 3 headlines or 2 descriptions by that is not valid for the row). A missing or
 * unusable final URL is a warning; keyword insertions without default text are reported once
 * per template text.
 */
export function generateResponsiveSearchAds(
  input: GenerateResponsiveSearchAdsInput,
): GenerateAdsResult<RsaAd> {
  const ads: RsaAd[] = [];
  const issues = forEachResponsiveSearchAd(input, (ad) => ads.push(ad));
  return { ads, issues };
}

/**
 * `generateResponsiveSearchAds` for outputs too big to hold as objects: each ad goes to `onAd`
 * as it is made, in the same order, and the issues are returned. A consumer that writes each ad
 * into its output (a CSV, packed columns) and keeps nothing else lets the ads die young, which
 * spares the garbage collector copying 100k ads of 20 strings each between generations.
 */
export function forEachResponsiveSearchAd(
  input: GenerateResponsiveSearchAdsInput,
  onAd: (ad: RsaAd) => void,
): RowIssue[] {
  const fallbacks = compileRsaTemplate(input.template);
  const byId = rowIndexMap(input.rows);
  const issues: RowIssue[] = findTemplateTextIssues(
    OUTPUT_RSA,
    input.template.templates.map((f, i) => ({
      label: `Fallback ${i + 1}`,
      texts: [
        ['Headline', f.headlines.map((h) => h.text)],
        ['Description', f.descriptions.map((d) => d.text)],
      ],
    })),
  );
  const labelsByFallback = fallbacks.map((f) =>
    f.labels.map((l) => replaceLabelDate(l, input.today)),
  );
  const rowFold = newRowFold();
  // Facts only for the placeholders the fallbacks use (the url column is rarely one of them).
  const slotsUsed = usedSlots(
    fallbacks.flatMap((f) => [...f.headlines.patterns, ...f.descriptions.patterns, ...f.paths]),
  );
  const current = new RowValues(slotsUsed);
  const { values, facts: rowFacts } = current;
  let lastRowId: string | undefined;
  let lastResult: { index: number; filled: FilledRsa } | undefined;
  // Duplicate headlines and descriptions of the row's chosen fallback.
  let headlineDuplicates = NO_DUPLICATES;
  let descriptionDuplicates = NO_DUPLICATES;
  let urlWarning: FinalUrlWarning | undefined;
  for (const g of input.adGroups) {
    const at = byId.get(g.id);
    if (at === undefined) {
      issues.push(missingRowIssue(OUTPUT_RSA, g.id, `ad group "${g.adGroup}"`));
      continue;
    }
    const row = input.rows[at] as FeedRow;
    const rowNumber = at + 1;
    // Ad groups of one row share its substitution (the fallback choice does not depend on the group).
    if (lastRowId !== row.id || !lastResult) {
      current.setRow(row);
      let chosen: { index: number; filled: FilledRsa } | undefined;
      let firstFailure: FilledRsa | undefined;
      for (let i = 0; i < fallbacks.length; i++) {
        const filled = fillRsaFallback(fallbacks[i] as CompiledRsaFallback, values, rowFacts);
        if (filled.ok) {
          chosen = { index: i, filled };
          break;
        }
        firstFailure ??= filled;
      }
      lastRowId = row.id;
      urlWarning = findFinalUrlWarning(row);
      if (chosen?.filled.ok) {
        const f = fallbacks[chosen.index] as CompiledRsaFallback;
        prepareRowFold(rowFold, values, slotsUsed);
        headlineDuplicates = findDuplicates(
          chosen.filled.headlines,
          f.headlines,
          rowFacts,
          rowFold,
        );
        descriptionDuplicates = findDuplicates(
          chosen.filled.descriptions,
          f.descriptions,
          rowFacts,
          rowFold,
        );
      }
      lastResult = chosen ?? {
        index: -1,
        filled: firstFailure ?? {
          ok: false,
          failure: { field: 'Fallback', index: 0, text: '', length: 0, min: 1, max: 0 },
        },
      };
    }
    const { index, filled } = lastResult;
    if (!filled.ok) {
      const reason =
        fallbacks.length === 0
          ? 'The template has no fallback'
          : `no valid fallback (${describeFailure(filled.failure)})`;
      issues.push(
        skippedIssue(
          OUTPUT_RSA,
          row.id,
          rowNumber,
          'no-valid-fallback',
          `Ad group "${g.adGroup}": ${reason}`,
        ),
      );
      continue;
    }
    for (const dup of headlineDuplicates.length + descriptionDuplicates.length
      ? [...headlineDuplicates, ...descriptionDuplicates]
      : NO_DUPLICATES) {
      issues.push({
        kind: 'cleaned',
        output: OUTPUT_RSA,
        rowId: row.id,
        rowNumber,
        code: 'duplicate-asset',
        message: `Ad group "${g.adGroup}": "${dup}" appears twice after substitution; kept once`,
      });
    }
    if (urlWarning)
      issues.push(finalUrlIssue(urlWarning, OUTPUT_RSA, row, rowNumber, `Ad group "${g.adGroup}"`));
    const headlines = headlineDuplicates.length
      ? withoutDuplicates(filled.headlines, filled.headlinePositions)
      : { texts: filled.headlines, positions: filled.headlinePositions };
    const descriptions = descriptionDuplicates.length
      ? withoutDuplicates(filled.descriptions, filled.descriptionPositions)
      : { texts: filled.descriptions, positions: filled.descriptionPositions };
    onAd({
      campaign: g.campaign,
      adGroup: g.adGroup,
      rowId: row.id,
      fallbackIndex: index,
      headlines: headlines.texts,
      headlinePositions: headlines.positions,
      descriptions: descriptions.texts,
      descriptionPositions: descriptions.positions,
      paths: filled.paths,
      labels: labelsByFallback[index] ?? [],
      finalUrl: row.url.trim(),
    });
  }
  return issues;
}
