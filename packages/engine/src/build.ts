/**
 * A whole run of every template over one feed, as the command line makes it: the campaign
 * structure (keyword CSVs streamed to sinks), the ads of its groups, and the extensions of each
 * type attached to its campaigns, identical ones of one place written once. The caller reads the inputs and writes the outputs.
 */
import { convertLegacyAdTemplate, reportLegacyConversion } from './ads/legacyToRsa.ts';
import { generatePerformanceMaxAds, type PerformanceMaxAd } from './ads/performanceMax.ts';
import {
  forEachResponsiveSearchAd,
  generateResponsiveSearchAds,
  writeResponsiveSearchAdLines,
  type RsaAd,
  type RsaLineSink,
} from './ads/rsa.ts';
import { findBuildStatus, type BuildStatus } from './buildStatus.ts';
import { writeKeywordsCsv, type RowGroupKeys } from './campaign.ts';
import type { CampaignRow } from './campaignRows.ts';
import { AssetPlaces } from './assetPlaces.ts';
import { generateExtensions, type GeneratedExtension } from './extensions.ts';
import type { RowIssue } from './issues.ts';
import type { IntChunks } from './keywords/intLists.ts';
import { ROW_UNKNOWN_STATUS, rowStatusCodes } from './rowStatus.ts';
import { rowFinder, type AdGroupTarget } from './ads/shared.ts';
import type {
  AdGroupRef,
  AdTemplate,
  AssetGroupRef,
  CampaignTemplate,
  ExtensionTemplate,
  ExtensionTypeName,
  FeedRows,
  PerformanceMaxTemplate,
  RsaTemplate,
} from './types.ts';

/** Input of `generateBuild`: the feed rows and the templates of one run. */
export interface GenerateBuildInput {
  rows: FeedRows;
  campaign: CampaignTemplate;
  /** Responsive search ads (search campaigns). */
  rsa?: RsaTemplate;
  /** Performance Max ads (performance campaigns). */
  pmax?: PerformanceMaxTemplate;
  /**
   * A legacy expanded text ad template (search campaigns): converted to RSA templates, one per
   * version, whose ads join `rsaAds` (Google no longer accepts expanded text ads).
   */
  legacy?: AdTemplate;
  extensions: readonly ExtensionTemplate[];
  /** Today's date as yyyymmdd for the label helpers. */
  today: string;
  /** How messages name another row (`GenerateCampaignStructureInput.rowLabel`). */
  rowLabel?: (rowNumber: number) => string;
  /** The rows' group keys made beforehand (`GenerateCampaignStructureInput.groupKeys`). */
  groupKeys?: RowGroupKeys;
  /**
   * The items' statuses when the caller found them (`findBuildStatus`); else found here. None
   * (no row paused): the files have no status column.
   */
  status?: BuildStatus;
}

/** Where `generateBuild` streams the keyword and negative CSV chunks (header first). */
export interface GenerateBuildSinks {
  keywords: (chunk: string) => void;
  negatives: (chunk: string) => void;
  /** False: the chunks start with the first line (`KeywordsCsvSinks.hasHeader`). */
  hasHeader?: boolean;
  /**
   * Each responsive search ad as it is made, in order (optional). Given, the ads are not kept:
   * `rsaAds` stays unset, so a million ads never live at once.
   */
  rsaAd?: (ad: RsaAd) => void;
  /**
   * The command line's form of `rsaAd` (optional, taking its place): each ad written at once as
   * its line of the RSA CSV (see `writeResponsiveSearchAdLines`), with no ad object made.
   */
  rsaLines?: RsaLineSink;
  /**
   * Where the ad groups go as they are made (optional). Given, they are not kept in `adGroups`:
   * the ads read them back from the store, in order (a million groups as objects hold 270 MB).
   */
  adGroupStore?: AdGroupStore;
  /**
   * Each issue as the run reports it, in output order (optional). Given, `issues` stays empty:
   * the command line writes a million warnings to its report instead of holding them.
   */
  issue?: (issue: RowIssue) => void;
  /** Where each keyword line's row (index among the rows) goes, in order (optional). */
  keywordRows?: IntChunks;
  /** Where each negative line's row goes, in order (optional). */
  negativeRows?: IntChunks;
}

