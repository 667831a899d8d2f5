/** Campaign rows and group keys: shared by the structure routine and the fast keyword path. */
import { compilePattern, fillPattern, type PlaceholderValues } from './text.ts';
import type { AdGroupRef, AssetGroupRef, CampaignTemplate, FeedRow } from './types.ts';

/** Editor's Campaign Type values. */
export type EditorCampaignType = 'Search' | 'Performance Max';

/** One campaign of the output, with the columns its settings ask for. */
export interface CampaignRow {
  campaign: string;
  campaignType: EditorCampaignType;
  /** Budget when the template's budget setting is included. */
  budget?: number;
  /** Location ID: the row's root for a location campaign, else the template's location when included. */
  locationId?: string;
  /** Included optional settings: Editor column name -> value. */
  settings: Record<string, string>;
  /** Id of the feed row that first produced it. */
  rowId: string;
}

/** Key of an ad group or asset group: campaign and group name. */
export function groupKey(campaign: string, group: string): string {
  return `${campaign}\u001f${group}`;
}

/**
 * An ad group as the engine makes it. Its key is made when it is read: few consumers read it,
 * and making 300k keys as the groups were made was a third of the time of the keyword lines of
 * 100k rows (each key a new string the garbage collector then carried along).
 */
export class GeneratedAdGroup implements AdGroupRef {
  constructor(
    readonly campaign: string,
    readonly adGroup: string,
    readonly id: string,
  ) {}
  get key(): string {
    return groupKey(this.campaign, this.adGroup);
  }
  /** As JSON it holds its key, as the spec's ad group does. */
  toJSON(): AdGroupRef {
    return { key: this.key, campaign: this.campaign, adGroup: this.adGroup, id: this.id };
  }
}

/** An asset group as the engine makes it (its key made when read, as GeneratedAdGroup's). */
export class GeneratedAssetGroup implements AssetGroupRef {
  constructor(
    readonly campaign: string,
    readonly assetGroup: string,
    readonly id: string,
  ) {}
  get key(): string {
    return groupKey(this.campaign, this.assetGroup);
  }
  toJSON(): AssetGroupRef {
    return { key: this.key, campaign: this.campaign, assetGroup: this.assetGroup, id: this.id };
  }
}

/**
 * The campaign row maker of a template: `(campaign, row, values)` gives the row of a campaign
 * first seen on `row` (`values` hold that row, the template's constant and an empty `{mt}`).
 */
export function compileCampaignRow(
  template: CampaignTemplate,
): (campaign: string, row: FeedRow, values: PlaceholderValues) => CampaignRow {
  const settings = template.settings;
  const optionalSettings = settings.optionalSettings
    .filter((s) => s.selected && s.name.trim() !== '')
    .map((s) => ({ name: s.name.trim(), pattern: compilePattern(s.value) }));
  const locationPattern = compilePattern(settings.location.value);
  const campaignType: EditorCampaignType =
    template.type === 'performance' ? 'Performance Max' : 'Search';
  return (campaign, row, values) => {
    const c: CampaignRow = { campaign, campaignType, settings: {}, rowId: row.id };
    if (settings.budget.selected) c.budget = settings.budget.value;
    if (settings.isLocationCampaign) c.locationId = row.root.trim();
    else if (settings.location.selected) c.locationId = fillPattern(locationPattern, values);
    for (const s of optionalSettings) c.settings[s.name] = fillPattern(s.pattern, values);
    return c;
  };
}
