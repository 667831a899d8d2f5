import {
  forEachKeywordLine,
  type AdGroupRef,
  type AssetGroupRef,
  type CampaignTemplate,
  type FeedRow,
} from '@adloom/engine';
import { ColumnPacker, Uint32Builder, readPackedValue, type PackedValues } from './packTable.ts';

/** An ad group as the ad jobs read it (the engine's ads input). */
export interface AdGroupFields {
  campaign: string;
  adGroup: string;
  id: string;
}

/**
 * The ad group names of a keyword output, each kept once, by the engine's group id: the Keywords
 * and Negatives tables' Ad Group columns and the kept ad groups all pick them by code. (The
 * negatives repeat the keywords' ad groups: 100k rows made 300k ad groups named on 700k lines.)
 * Code 0 is the empty name of a campaign negative.
 */
export class AdGroupNames {
  readonly values = new ColumnPacker();
  /** Per engine group id, its value's code + 1 (0: not seen yet). */
  private codes = new Int32Array(1024);

  constructor() {
    this.values.appendValue('');
  }

  /** The code of an ad group's name (`groupId` from the engine, -1 when it gave none). */
  code(adGroup: string, groupId: number): number {
    if (adGroup === '') return 0;
    if (groupId < 0) return this.values.appendValue(adGroup);
    if (groupId >= this.codes.length) {
      const grown = new Int32Array(Math.max(groupId + 1, this.codes.length * 2));
      grown.set(this.codes);
      this.codes = grown;
    }
    const known = this.codes[groupId] as number;
    if (known > 0) return known - 1;
    const code = this.values.appendValue(adGroup);
    this.codes[groupId] = code + 1;
    return code;
  }
}

/**
 * The ad groups of a keyword output, kept for the ad jobs: names by code in the packed names,
 * campaigns by code, and each group's feed row id (a string the row holds anyway). An object is
 * made per group only while it is read. Keeping the engine's 300k group objects, each holding its
 * name, made the garbage collector carry 48 MB more through the keyword job (72 MB promoted
 * instead of 24, its pauses 328 ms instead of 94, in Node over the bench's 100k rows).
 */
export class AdGroupList implements Iterable<AdGroupFields> {
  constructor(
    private readonly names: PackedValues,
    private readonly nameCodes: Uint32Array,
    private readonly campaigns: readonly string[],
    private readonly campaignCodes: Uint32Array,
    private readonly ids: readonly string[],
  ) {}

  get length(): number {
    return this.ids.length;
  }

  *[Symbol.iterator](): Iterator<AdGroupFields> {
    for (let i = 0; i < this.ids.length; i += 1)
      yield {
        campaign: this.campaigns[this.campaignCodes[i] as number] as string,
        adGroup: readPackedValue(this.names, this.nameCodes[i] as number),
        id: this.ids[i] as string,
      };
  }
}

/** Collects the ad groups of a keyword run into an AdGroupList. */
export class AdGroupCollector {
  private readonly nameCodes = new Uint32Builder();
  private readonly campaigns: string[] = [];
  private readonly campaignCodes = new Uint32Builder();
  private readonly ids: string[] = [];
  private lastCampaign: string | undefined;

  constructor(private readonly names: AdGroupNames) {}

  readonly add = (group: AdGroupRef, groupId = -1): void => {
    this.nameCodes.push(this.names.code(group.adGroup, groupId));
    if (group.campaign !== this.lastCampaign) {
      this.campaigns.push(group.campaign);
      this.lastCampaign = group.campaign;
    }
    this.campaignCodes.push(this.campaigns.length - 1);
    this.ids.push(group.id);
  };

  /**
   * The list, reading its names from `names` (the names' finished values). The arrays are
   * copied: a result's own arrays are moved or changed on their way to the page.
   */
  finish(names: PackedValues): AdGroupList {
    return new AdGroupList(
      {
        texts: [...names.texts],
        pieceStarts: [...names.pieceStarts],
        offsets: names.offsets.slice(),
      },
      this.nameCodes.finish(),
      this.campaigns,
      this.campaignCodes.finish(),
      this.ids,
    );
  }
}

/** What the ad jobs need of a campaign template's structure: its ad groups and asset groups. */
export interface CampaignGroups {
  adGroups: AdGroupList;
  assetGroups: AssetGroupRef[];
}

function ignoreLine(): void {}

/**
 * The ad groups and asset groups of `template` over `rows`, through the engine's fast path
 * (no keyword line is kept; the lines are made and dropped).
 */
export function campaignGroupsOf(
  template: CampaignTemplate,
  rows: readonly FeedRow[],
): CampaignGroups {
  const names = new AdGroupNames();
  const adGroups = new AdGroupCollector(names);
  const assetGroups: AssetGroupRef[] = [];
  forEachKeywordLine(
    { template, rows },
    {
      keywords: ignoreLine,
      negatives: ignoreLine,
      adGroups: adGroups.add,
      assetGroups: (g) => assetGroups.push(g),
    },
  );
  return { adGroups: adGroups.finish(names.values.finishValues()), assetGroups };
}