export type { AdGroupTarget };

/** A store of ad groups, read back in the order they were added. */
export interface AdGroupStore extends Iterable<AdGroupTarget> {
  add(group: AdGroupRef): void;
}

/** What a run made besides the keyword CSVs, with every row problem in output order. */
export interface GenerateBuildResult {
  campaigns: CampaignRow[];
  /** The ad groups, unless they went to `GenerateBuildSinks.adGroupStore`. */
  adGroups: AdGroupRef[];
  assetGroups: AssetGroupRef[];
  keywordLines: number;
  negativeLines: number;
  /** The responsive search ads, unless they went to `GenerateBuildSinks.rsaAd` or `rsaLines`. */
  rsaAds?: RsaAd[];
  performanceMaxAds?: PerformanceMaxAd[];
  /**
   * The assets of each type the templates have, attached to the campaign template's account,
   * campaigns or ad groups; identical ones of one place once, in template order.
   */
  extensions: Map<ExtensionTypeName, GeneratedExtension[]>;
  /** Every row problem, unless they went to `GenerateBuildSinks.issue`. */
  issues: RowIssue[];
  /** The items' statuses, when some row is paused (the tables take it: `campaignsTable`...). */
  status?: BuildStatus;
}

/**
 * The rows whose status cell the column does not know, each reported (read as active): in the
 * run's order, before any other item.
 */
export function reportUnknownStatuses(
  rows: GenerateBuildInput['rows'],
  codes: Uint8Array | undefined,
  issue: (issue: RowIssue) => void,
): void {
  if (!codes) return;
  for (let r = 0; r < codes.length; r++) {
    if (codes[r] !== ROW_UNKNOWN_STATUS) continue;
    const row = rows.at(r)!;
    issue({
      kind: 'warning',
      output: 'feed',
      rowId: row.id,
      rowNumber: r + 1,
      code: 'status-unknown',
      message: `Status "${row.status}" is not active or paused (nor a merchant availability): the row is read as active`,
    });
  }
}

/**
 * Generates every output of a run: the campaign structure, then the ads of its ad groups (search
 * templates: RSA, and legacy converted to RSA) or asset groups (performance templates: Performance Max), then the
 * extensions. Ad templates that do not fit the campaign's type are the caller's to refuse.
 */
export function generateBuild(
  input: GenerateBuildInput,
  sinks: GenerateBuildSinks,
): GenerateBuildResult {
  const { rows, today } = input;
  const constant = input.campaign.const;
  const out: GenerateBuildResult = {
    campaigns: [],
    adGroups: [],
    assetGroups: [],
    keywordLines: 0,
    negativeLines: 0,
    extensions: new Map(),
    issues: [],
  };
  /** Hands each issue over (one at a time: a spread of a million would overflow the stack). */
  const issueSink = sinks.issue ?? ((i: RowIssue) => out.issues.push(i));
  const report = (issues: readonly RowIssue[]): void => {
    for (const i of issues) issueSink(i);
  };
  const store = sinks.adGroupStore;
  const codes = rowStatusCodes(rows);
  reportUnknownStatuses(rows, codes, issueSink);
  const status = input.status ?? findBuildStatus(input, codes);
  if (status) out.status = status;
  const structure = writeKeywordsCsv(
    {
      template: input.campaign,
      rows,
      rowLabel: input.rowLabel,
      groupKeys: input.groupKeys,
      keywordPaused: status?.keywordPaused,
    },
    {
      keywordRows: sinks.keywordRows,
      negativeRows: sinks.negativeRows,
      keywords: sinks.keywords,
      negatives: sinks.negatives,
      hasHeader: sinks.hasHeader,
      campaigns: (c) => out.campaigns.push(c),
      adGroups: store ? (g) => store.add(g) : (g) => out.adGroups.push(g),
      assetGroups: (g) => out.assetGroups.push(g),
      issue: issueSink,
    },
  );
  out.keywordLines = structure.keywordLines;
  out.negativeLines = structure.negativeLines;

  // Each generator's ads, its issues joining the run's.
  const keep = <A>(made: { ads: A[]; issues: RowIssue[] }): A[] => {
    report(made.issues);
    return made.ads;
  };
  if (input.campaign.type === 'performance') {
    if (input.pmax)
      out.performanceMaxAds = keep(
        generatePerformanceMaxAds({
          template: input.pmax,
          rows,
          assetGroups: out.assetGroups,
          today,
          constant,
        }),
      );
  } else {
    const rsaAds = generateSearchAds(
      { rows, rsa: input.rsa, legacy: input.legacy, today, constant },
      store ?? out.adGroups,
      sinks,
      report,
    );
    if (rsaAds) out.rsaAds = rsaAds;
  }
  out.extensions = generateRunExtensions(input, report);
  return out;
}

