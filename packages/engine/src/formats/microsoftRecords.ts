/**
 * The Microsoft bulk writer's readers of the search tables, one per record kind: campaigns (with
 * their location criteria), ad groups, keywords, negative keywords, responsive search ads. Each
 * reads a table's columns, then its rows, asking the writer's shared checks (microsoftWriter.ts)
 * and adding its lines; the extensions' reader is microsoftExtensions.ts's.
 */
import { formatCsvCell } from '../csv.ts';
import {
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_CHARS,
  RSA_HEADLINE_MAX_PIN,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
} from '../limits.ts';
import {
  AssetList,
  C,
  COMMAS,
  Labelled,
  PathColumn,
  bulkLine,
  rsaProblem,
} from './microsoftLines.ts';
import {
  MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP,
  MICROSOFT_CAMPAIGNS_PER_ACCOUNT,
  MICROSOFT_KEYWORDS_PER_AD_GROUP,
  MICROSOFT_NAME_MAX_CHARS,
  MICROSOFT_NEGATIVES_PER_PARENT,
  NEGATIVE_TYPES,
  cell,
  columnOf,
  languagesOf,
  locationIdsOf,
} from './microsoftRules.ts';
import { atMost, type BulkWriter } from './microsoftWriter.ts';
import type { MicrosoftLocationAnswer } from './microsoftLocations.ts';

/** A record kind's reader: each table's columns, then its rows, then `end`. */
export interface RowReader {
  columns(headers: readonly string[]): void;
  row(row: readonly string[]): void;
  end?(): void;
}

/** A campaign that passed its checks, waiting for its location rows. */
interface PendingCampaign {
  name: string;
  key: string;
  status: string;
  budget: string;
  language: string;
  locations: string[];
}

/** Campaigns, each followed by its location criteria (its location rows follow its own row). */
export class CampaignRows implements RowReader {
  private at = { campaign: -1, type: -1, budget: -1, location: -1, languages: -1, status: -1 };
  private pending: PendingCampaign | undefined;

  constructor(
    private readonly w: BulkWriter,
    private readonly locate:
      ((googleCriteriaId: string) => string | MicrosoftLocationAnswer | undefined) | undefined,
  ) {}

  columns(headers: readonly string[]): void {
    this.at = {
      campaign: columnOf(headers, 'Campaign'),
      type: columnOf(headers, 'Campaign Type'),
      budget: columnOf(headers, 'Budget'),
      location: columnOf(headers, 'Location ID'),
      languages: columnOf(headers, 'Languages', 'Language'),
      status: columnOf(headers, 'Campaign Status'),
    };
  }

  row(row: readonly string[]): void {
    const { w, at, pending } = this;
    const name = cell(row, at.campaign);
    const location = cell(row, at.location);
    if (location !== '' && cell(row, at.type) === '') {
      // A location row: its campaign's, or one of a campaign already reported.
      if (pending && name === pending.name)
        for (const id of locationIdsOf(location))
          if (!pending.locations.includes(id)) pending.locations.push(id);
      return;
    }
    this.end();
    const type = cell(row, at.type) || 'Search';
    w.setItem('Campaign', name, '', name);
    if (name === '') return;
    if (type.toLowerCase() !== 'search')
      return w.reject(
        `${type} campaigns are not in this file: Microsoft's bulk file here holds Search campaigns`,
      );
    if (w.campaignKeys.has(name)) return;
    if (name.length > MICROSOFT_NAME_MAX_CHARS)
      return w.reject(`the name is longer than Microsoft's ${MICROSOFT_NAME_MAX_CHARS} characters`);
    const budget = cell(row, at.budget).trim();
    if (budget === '' || !(Number(budget) > 0))
      return w.reject('Microsoft needs a budget to add a campaign');
    const status = w.statusOf(row, at.status, 'campaign');
    if (status === undefined) return;
    if (w.campaignKeys.size >= MICROSOFT_CAMPAIGNS_PER_ACCOUNT)
      return w.reject(atMost(MICROSOFT_CAMPAIGNS_PER_ACCOUNT, 'campaigns per account'));
    const { names, unknown } = languagesOf(cell(row, at.languages));
    if (unknown.length > 0)
      w.note(
        'Campaign',
        name,
        '',
        unknown.join(';'),
        'Changed',
        `Microsoft has no Search language for ${unknown.join(', ')}: ${names.length > 0 ? 'left out' : 'the campaign targets all languages'}`,
      );
    const key = w.newKey();
    w.campaignKeys.set(name, key);
    this.pending = {
      name,
      key,
      status,
      budget,
      language: names.length > 0 ? names.join(';') : 'All',
      locations: locationIdsOf(location),
    };
  }

