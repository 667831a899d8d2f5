/** Responsive search ads: per ad group the first fallback valid for its row (spec section 5). */
import type { CsvBytes } from '../csvBytes.ts';
import {
  rsaLinePlan,
  writeRsaLine,
  type RsaLineCells,
  type RsaLinePlan,
  type RsaTextCellWriter,
} from './rsaLine.ts';
import { patternBytesOf, RowValueBytes, type PatternBytes } from '../fillBytes.ts';
import type { RowIssue } from '../issues.ts';
import {
  AD_TEXT_MIN_CHARS,
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_CHARS,
  RSA_HEADLINE_MAX_PIN,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  RSA_PATH_MAX_CHARS,
} from '../limits.ts';
import { RowValues, usedSlots, type PlaceholderValues, type ValueFacts } from '../text.ts';
import type { FeedRow, RsaTemplate } from '../types.ts';
import {
  compileTexts,
  countFailure,
  factsFor,
  filledText,
  fillTexts,
  findPinFailure,
  findRowUrlFailure,
  findTemplateTextIssues,
  labelIssues,
  missingRowIssue,
  PATH_ORDER_FAILURE,
  replaceLabelDate,
  rowFinder,
  noAdIssue,
  splitLabels,
  type AdGroupTarget,
  type CompiledTexts,
  type GenerateAdsInputBase,
  type GenerateAdsResult,
  type TextFailure,
} from './shared.ts';

const RSA_RULES = {
  headline: {
    field: 'Headline',
    min: AD_TEXT_MIN_CHARS,
    max: RSA_HEADLINE_MAX_CHARS,
    isHeadline: true,
    isDistinct: true,
    isEditorial: true,
  },
  description: {
    field: 'Description',
    min: AD_TEXT_MIN_CHARS,
    max: RSA_DESCRIPTION_MAX_CHARS,
    isDistinct: true,
    isEditorial: true,
  },
  path: { field: 'Path', min: 0, max: RSA_PATH_MAX_CHARS, isEditorial: true },
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
   * Each headline's pinned position (1-3; 0 = unpinned). The ads of one fallback share this list:
   * do not change it.
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
  paths: CompiledTexts;
  /** Labels written (those with ';' are refused, see `splitLabels`). */
  labels: string[];
  refusedLabels: string[];
  /**
   * Too few or too many headlines or descriptions, or pins that leave a position empty: the
   * fallback fails every row.
   */
  templateFailure: TextFailure | undefined;
  /** Reused by each fill of this fallback to check texts before they are copied out. */
  scratch: string[];
  /**
   * The headlines, descriptions and paths of a lent fill (`fillRsaFallback`'s `isLent`): one
   * list each, read by the caller before the next fill of this fallback.
   */
  lent: [string[], string[], string[]];
}

