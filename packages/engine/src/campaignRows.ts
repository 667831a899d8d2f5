/** Campaign rows and group keys: shared by the structure routine and the fast keyword path. */
import {
  compilePattern,
  fillPattern,
  type CompiledPattern,
  type PlaceholderValues,
} from './text.ts';
import type { AdGroupRef, AssetGroupRef, CampaignTemplate, FeedRow } from './types.ts';

/** Editor's Campaign Type values. */
export type EditorCampaignType = 'Search' | 'Performance Max';

/** One campaign of the output, with the columns its settings ask for. */
export interface CampaignRow {
  campaign: string;
  campaignType: EditorCampaignType;
  /** Budget when the template's budget setting is included. */
  budget?: number;
  /**
   * Location IDs joined by ';' (each a Google criteria ID, once): the roots of the campaign's rows
   * for a location campaign, else the template's location of its rows, when included.
   */
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

/** A Google location criteria ID: digits, no leading zero. */
const CRITERIA_ID = /^[1-9]\d*$/;
/** An ID a spreadsheet wrote as a decimal number ("2826.0"): repaired to its digits. */
const DECIMAL_ID = /^([1-9]\d*)\.0+$/;

/** What a row's location value holds: the IDs to write, and what was refused or repaired. */
export interface RowLocations {
  /** Valid IDs, each once, in order. */
  ids: string[];
  /** Parts that are not IDs ("1.00689E+06", "abc", "00123"): not written. */
  refused: string[];
  /** Parts repaired: [as typed, as written]. */
  repaired: Array<[string, string]>;
}

/**
 * The location IDs of a location value (IDs separated by `;`, `,` or line breaks). Only plain
 * Google criteria IDs are written: a spreadsheet's "2826.0" is repaired to 2826 (reported), and
 * anything else (scientific notation, which lost digits; letters; a leading zero) is refused.
 */
export function readLocationIds(value: string): RowLocations {
  const out: RowLocations = { ids: [], refused: [], repaired: [] };
  for (const part of value.split(/[;,\r\n]/)) {
    const typed = part.trim();
    if (typed === '') continue;
    let id = typed;
    if (!CRITERIA_ID.test(id)) {
      const decimal = DECIMAL_ID.exec(id);
      if (!decimal) {
        if (!out.refused.includes(typed)) out.refused.push(typed);
        continue;
      }
      id = decimal[1] as string;
      out.repaired.push([typed, id]);
    }
    if (!out.ids.includes(id)) out.ids.push(id);
  }
  return out;
}

/** A row problem of the locations: a skipped row, or a cleaned location. */
export interface LocationProblem {
  kind: 'skipped' | 'cleaned';
  code: 'no-valid-location' | 'location-id-refused' | 'location-id-repaired';
  message: string;
}

/** Why a location ID is refused. */
const NOT_AN_ID =
  'is not a Google location ID (digits without a leading zero; a spreadsheet may have changed it)';

/**
 * The campaign row maker of a template, and the locations of its rows. `read(row, values)`
 * first: it reads the row's location (the row's root for a location campaign, else the
 * template's location when included) and says whether the row may make a campaign (false: a
 * location was needed and none is valid; the row is not written, so no campaign targets every
 * country). Then `make` gives the row of a campaign first seen on that row, and `add` gives an
 * existing campaign's row the row's locations (each ID once: Editor takes one location a row,
 * see `campaignsTable`). `problems` holds the last read row's problems, to report.
 */
export class CampaignRowMaker {
  readonly problems: LocationProblem[] = [];
  /** The template writes locations (a location campaign, or its location included). */
  readonly hasLocations: boolean;
  private ids: readonly string[] = [];
  private readonly settings: CampaignTemplate['settings'];
  private readonly optionalSettings: Array<{ name: string; pattern: CompiledPattern }>;
  private readonly locationPattern: CompiledPattern;
  private readonly campaignType: EditorCampaignType;
  /** Each campaign row's IDs so far. */
  private readonly written = new WeakMap<CampaignRow, Set<string>>();

  constructor(template: CampaignTemplate) {
    this.settings = template.settings;
    this.optionalSettings = this.settings.optionalSettings
      .filter((s) => s.selected && s.name.trim() !== '')
      .map((s) => ({ name: s.name.trim(), pattern: compilePattern(s.value) }));
    this.locationPattern = compilePattern(this.settings.location.value);
    this.campaignType = template.type === 'performance' ? 'Performance Max' : 'Search';
    this.hasLocations = this.settings.isLocationCampaign || this.settings.location.selected;
  }

  /** Reads the row's location; false when the row may make no campaign (see the class). */
  read(row: FeedRow, values: PlaceholderValues): boolean {
    if (!this.hasLocations) return true;
    const { settings, problems } = this;
    problems.length = 0;
    const isLocationCampaign = settings.isLocationCampaign;
    const value = isLocationCampaign ? row.root : fillPattern(this.locationPattern, values);
    const read = readLocationIds(value);
    this.ids = read.ids;
    for (const [typed, id] of read.repaired)
      problems.push({
        kind: 'cleaned',
        code: 'location-id-repaired',
        message: `Location ID "${typed}" is written ${id} (a spreadsheet wrote the ID as a decimal number)`,
      });
    if (read.ids.length > 0) {
      for (const typed of read.refused)
        problems.push({
          kind: 'cleaned',
          code: 'location-id-refused',
          message: `Location ID "${typed}" ${NOT_AN_ID}: it is not written`,
        });
      return true;
    }
    // A default campaign whose included location is blank keeps no location, as before.
    if (!isLocationCampaign && value.trim() === '') return true;
    const why =
      read.refused.length > 0
        ? `Location ID "${read.refused.join('", "')}" ${NOT_AN_ID}`
        : "Location ID is empty (a location campaign takes each row's location from Root)";
    problems.push({
      kind: 'skipped',
      code: 'no-valid-location',
      message: `${why}: the row is not written, so no campaign of it targets every country`,
    });
    return false;
  }

  /**
   * The row of a campaign first seen on the row just read (`values` hold that row, the
   * template's constant and an empty `{mt}`).
   */
  make(campaign: string, row: FeedRow, values: PlaceholderValues): CampaignRow {
    const { settings } = this;
    const c: CampaignRow = {
      campaign,
      campaignType: this.campaignType,
      settings: {},
      rowId: row.id,
    };
    if (settings.budget.selected) c.budget = settings.budget.value;
    if (this.hasLocations) {
      c.locationId = this.ids.join(';');
      this.written.set(c, new Set(this.ids));
    }
    for (const s of this.optionalSettings) c.settings[s.name] = fillPattern(s.pattern, values);
    return c;
  }

  /** Adds the locations of the row just read to its campaign's row `c`. */
  add(c: CampaignRow): void {
    const written = this.written.get(c);
    if (!written) return;
    for (const id of this.ids) {
      if (written.has(id)) continue;
      written.add(id);
      c.locationId = c.locationId ? `${c.locationId};${id}` : id;
    }
  }
}