  /** Writes the campaign waiting for its location rows, and its locations Microsoft knows. */
  end(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const w = this.w;
    const mapped = this.mapped(p);
    if (p.locations.length > 0 && mapped.length === 0 && p.status === 'Active') {
      p.status = 'Paused';
      w.note(
        'Campaign',
        p.name,
        '',
        p.name,
        'Paused',
        'none of its locations could be written, and a Microsoft campaign without locations shows everywhere: add its locations, then enable it',
      );
    }
    const r = w.record('Campaign');
    r[C.Status!] = p.status;
    r[C.Id!] = p.key;
    r[C['Parent Id']!] = '0';
    r[C.Campaign!] = p.name;
    r[C['Budget Type']!] = 'DailyBudgetStandard';
    r[C['Campaign Type']!] = 'Search';
    r[C.Budget!] = p.budget;
    r[C.Language!] = p.language;
    w.add(bulkLine(r));
    if (w.label) w.add(w.labelLine(Labelled.Campaign, p.key));
    for (const id of mapped) {
      const l = w.record('Campaign Location Criterion');
      l[C.Status!] = 'Active';
      l[C['Parent Id']!] = p.key;
      l[C.Campaign!] = p.name;
      l[C.Target!] = id;
      w.add(bulkLine(l));
    }
  }

  /** The campaign's Microsoft Location Ids; each Google location without one reported. */
  private mapped(p: PendingCampaign): string[] {
    const mapped: string[] = [];
    for (const google of p.locations) {
      const answer = this.locate?.(google);
      const id = typeof answer === 'object' ? ('id' in answer ? answer.id : undefined) : answer;
      if (id === undefined)
        this.w.note(
          'Campaign Location Criterion',
          p.name,
          '',
          google,
          'Not written',
          typeof answer === 'object' && 'reason' in answer
            ? answer.reason
            : `Google location ${google} has no Microsoft location ID known to Adloom: add the location in Microsoft Advertising`,
        );
      else if (!mapped.includes(id)) mapped.push(id);
    }
    return mapped;
  }
}

/** The ad groups table's ad groups, in campaigns of this file or not. */
export class AdGroupRows implements RowReader {
  private at = { campaign: -1, adGroup: -1, status: -1 };

  constructor(private readonly w: BulkWriter) {}

  columns(headers: readonly string[]): void {
    this.at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      status: columnOf(headers, 'Ad Group Status'),
    };
  }

  row(row: readonly string[]): void {
    const { w, at } = this;
    const campaign = cell(row, at.campaign);
    const adGroup = cell(row, at.adGroup);
    if (adGroup === '' || w.newGroups.indexOf(campaign, adGroup) >= 0) return;
    if (w.isRefused(campaign, adGroup)) return;
    w.setItem('Ad Group', campaign, adGroup, adGroup);
    const status = w.statusOf(row, at.status, 'ad group');
    if (status === undefined) return w.refuse(campaign, adGroup);
    const problem = w.groupProblem(campaign, adGroup);
    if (problem !== undefined) {
      w.refuse(campaign, adGroup);
      return w.reject(problem);
    }
    w.addGroup(campaign, adGroup, status);
  }
}