/** Compiles the fallbacks of an RSA template. */
export function compileRsaTemplate(template: RsaTemplate): CompiledRsaFallback[] {
  return template.templates.map((f) => {
    const headlinePositions = f.headlines.map((h) => h.pos);
    const descriptionPositions = f.descriptions.map((d) => d.pos);
    const labels = splitLabels(f.labels);
    return {
      headlines: compileTexts(f.headlines),
      descriptions: compileTexts(f.descriptions),
      headlinePositions,
      descriptionPositions,
      paths: compileTexts([f.paths[0] ?? '', f.paths[1] ?? '']),
      labels: labels.kept,
      refusedLabels: labels.refused,
      templateFailure:
        countFailure('Headline', f.headlines.length, RSA_MIN_HEADLINES, RSA_MAX_HEADLINES) ??
        countFailure(
          'Description',
          f.descriptions.length,
          RSA_MIN_DESCRIPTIONS,
          RSA_MAX_DESCRIPTIONS,
        ) ??
        findPinFailure('Headline', headlinePositions, RSA_HEADLINE_MAX_PIN) ??
        findPinFailure('Description', descriptionPositions, RSA_DESCRIPTION_MAX_PIN),
      scratch: [],
      lent: [[], [], []],
    };
  });
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
 * Fills and checks one compiled RSA fallback for one row, with every rule the output keeps: an
 * http(s) final URL; 3..15 headlines and 2..4 descriptions, pins leaving no position empty;
 * every placeholder with a value; each text 1..limit after substitution and within Google's
 * editorial rules; no headline or description repeating another (ignoring case); paths within
 * limit, path 2 only with path 1. `isLent`: the lists are the fallback's own (`lent`), valid
 * until its next fill, instead of copies.
 */
export function fillRsaFallback(
  f: CompiledRsaFallback,
  values: PlaceholderValues,
  rowFacts?: ValueFacts,
  isLent = false,
): FilledRsa {
  return fillFallback(f, values, factsFor(values, rowFacts), isLent, false);
}

/**
 * `fillRsaFallback`; `isDeferred` (lent only): texts joined from their pieces are left unmade
 * (see `fillTexts`): read them through `filledText`, or write them from their pieces.
 */
function fillFallback(
  f: CompiledRsaFallback,
  values: PlaceholderValues,
  facts: ValueFacts,
  isLent: boolean,
  isDeferred: boolean,
): FilledRsa {
  const url = findRowUrlFailure(values, facts);
  if (url) return { ok: false, failure: url };
  if (f.templateFailure) return { ok: false, failure: f.templateFailure };
  const { headline, description, path } = RSA_RULES;
  // No closures made per ad (each is an allocation, and a call through it).
  const h = fillTexts(
    f.headlines,
    values,
    headline,
    facts,
    scratchOf(f, 0, isLent),
    isLent,
    isDeferred,
  );
  if (h.failure) return { ok: false, failure: h.failure };
  const d = fillTexts(
    f.descriptions,
    values,
    description,
    facts,
    scratchOf(f, 1, isLent),
    isLent,
    isDeferred,
  );
  if (d.failure) return { ok: false, failure: d.failure };
  const p = fillTexts(f.paths, values, path, facts, scratchOf(f, 2, isLent), isLent, isDeferred);
  if (p.failure) return { ok: false, failure: p.failure };
  // The list's own copy is the pair (paths are compiled as two texts); a pending path is not
  // empty.
  const paths = p.texts as [string, string];
  const pending = f.paths.pendingAt;
  if (pending[0] === 0 && paths[0] === '' && !(pending[1] === 0 && paths[1] === ''))
    return { ok: false, failure: PATH_ORDER_FAILURE };
  return {
    ok: true,
    headlines: h.texts,
    headlinePositions: f.headlinePositions,
    descriptions: d.texts,
    descriptionPositions: f.descriptionPositions,
    paths,
  };
}

/** The list a fill of `f` checks list `i` in (0 headlines, 1 descriptions, 2 paths). */
function scratchOf(f: CompiledRsaFallback, i: 0 | 1 | 2, isLent: boolean): string[] {
  // Copied texts can share one list; lent ones are read after the fill, so each has its own.
  return isLent ? f.lent[i] : f.scratch;
}

/** Input of `generateResponsiveSearchAds`. */
export interface GenerateResponsiveSearchAdsInput extends GenerateAdsInputBase<RsaTemplate> {
  /** Ad groups from `generateCampaignStructure`, read in order. */
  adGroups: Iterable<AdGroupTarget>;
}

const OUTPUT_RSA = 'responsive search ads';

/**
 * One responsive search ad per ad group, from the first fallback valid for the group's row
 * (`fillRsaFallback`). A row with a missing or non-http(s) final URL gets no ad and is reported
 * as skipped; other rows no fallback serves are reported with the first fallback's reason.
 * Keyword insertions without default text are reported once per template text, labels with ';'
 * once per fallback.
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
  return runResponsiveSearchAds(input, false, (g, row, index, filled, run) =>
    onAd({
      campaign: g.campaign,
      adGroup: g.adGroup,
      rowId: row.id,
      fallbackIndex: index,
      headlines: filled.headlines,
      headlinePositions: filled.headlinePositions,
      descriptions: filled.descriptions,
      descriptionPositions: filled.descriptionPositions,
      paths: filled.paths,
      labels: run.labels[index] ?? [],
      finalUrl: row.url.trim(),
    }),
  );
}

/** Where `writeResponsiveSearchAdLines` writes. */
export interface RsaLineSink {
  /** The CSV the lines go to (undefined: the ads are made and counted, not written). */
  csv: CsvBytes | undefined;
  /** Called after each ad, with its row's id. */
  ad: (rowId: string) => void;
}

/**
 * `forEachResponsiveSearchAd` for the command line: each ad is written at once as its line of
 * the RSA CSV (`RSA_HEADERS`, header not included), the bytes of `responsiveSearchAdCells`'
 * line, without an ad object, copies of its texts or a cells array. Returns the issues.
 */
export function writeResponsiveSearchAdLines(
  input: GenerateResponsiveSearchAdsInput,
  sink: RsaLineSink,
): RowIssue[] {
  const { csv } = sink;
  // Each fallback's line, compiled when it first makes an ad.
  const plans: RsaLinePlan[] = [];
  // Each fallback's texts as bytes to join (per list; undefined: written whole), likewise.
  const textPlans: Array<Array<Array<PatternBytes | undefined>>> = [];
  const valueBytes = new RowValueBytes();
  // The ad being written: its fallback's lists and text plans, and the run's row values.
  let lists: CompiledTexts[] = [];
  let listPlans: Array<Array<PatternBytes | undefined>> = [];
  let current: RowValues | undefined;
  const filledLists: string[][] = [[], [], []];
  /**
   * A text joined by `measureFill` for the row is written from its pieces' bytes; any other
   * is made if the fill left it pending, and written by `writeRsaLine`.
   */
  const textCell: RsaTextCellWriter = (out, list, i) => {
    const texts = lists[list] as CompiledTexts;
    const row = current as RowValues;
    const plan = listPlans[list]?.[i];
    if (
      plan !== undefined &&
      texts.joinedAt[i] === 1 &&
      valueBytes.writeCell(out, plan, row.values, row.facts.generation)
    )
      return true;
    filledText(texts, i, filledLists[list] as string[], row.values, row.facts);
    return false;
  };
  const cells: RsaLineCells = {
    campaign: '',
    adGroup: '',
    headlines: [],
    descriptions: [],
    paths: [],
    finalUrl: '',
  };
  return runResponsiveSearchAds(input, true, (g, row, index, filled, run) => {
    if (csv) {
      const f = run.fallbacks[index] as CompiledRsaFallback;
      const plan = (plans[index] ??= linePlanOf(f, run.labels[index] ?? []));
      lists = [f.headlines, f.descriptions, f.paths];
      listPlans = textPlans[index] ??= lists.map((l) => l.patterns.map(patternBytesOf));
      current = run.current;
      cells.campaign = g.campaign;
      cells.adGroup = g.adGroup;
      cells.headlines = filled.headlines;
      cells.descriptions = filled.descriptions;
      cells.paths = filled.paths;
      filledLists[0] = filled.headlines;
      filledLists[1] = filled.descriptions;
      filledLists[2] = filled.paths;
      cells.finalUrl = row.url.trim();
      writeRsaLine(csv, plan, cells, textCell);
    }
    sink.ad(row.id);
  });
}

/** The line of a compiled fallback: its fixed texts, pins and labels. */
function linePlanOf(f: CompiledRsaFallback, labels: readonly string[]): RsaLinePlan {
  const fixed = (list: CompiledTexts): (string | undefined)[] =>
    list.patterns.map((p) => (p.isStatic ? p.staticText : undefined));
  return rsaLinePlan({
    headlines: fixed(f.headlines),
    headlinePositions: f.headlinePositions,
    descriptions: fixed(f.descriptions),
    descriptionPositions: f.descriptionPositions,
    paths: fixed(f.paths),
    labels,
  });
}

/** A fallback's texts for a row that it serves. */
type ServedRsa = Extract<FilledRsa, { ok: true }>;

/** What a run of RSAs compiled once: the fallbacks and their labels (dates filled in). */
interface RsaRun {
  fallbacks: CompiledRsaFallback[];
  labels: string[][];
  /** The row's values and facts the ad was filled from. */
  current: RowValues;
}

/**
 * The RSA run of `forEachResponsiveSearchAd`: `onAd` gets each ad group served, its row, the
 * fallback used and its texts. `isLent` (the line writer's run): the texts are lent and
 * deferred (see `fillFallback`), to be read through `filledText`.
 */
function runResponsiveSearchAds(
  input: GenerateResponsiveSearchAdsInput,
  isLent: boolean,
  onAd: (g: AdGroupTarget, row: FeedRow, index: number, filled: ServedRsa, run: RsaRun) => void,
): RowIssue[] {
  const fallbacks = compileRsaTemplate(input.template);
  const findRow = rowFinder(input.rows);
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
  issues.push(
    ...labelIssues(
      OUTPUT_RSA,
      fallbacks.map((f) => ({ refused: f.refusedLabels })),
    ),
  );
  // Facts only for the placeholders the fallbacks use (the url column is rarely one of them).
  const slotsUsed = usedSlots(
    fallbacks.flatMap((f) => [
      ...f.headlines.patterns,
      ...f.descriptions.patterns,
      ...f.paths.patterns,
    ]),
  );
  const current = new RowValues(slotsUsed);
  const run: RsaRun = {
    fallbacks,
    labels: fallbacks.map((f) => f.labels.map((l) => replaceLabelDate(l, input.today))),
    current,
  };
  const { values, facts: rowFacts } = current;
  values.const = input.constant ?? '';
  // The last row's fallback (-1: none) and its texts or failure (undefined: no row yet).
  let lastRowId: string | undefined;
  let index = -1;
  let filled: FilledRsa | undefined;
  for (const g of input.adGroups) {
    const at = findRow(g.id);
    if (at < 0) {
      issues.push(missingRowIssue(OUTPUT_RSA, g.id, `ad group "${g.adGroup}"`));
      continue;
    }
    const row = input.rows.at(at) as FeedRow;
    const rowNumber = at + 1;
    // Ad groups of one row share its substitution (the fallback choice does not depend on the group).
    if (lastRowId !== row.id || !filled) {
      current.setRow(row);
      index = -1;
      filled = undefined;
      let firstFailure: FilledRsa | undefined;
      for (let i = 0; i < fallbacks.length; i++) {
        const made = fillFallback(
          fallbacks[i] as CompiledRsaFallback,
          values,
          rowFacts,
          isLent,
          isLent,
        );
        if (made.ok) {
          index = i;
          filled = made;
          break;
        }
        firstFailure ??= made;
      }
      lastRowId = row.id;
      filled ??= firstFailure ?? { ok: false, failure: NO_FALLBACK };
    }
    if (!filled.ok) {
      const failure = fallbacks.length === 0 ? undefined : filled.failure;
      issues.push(noAdIssue(OUTPUT_RSA, `Ad group "${g.adGroup}"`, failure, row, rowNumber));
      continue;
    }
    onAd(g, row, index, filled, run);
  }
  return issues;
}

/** The failure when a template has no fallback. */
const NO_FALLBACK: TextFailure = {
  field: 'Fallback',
  index: -1,
  text: '',
  length: 0,
  min: 0,
  max: 0,
  code: 'no-fallback',
  reason: 'missing: the template has no fallback',
};
