/**
 * Google's limits on the assets of one place (the account, a campaign, an ad group): at most
 * `ASSETS_PER_PLACE_MAX` sitelinks, callouts and structured snippets each, and no sitelink link
 * text or callout text twice, compared ignoring case and Unicode form (NFKC, then case folded).
 * What is left out is reported once per place (and repeated text), with how many.
 */
import type { RowIssue } from './issues.ts';
import { ASSETS_PER_PLACE_MAX } from './limits.ts';
import type { ExtensionTypeName, ExtensionValues } from './types.ts';

/** The Campaign cell of an account-level asset in Editor files. */
export const ACCOUNT_LEVEL_CAMPAIGN = '<Account-level>';

/** An asset in its place (a `GeneratedExtension`). */
interface PlacedAsset {
  values: ExtensionValues;
  rowId: string;
  campaign: string;
  adGroup: string;
}

/** The field whose text Google takes once per place, by asset type. */
const UNIQUE_FIELD: Partial<Record<ExtensionTypeName, string>> = {
  Sitelink: 'Link Text',
  Callout: 'Callout text',
};

/** The asset type's plural as reports say it. */
const PLURALS: Record<ExtensionTypeName, string> = {
  Sitelink: 'sitelinks',
  Callout: 'callouts',
  'Structured Snippet': 'structured snippets',
};

/** A text as Google compares asset texts: NFKC, case folded. */
function foldAssetText(text: string): string {
  return text.normalize('NFKC').toUpperCase().toLowerCase();
}

/** What was left out of one place: the first row left out, and how many. */
interface LeftOut {
  place: string;
  rowId: string;
  rowNumber: number;
  count: number;
  /** For a repeated text: the text as first written. */
  text?: string;
}

/** One place's assets so far. */
interface Place {
  count: number;
  texts: Map<string, string>;
}

/** The assets of one type, place by place (see the file comment). */
export class AssetPlaces {
  private readonly places = new Map<string, Place>();
  private readonly overflow = new Map<string, LeftOut>();
  private readonly repeated = new Map<string, LeftOut>();
  private readonly field: string | undefined;

  constructor(private readonly type: ExtensionTypeName) {
    this.field = UNIQUE_FIELD[type];
  }

  /**
   * Whether the asset can be written; if not, it is counted for the report. `rowNumber`: its
   * row's number, or how to find it (asked only for an asset left out first in its place).
   */
  accept(e: PlacedAsset, rowNumber: number | (() => number)): boolean {
    const key = `${e.campaign}\u001f${e.adGroup}`;
    let place = this.places.get(key);
    if (!place) {
      place = { count: 0, texts: new Map() };
      this.places.set(key, place);
    }
    const leave = (into: Map<string, LeftOut>, at: string, text?: string): false => {
      const left = into.get(at);
      if (left) left.count++;
      else
        into.set(at, {
          place: describePlace(e),
          rowId: e.rowId,
          rowNumber: typeof rowNumber === 'number' ? rowNumber : rowNumber(),
          count: 1,
          text,
        });
      return false;
    };
    if (this.field !== undefined) {
      const text = e.values[this.field] ?? '';
      const folded = foldAssetText(text);
      const first = place.texts.get(folded);
      if (first !== undefined) return leave(this.repeated, `${key}\u001f${folded}`, first);
      if (place.count >= ASSETS_PER_PLACE_MAX) return leave(this.overflow, key);
      place.texts.set(folded, text);
    } else if (place.count >= ASSETS_PER_PLACE_MAX) return leave(this.overflow, key);
    place.count++;
    return true;
  }

  /** The reports of what was left out, once per place (and repeated text). */
  issues(output: string): RowIssue[] {
    const what = PLURALS[this.type];
    const field = this.field?.toLowerCase();
    const issue = (left: LeftOut, message: string, code: string): RowIssue => ({
      kind: 'skipped',
      output,
      rowId: left.rowId,
      rowNumber: left.rowNumber,
      code,
      message,
    });
    const out: RowIssue[] = [];
    for (const left of this.repeated.values())
      out.push(
        issue(
          left,
          `${capitalise(left.place)}: ${count(left.count, what)} with the ${field} "${left.text}" left out (Google takes each ${field} once in a place, ignoring case)`,
          'repeated-asset-text',
        ),
      );
    for (const left of this.overflow.values())
      out.push(
        issue(
          left,
          `${capitalise(left.place)}: ${count(left.count, what)} more left out (Google takes at most ${ASSETS_PER_PLACE_MAX} ${what} in a place)`,
          'too-many-assets',
        ),
      );
    return out;
  }
}

/** 'the account', 'campaign "Shoes"', 'ad group "Nike" of campaign "Shoes"'. */
function describePlace(e: PlacedAsset): string {
  if (e.campaign === ACCOUNT_LEVEL_CAMPAIGN) return 'the account';
  if (e.adGroup === '') return `campaign "${e.campaign}"`;
  return `ad group "${e.adGroup}" of campaign "${e.campaign}"`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function count(n: number, plural: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? plural.slice(0, -1) : plural}`;
}