/** The columns of a keywords or negatives table. */
function keywordColumns(headers: readonly string[]) {
  return {
    campaign: columnOf(headers, 'Campaign'),
    adGroup: columnOf(headers, 'Ad Group'),
    keyword: columnOf(headers, 'Keyword'),
    type: columnOf(headers, 'Criterion Type', 'Match Type'),
    status: columnOf(headers, 'Status'),
  };
}

/** A keywords or negatives table's reader: its columns. */
abstract class KeywordTableRows implements RowReader {
  protected at = keywordColumns([]);

  constructor(protected readonly w: BulkWriter) {}

  columns(headers: readonly string[]): void {
    this.at = keywordColumns(headers);
  }

  abstract row(row: readonly string[]): void;
}

/** Keywords, under their ad group. */
export class KeywordRows extends KeywordTableRows {
  row(row: readonly string[]): void {
    const { w, at } = this;
    const campaign = cell(row, at.campaign);
    const adGroup = cell(row, at.adGroup);
    const keyword = cell(row, at.keyword);
    const match = cell(row, at.type) || 'Broad';
    w.setItem('Keyword', campaign, adGroup, keyword);
    if (match !== 'Broad' && match !== 'Phrase' && match !== 'Exact')
      return w.reject(`Microsoft has no ${match} keyword`);
    if (!w.keywordFits(keyword)) return;
    const status = w.statusOf(row, at.status, 'keyword');
    if (status === undefined) return;
    const gi = w.groupIndex(campaign, adGroup);
    if (!w.countInGroup(gi, MICROSOFT_KEYWORDS_PER_AD_GROUP, 'keywords')) return;
    w.count('Keyword');
    const parent = w.newGroups.keyOfIndex(gi);
    if (w.checkOnly) return;
    const lines = w.keywordLines;
    if (w.label) {
      const key = w.newKey();
      w.add(
        lines.line('Keyword', status, parent, campaign, adGroup, gi, keyword, match, key) +
          w.labelLine(Labelled.Keyword, key),
      );
    } else w.add(lines.line('Keyword', status, parent, campaign, adGroup, gi, keyword, match));
  }
}

/** Negative keywords, on their ad group or, without one, their campaign. */
export class NegativeRows extends KeywordTableRows {
  private readonly perCampaign = new Map<string, number>();

  row(row: readonly string[]): void {
    const { w, at } = this;
    const campaign = cell(row, at.campaign);
    const adGroup = cell(row, at.adGroup);
    const keyword = cell(row, at.keyword);
    const type = cell(row, at.type);
    const parsed = NEGATIVE_TYPES.get(type);
    const onCampaign = adGroup === '' || (parsed?.onCampaign ?? false);
    const kind = onCampaign ? 'Campaign Negative Keyword' : 'Ad Group Negative Keyword';
    w.setItem(kind, campaign, adGroup, keyword);
    if (!w.keywordFits(keyword)) return;
    let match = parsed?.match ?? type;
    if (match === 'Broad') {
      // Microsoft's negatives are Phrase or Exact. A one-word phrase negative blocks what a
      // broad one does; a longer one blocks only the words in that order: said in the report.
      match = 'Phrase';
      if (/\s/.test(keyword.trim()))
        w.note(
          kind,
          campaign,
          adGroup,
          keyword,
          'Changed',
          'Microsoft has no broad match negative: written as a phrase negative, which blocks only searches with these words in this order',
        );
    }
    if (match !== 'Phrase' && match !== 'Exact')
      return w.reject(`Microsoft has no ${type} negative`);
    let parent: string | undefined;
    let group = -1;
    if (onCampaign) {
      const n = this.perCampaign.get(campaign) ?? 0;
      if (n >= MICROSOFT_NEGATIVES_PER_PARENT)
        return w.reject(atMost(MICROSOFT_NEGATIVES_PER_PARENT, 'negatives per campaign'));
      this.perCampaign.set(campaign, n + 1);
      parent = w.campaignKeys.get(campaign);
    } else {
      group = w.groupIndex(campaign, adGroup);
      if (!w.countInGroup(group, MICROSOFT_NEGATIVES_PER_PARENT, 'negatives')) return;
      parent = w.newGroups.keyOfIndex(group);
    }
    w.count(kind);
    if (w.checkOnly) return;
    w.add(
      w.keywordLines.line(
        kind,
        'Active',
        parent,
        campaign,
        onCampaign ? '' : adGroup,
        group,
        keyword,
        match,
      ),
    );
  }
}

