/** Legacy expanded text ads: per ad group and template version the first valid fallback. */
import type { RowIssue } from '../issues.ts';
import {
  LEGACY_DESCRIPTION_MAX_CHARS,
  LEGACY_HEADLINE_MAX_CHARS,
  LEGACY_PATH_MAX_CHARS,
} from '../limits.ts';
import { compilePattern, fillPattern, NO_ROW_VALUES, type PlaceholderValues } from '../text.ts';
import type { AdFallback, AdTemplate } from '../types.ts';
import {
  checkText,
  describeFailure,
  findTemplateTextIssues,
  replaceLabelDate,
  reportFinalUrl,
  rowMap,
  missingRowIssue,
  skippedIssue,
  type FieldRule,
  type GenerateAdsInputBase,
  type AdGroupTarget,
  type GenerateAdsResult,
  type TextFailure,
} from './shared.ts';

/** The texts of a legacy fallback: headlines, descriptions and paths. */
type LegacyTexts = Omit<AdFallback, 'adType' | 'label'>;

/** One generated legacy expanded text ad. */
export interface LegacyAd extends LegacyTexts {
  campaign: string;
  adGroup: string;
  rowId: string;
  version: number;
  fallbackIndex: number;
  label: string;
  finalUrl: string;
}

const LEGACY_FIELDS: ReadonlyArray<{
  key: keyof LegacyTexts;
  rule: FieldRule;
}> = [
  { key: 'h1', rule: { field: 'Headline', min: 1, max: LEGACY_HEADLINE_MAX_CHARS } },
  { key: 'h2', rule: { field: 'Headline', min: 1, max: LEGACY_HEADLINE_MAX_CHARS } },
  { key: 'h3', rule: { field: 'Headline', min: 0, max: LEGACY_HEADLINE_MAX_CHARS } },
  { key: 'dl1', rule: { field: 'Description', min: 1, max: LEGACY_DESCRIPTION_MAX_CHARS } },
  { key: 'dl2', rule: { field: 'Description', min: 0, max: LEGACY_DESCRIPTION_MAX_CHARS } },
  { key: 'p1', rule: { field: 'Path', min: 0, max: LEGACY_PATH_MAX_CHARS } },
  { key: 'p2', rule: { field: 'Path', min: 0, max: LEGACY_PATH_MAX_CHARS } },
];
const LEGACY_INDEX: Record<string, number> = { h1: 0, h2: 1, h3: 2, dl1: 0, dl2: 1, p1: 0, p2: 1 };

/**
 * Fills and checks a legacy fallback: headlines 1 and 2 required (1..30), headline 3 at most 30,
 * description 1 required (1..90), description 2 at most 90, paths at most 15.
 */
export function fillLegacyFallback(
  f: AdFallback,
  values: PlaceholderValues,
): { ok: true; ad: Record<string, string> } | { ok: false; failure: TextFailure } {
  const ad: Record<string, string> = {};
  for (const { key, rule } of LEGACY_FIELDS) {
    const text = fillPattern(compilePattern(f[key]), values);
    const failure = checkText(rule, LEGACY_INDEX[key] ?? 0, text);
    if (failure) return { ok: false, failure: { ...failure, index: LEGACY_INDEX[key] ?? 0 } };
    ad[key] = text;
  }
  return { ok: true, ad };
}

/** Input of `generateLegacyAds`. */
export interface GenerateLegacyAdsInput extends GenerateAdsInputBase<AdTemplate> {
  adGroups: Iterable<AdGroupTarget>;
}

const OUTPUT_LEGACY = 'legacy ads';

/**
 * Per ad group and template version, one expanded text ad from the first valid fallback. Groups
 * without a feed row and rows without a valid fallback are reported; a missing or unusable final
 * URL is a warning (once per ad group); keyword insertions without default text are reported
 * once per template text.
 */
export function generateLegacyAds(input: GenerateLegacyAdsInput): GenerateAdsResult<LegacyAd> {
  const byId = rowMap(input.rows);
  const ads: LegacyAd[] = [];
  const issues: RowIssue[] = findTemplateTextIssues(
    OUTPUT_LEGACY,
    input.template.templates.flatMap((version, v) =>
      version.map((f, i) => ({
        label: `Version ${v + 1}, fallback ${i + 1}`,
        texts: [
          ['Headline', [f.h1, f.h2, f.h3]],
          ['Description', [f.dl1, f.dl2]],
        ] as const,
      })),
    ),
  );
  const values: PlaceholderValues = { row: NO_ROW_VALUES };
  for (const g of input.adGroups) {
    const found = byId.get(g.id);
    if (!found) {
      issues.push(missingRowIssue(OUTPUT_LEGACY, g.id, `ad group "${g.adGroup}"`));
      continue;
    }
    values.row = found.row;
    const adsBefore = ads.length;
    input.template.templates.forEach((version, v) => {
      let firstFailure: TextFailure | undefined;
      for (let i = 0; i < version.length; i++) {
        const f = version[i] as AdFallback;
        const filled = fillLegacyFallback(f, values);
        if (!filled.ok) {
          firstFailure ??= filled.failure;
          continue;
        }
        const a = filled.ad;
        ads.push({
          campaign: g.campaign,
          adGroup: g.adGroup,
          rowId: found.row.id,
          version: v,
          fallbackIndex: i,
          h1: a.h1 ?? '',
          h2: a.h2 ?? '',
          h3: a.h3 ?? '',
          dl1: a.dl1 ?? '',
          dl2: a.dl2 ?? '',
          p1: a.p1 ?? '',
          p2: a.p2 ?? '',
          label: replaceLabelDate(f.label, input.today),
          finalUrl: found.row.url.trim(),
        });
        return;
      }
      issues.push(
        skippedIssue(
          OUTPUT_LEGACY,
          found.row.id,
          found.rowNumber,
          'no-valid-fallback',
          `Ad group "${g.adGroup}", version ${v + 1}: ${firstFailure ? `no valid fallback (${describeFailure(firstFailure)})` : 'no fallback'}`,
        ),
      );
    });
    if (ads.length > adsBefore)
      reportFinalUrl(issues, OUTPUT_LEGACY, found.row, found.rowNumber, `Ad group "${g.adGroup}"`);
  }
  return { ads, issues };
}