/** Input of `generateSearchAds`: the feed rows and a search campaign's ad templates. */
export interface SearchAdsInput {
  rows: FeedRows;
  rsa?: RsaTemplate;
  legacy?: AdTemplate;
  today: string;
  /** The campaign template's constant. */
  constant: string;
}

/**
 * The responsive search ads of a search run's ad groups (`generateBuild`'s second step): the RSA
 * template's, then the legacy template's converted fallbacks'. Ads go to `sinks.rsaLines` or
 * `sinks.rsaAd` when given (undefined is returned), else they are returned; issues go to `report`
 * in output order. The command line runs this on a thread of its own, beside the keyword step.
 */
export function generateSearchAds(
  input: SearchAdsInput,
  adGroups: Iterable<AdGroupTarget>,
  sinks: Pick<GenerateBuildSinks, 'rsaAd' | 'rsaLines'>,
  report: (issues: readonly RowIssue[]) => void,
): RsaAd[] | undefined {
  const { rows, today, constant } = input;
  let kept: RsaAd[] | undefined;
  const runRsa = (template: RsaTemplate): void => {
    const rsaInput = { template, rows, adGroups, today, constant };
    if (sinks.rsaLines) {
      report(writeResponsiveSearchAdLines(rsaInput, sinks.rsaLines));
      return;
    }
    if (sinks.rsaAd) {
      report(forEachResponsiveSearchAd(rsaInput, sinks.rsaAd));
      return;
    }
    const made = generateResponsiveSearchAds(rsaInput);
    report(made.issues);
    kept = kept ? kept.concat(made.ads) : made.ads;
  };
  if (input.rsa) runRsa(input.rsa);
  if (input.legacy) {
    const converted = convertLegacyAdTemplate(input.legacy, input.rsa ? [input.rsa.name] : []);
    report(reportLegacyConversion(input.legacy, converted));
    for (const template of converted.templates) runRsa(template);
  }
  return kept;
}

/**
 * The extensions of a run (`generateBuild`'s last step): each type's assets from its templates,
 * identical ones of one place once, in template order; issues go to `report`.
 */
export function generateRunExtensions(
  input: Pick<GenerateBuildInput, 'rows' | 'campaign' | 'extensions'>,
  report: (issues: readonly RowIssue[]) => void,
): Map<ExtensionTypeName, GeneratedExtension[]> {
  const extensions = new Map<ExtensionTypeName, GeneratedExtension[]>();
  const seenByType = new Map<ExtensionTypeName, Set<string>>();
  // Google's limits per place hold across the templates of a type (each template's own assets
  // are within them already).
  const placesByType = new Map<ExtensionTypeName, AssetPlaces>();
  // Row numbers for the reports (rows are numbered only when something is left out).
  const rowNumberOf = rowFinder(input.rows);
  for (const template of input.extensions) {
    const made = generateExtensions({ template, rows: input.rows, campaign: input.campaign });
    report(made.issues);
    const type = template.extensionType.name;
    const list = extensions.get(type) ?? [];
    const seen = seenByType.get(type) ?? new Set<string>();
    const places = placesByType.get(type) ?? new AssetPlaces(type);
    for (const e of made.extensions) {
      const key = JSON.stringify([e.campaign, e.adGroup, e.values]);
      if (seen.has(key)) continue;
      seen.add(key);
      if (places.accept(e, () => rowNumberOf(e.rowId) + 1)) list.push(e);
    }
    extensions.set(type, list);
    seenByType.set(type, seen);
    placesByType.set(type, places);
  }
  for (const [type, places] of placesByType)
    report(places.issues(`${type.toLowerCase()} extensions`));
  return extensions;
}