/** The place columns of headline and description lists. */
function listColumns(headers: readonly string[], noun: string, n: number): [number, number][] {
  const list: [number, number][] = [];
  for (let i = 1; i <= n; i++)
    list.push([columnOf(headers, `${noun} ${i}`), columnOf(headers, `${noun} ${i} position`)]);
  return list;
}

/** Responsive search ads: Microsoft's checks of their lists, paths and URL, then their line. */
export class AdRows implements RowReader {
  private at = { campaign: -1, adGroup: -1, url: -1, status: -1, h1: -1 };
  private heads!: AssetList;
  private descs!: AssetList;
  private path1 = new PathColumn(-1);
  private path2 = new PathColumn(-1);

  constructor(private readonly w: BulkWriter) {}

  columns(headers: readonly string[]): void {
    const headColumns = listColumns(headers, 'Headline', RSA_MAX_HEADLINES);
    const descColumns = listColumns(headers, 'Description', RSA_MAX_DESCRIPTIONS);
    this.heads = new AssetList(
      headColumns,
      'headline',
      'Headline',
      RSA_MIN_HEADLINES,
      RSA_HEADLINE_MAX_CHARS,
      RSA_HEADLINE_MAX_PIN,
    );
    this.descs = new AssetList(
      descColumns,
      'description',
      'Description',
      RSA_MIN_DESCRIPTIONS,
      RSA_DESCRIPTION_MAX_CHARS,
      RSA_DESCRIPTION_MAX_PIN,
    );
    this.at = {
      campaign: columnOf(headers, 'Campaign'),
      adGroup: columnOf(headers, 'Ad Group'),
      url: columnOf(headers, 'Final URL'),
      status: columnOf(headers, 'Status'),
      h1: headColumns[0]![0],
    };
    this.path1 = new PathColumn(columnOf(headers, 'Path 1'));
    this.path2 = new PathColumn(columnOf(headers, 'Path 2'));
  }

  row(row: readonly string[]): void {
    const { w, at, heads, descs, path1, path2 } = this;
    const campaign = cell(row, at.campaign);
    const adGroup = cell(row, at.adGroup);
    w.setItem('Responsive Search Ad', campaign, adGroup, cell(row, at.h1));
    const url = cell(row, at.url);
    const problem = rsaProblem(row, heads, descs, url, path1, path2);
    if (problem !== undefined) return w.reject(problem);
    const status = w.statusOf(row, at.status, 'ad');
    if (status === undefined) return;
    const gi = w.groupIndex(campaign, adGroup);
    if (
      status === 'Active' &&
      !w.countInGroup(gi, MICROSOFT_ACTIVE_RSAS_PER_AD_GROUP, 'active responsive search ads')
    )
      return;
    w.count('Responsive Search Ad');
    if (w.checkOnly) return;
    // Type to Ad Group, 10 commas to Final Url, its cells, the commas to the end.
    const parent = w.newGroups.keyOfIndex(gi);
    const prefix = w.rsaLines.prefix('Responsive Search Ad', status, parent, campaign, adGroup, gi);
    const key = w.label ? w.newKey() : '';
    w.add(
      (w.label ? w.rsaLines.withId(key) : prefix) +
        COMMAS[C['Final Url']! - C['Ad Group']!]! +
        formatCsvCell(url) +
        ',' +
        heads.cell(row) +
        ',' +
        descs.cell(row) +
        ',' +
        path1.csv +
        ',' +
        path2.csv +
        w.tails.rsa +
        (w.label ? w.labelLine(Labelled.Ad, key) : ''),
    );
  }
}
