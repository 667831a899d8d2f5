/**
 * The live Microsoft Advertising account as a baseline: a bulk download of the account
 * (Microsoft's Bulk File Schema, format version 6.0, CSV or tab-separated) read into the same
 * items the Google account plan reads from an Editor export, each matched by the same identity
 * (names; keyword text and match type; an ad's texts and pins...), keeping its Microsoft `Id`,
 * `Parent Id` and status. Labels are records of their own in a bulk file: the client's label is a
 * `Label` record (its name in the `Label` column), applied by `Campaign Label`, `Ad Group Label`,
 * `Keyword Label` and `Responsive Search Ad Label` records (label `Id`, entity `Parent Id`).
 * Items without it are never changed (as for Google); negatives and extensions, which take no
 * label, belong to whoever owns their ad group, else their campaign. The download is read in
 * pieces (`MicrosoftAccountReader`). Sources: docs/decisions.md, "Microsoft Advertising: the
 * change plan" and "Microsoft Advertising: the loop's last gaps".
 */
import { forEachCsvRecord } from '../csv.ts';
import { RSA_MAX_DESCRIPTIONS, RSA_MAX_HEADLINES } from '../limits.ts';
import { TextDecoding } from './account.ts';
import { type Baseline, BaselineBuilder } from './baseline.ts';
import { PLAN_KIND_SPECS, normalizeHeader, parseItemStatus, type PlanItemKind } from './kinds.ts';
import { DEFAULT_CLIENT_LABEL, hashField, normalizeFieldValue } from './items.ts';

/** Options of reading a bulk download. */
export interface MicrosoftAccountOptions {
  /** The client's label (default `adloom`), compared without case. */
  label?: string;
}

/** The record types whose rows become items, by the kind they make. */
const ITEM_TYPES: ReadonlyMap<string, PlanItemKind> = new Map([
  ['campaign', 'campaign'],
  ['ad group', 'ad-group'],
  ['keyword', 'keyword'],
  ['ad group negative keyword', 'negative'],
  ['campaign negative keyword', 'negative'],
  ['responsive search ad', 'responsive-search-ad'],
]);

/** Microsoft's extension record types, by their kind and the cells that make their contents. */
const EXTENSION_TYPES: ReadonlyMap<string, PlanItemKind> = new Map([
  ['sitelink ad extension', 'sitelink'],
  ['callout ad extension', 'callout'],
  ['structured snippet ad extension', 'structured-snippet'],
]);

/** Label association record types (the entity's `Id` in `Parent Id`). */
const LABEL_TYPES: ReadonlySet<string> = new Set([
  'campaign label',
  'ad group label',
  'keyword label',
  'responsive search ad label',
]);

/** Records a download holds that are not items of a build and need no reading. */
const PASSED_TYPES: ReadonlySet<string> = new Set(['format version', 'account']);

/** Microsoft's ids of one baseline item. */
export interface MicrosoftItemIds {
  /** Its `Id` (an extension association: the extension's). */
  id: string;
  /** Its `Parent Id` (the ad group's, the campaign's, the account's). */
  parentId: string;
  /** Its record type as the download names it ('Keyword', 'Campaign Callout Ad Extension'). */
  type: string;
}

/** What a bulk download held besides its items. */
export interface MicrosoftAccountSummary {
  /** Records read (header and Format Version not counted). */
  rows: number;
  /** Records of entities a build does not make (other ad types, criteria, audiences...). */
  otherRows: number;
}

/** A bulk download read: the baseline, and what a changes file needs of the account. */
export interface MicrosoftAccount {
  baseline: Baseline;
  /** Per baseline item (by index): its Microsoft ids and record type. */
  ids: readonly MicrosoftItemIds[];
  /** The `Id` of the client's label, when the account has it. */
  labelId: string | undefined;
  /** Campaign ids by name, ad group ids by campaign and name (`campaign\u0000adGroup`). */
  campaignIds: ReadonlyMap<string, string>;
  adGroupIds: ReadonlyMap<string, string>;
  /** Library extensions by contents (`microsoftExtensionKey`): their ids. */
  extensionIds: ReadonlyMap<string, string>;
  summary: MicrosoftAccountSummary;
}

/** A snippet header as identities compare it (Microsoft spells its headers with one capital). */
export function snippetHeaderKey(header: string): string {
  return header.trim().toLowerCase();
}

/** Snippet values as identities compare them: trimmed, empty ones dropped, `;`-joined. */
export function snippetValuesKey(values: string): string {
  return values
    .split(';')
    .map((v) => v.trim())
    .filter((v) => v !== '')
    .join(';');
}

/** The key of an extension by its contents (record type and its text cells). */
export function microsoftExtensionKey(kind: PlanItemKind, cells: readonly string[]): string {
  return `${kind}\u0000${cells.join('\u0000')}`;
}

/** A pinned field ('Headline2', 'Description1') as an Editor position cell ('2', '1'). */
function positionOf(pinnedField: unknown): string {
  if (typeof pinnedField !== 'string') return '';
  const m = /(\d+)$/.exec(pinnedField);
  return m ? String(Number(m[1])) : '';
}

/** The texts and positions of a Headline or Description list (JSON), in order; [] if unreadable. */
function assetList(json: string): { text: string; position: string }[] {
  if (json.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: { text: string; position: string }[] = [];
  for (const a of parsed as unknown[]) {
    if (typeof a !== 'object' || a === null) continue;
    const text = (a as { text?: unknown }).text;
    if (typeof text !== 'string' || text === '') continue;
    out.push({ text, position: positionOf((a as { pinnedField?: unknown }).pinnedField) });
  }
  return out;
}

/**
 * A responsive search ad's identity cells after its place, as `PLAN_KIND_SPECS` lists them
 * (Headline 1..15, their positions, Description 1..4, their positions, Path 1, Path 2), from its
 * texts in order: the ones a bulk file lists, and a build's rows alike (`microsoftPlanTables`).
 */
export function rsaIdentityCells(
  headlines: readonly { text: string; position: string }[],
  descriptions: readonly { text: string; position: string }[],
  path1: string,
  path2: string,
): string[] {
  const cells: string[] = [];
  for (let i = 0; i < RSA_MAX_HEADLINES; i++) cells.push(headlines[i]?.text ?? '');
  for (let i = 0; i < RSA_MAX_HEADLINES; i++) cells.push(headlines[i]?.position ?? '');
  for (let i = 0; i < RSA_MAX_DESCRIPTIONS; i++) cells.push(descriptions[i]?.text ?? '');
  for (let i = 0; i < RSA_MAX_DESCRIPTIONS; i++) cells.push(descriptions[i]?.position ?? '');
  cells.push(path1, path2);
  return cells;
}

/** Content fields a Microsoft file carries, per kind (the Google names, normalised). */
const MICROSOFT_CONTENT: Partial<Record<PlanItemKind, readonly string[]>> = {
  campaign: ['budget'],
  'responsive-search-ad': ['finalurl'],
  sitelink: ['descriptionline1', 'descriptionline2', 'finalurl'],
};

/** The content fields Microsoft's file carries for items of `kind` (normalised names). */
export function microsoftContentOf(kind: PlanItemKind): readonly string[] {
  return MICROSOFT_CONTENT[kind] ?? [];
}

/** Every content field a Microsoft baseline compares: the others are not in Microsoft's file. */
export const MICROSOFT_KNOWN_FIELDS: ReadonlySet<string> = new Set(
  Object.values(MICROSOFT_CONTENT).flat(),
);

/** An item read whose names come from its parent's Id, held until the parents are read. */
interface HeldItem {
  kind: PlanItemKind;
  type: string;
  /** Identity cells after the place (the place comes from the names or the parent's id). */
  rest: string[];
  campaign: string;
  adGroup: string;
  status: string;
  id: string;
  parentId: string;
  fields: string[];
  values: string[];
}

/** An extension association, resolved to its extension's texts at the end. */
interface HeldAssociation {
  kind: PlanItemKind;
  type: string;
  onGroup: boolean;
  campaign: string;
  adGroup: string;
  status: string;
  id: string;
  parentId: string;
}

/** The place of a record: its parent is an ad group (keywords, ads...), or a campaign. */
function isOnAdGroup(kind: PlanItemKind, type: string): boolean {
  return kind !== 'campaign' && kind !== 'ad-group' && type !== 'campaign negative keyword';
}

/**
 * A copy of `text` that holds no reference to the piece it was cut from (a cut of 13 characters
 * or more keeps its whole piece alive in V8): for what the reader keeps past a piece.
 */
function own(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

/**
 * Reads a Microsoft Advertising bulk download of the account in pieces: give it the file's bytes
 * (`pushBytes`; UTF-8, a BOM dropped) or text (`pushText`), then `end`. Commas or tabs, as the
 * header shows. Items are added to the baseline as their records come (only an item whose names
 * come from a parent not read yet is held), so the download is never one string and its records
 * are not kept. See the module's comment.
 */
export class MicrosoftAccountReader {
  private readonly label: string;
  private readonly decoding = new TextDecoding();
  private text = '';
  private at: Map<string, number> | undefined;
  private delimiter = ',';
  private readonly summary: MicrosoftAccountSummary = { rows: 0, otherRows: 0 };
  private readonly builder = new BaselineBuilder('account');
  private readonly ids: MicrosoftItemIds[] = [];
  private readonly held: HeldItem[] = [];
  private readonly associations: HeldAssociation[] = [];
  private readonly extensions = new Map<
    string,
    { kind: PlanItemKind; cells: string[]; fields: string[]; values: string[] }
  >();
  private readonly labelIds = new Set<string>();
  /** Ids of the entities the client's label is on; associations of labels not read yet. */
  private readonly owned = new Set<string>();
  private readonly laterLabels: [string, string][] = [];
  private readonly campaignIds = new Map<string, string>();
  private readonly campaignById = new Map<string, string>();
  private readonly adGroupIds = new Map<string, string>();
  private readonly adGroupById = new Map<string, [string, string]>();
  /** Record types as first read, kept once each. */
  private readonly types = new Map<string, string>();
  private readonly fieldIndices: number[] = [];
  private readonly hashes: number[] = [];

  constructor(options: MicrosoftAccountOptions = {}) {
    this.label = (options.label ?? DEFAULT_CLIENT_LABEL).trim().toLowerCase();
  }

  /** The next piece of the file's bytes. */
  pushBytes(bytes: Uint8Array): void {
    this.pushText(this.decoding.decode(bytes));
  }

  /** The next piece of the file's text (a leading BOM is dropped). */
  pushText(text: string): void {
    this.text += text;
    this.parse(false);
  }

  /** The account read. */
  end(): MicrosoftAccount {
    this.text += this.decoding.end();
    this.parse(true);
    this.text = '';
    for (const h of this.held) {
      this.placeOf(h, isOnAdGroup(h.kind, h.type.toLowerCase()));
      this.addItem(
        h.kind,
        h.type,
        h.campaign,
        h.adGroup,
        h.rest,
        h.status,
        h.id,
        h.parentId,
        h.fields,
        h.values,
      );
    }
    this.held.length = 0;
    for (const [labelId, entity] of this.laterLabels)
      if (this.labelIds.has(labelId)) this.owned.add(entity);
    const extensionIds = new Map<string, string>();
    for (const [id, ext] of this.extensions)
      extensionIds.set(microsoftExtensionKey(ext.kind, ext.cells), id);
    for (const a of this.associations) {
      const ext = this.extensions.get(a.id);
      if (!ext || ext.kind !== a.kind) {
        this.summary.otherRows++;
        continue;
      }
      this.placeOf(a, a.onGroup);
      this.add(
        a.kind,
        [a.campaign, a.onGroup ? a.adGroup : '', ...identityOfExtension(a.kind, ext.cells)],
        a.status,
        ext.fields,
        ext.values,
        { id: a.id, parentId: a.parentId, type: a.type },
      );
    }
    const baseline = this.builder.finish(MICROSOFT_KNOWN_FIELDS);
    const { ids, owned } = this;
    // Kinds with labels are Adloom's when the client's label is on them; the others take their
    // ad group's ownership, else their campaign's.
    for (let i = 0; i < baseline.size; i++)
      if (PLAN_KIND_SPECS[baseline.kindOf(i)].takesLabels)
        baseline.setOwnership(i, owned.has(ids[i]!.id), true);
    for (let i = 0; i < baseline.size; i++) {
      const kind = baseline.kindOf(i);
      if (PLAN_KIND_SPECS[kind].takesLabels) continue;
      const identity = baseline.identityOf(i);
      const adGroup = identity[1] ?? '';
      const parent =
        adGroup !== ''
          ? baseline.find('ad-group', [identity[0]!, adGroup])
          : baseline.find('campaign', [identity[0]!]);
      baseline.setOwnership(i, parent >= 0 && baseline.isOwned(parent), true);
    }
    return {
      baseline,
      ids,
      labelId: this.labelIds.values().next().value,
      campaignIds: this.campaignIds,
      adGroupIds: this.adGroupIds,
      extensionIds,
      summary: this.summary,
    };
  }

  /** Reads the records of the text so far; the last one waits for more unless `final`. */
  private parse(final: boolean): void {
    const text = this.text;
    if (text === '') return;
    if (!this.at) {
      const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
      const firstBreak = text.slice(start).search(/[\r\n]/);
      if (firstBreak < 0 && !final) return;
      const headerLine = firstBreak < 0 ? text.slice(start) : text.slice(start, start + firstBreak);
      this.delimiter = headerLine.includes('\t') ? '\t' : ',';
    }
    let keepFrom = -1;
    let last: string[] | undefined;
    let lastStart = 0;
    forEachCsvRecord(
      text,
      (cells, _line, start) => {
        if (last) this.record(last);
        last = cells;
        lastStart = start;
      },
      this.delimiter,
    );
    if (last) {
      if (final) this.record(last);
      else keepFrom = lastStart;
    }
    this.text = keepFrom >= 0 ? text.slice(keepFrom) : '';
  }

  private record(cells: string[]): void {
    if (!this.at) {
      const at = new Map<string, number>();
      cells.forEach((h, i) => {
        const n = normalizeHeader(h);
        if (!at.has(n)) at.set(n, i);
      });
      this.at = at;
      return;
    }
    if (cells.length === 1 && cells[0] === '') return;
    const at = this.at;
    const cell = (name: string): string => {
      const i = at.get(name);
      return i === undefined ? '' : (cells[i] ?? '').trim();
    };
    const read = cell('type');
    const t = read.toLowerCase();
    if (PASSED_TYPES.has(t)) return;
    this.summary.rows++;
    let type = this.types.get(read);
    if (type === undefined) this.types.set(read, (type = own(read)));
    const status = cell('status');
    // Microsoft's Ids run to 19 digits: copied off the piece too.
    const id = own(cell('id'));
    const parentId = own(cell('parentid'));
    if (t === 'label') {
      if (cell('label').toLowerCase() === this.label && status.toLowerCase() !== 'deleted')
        this.labelIds.add(id);
      return;
    }
    if (LABEL_TYPES.has(t)) {
      if (status.toLowerCase() === 'deleted') return;
      if (this.labelIds.has(id)) this.owned.add(parentId);
      else this.laterLabels.push([id, parentId]);
      return;
    }
    const campaign = own(cell('campaign'));
    const adGroup = own(cell('adgroup'));
    const extensionKind = EXTENSION_TYPES.get(t);
    if (extensionKind !== undefined) {
      if (status.toLowerCase() === 'deleted') return;
      const ext = extensionCells(extensionKind, (name) => own(cell(name)));
      this.extensions.set(id, { kind: extensionKind, ...ext });
      return;
    }
    const assoc = /^(campaign|ad group) (sitelink|callout|structured snippet) ad extension$/.exec(
      t,
    );
    if (assoc) {
      this.associations.push({
        type,
        campaign,
        adGroup,
        status,
        id,
        parentId,
        kind: EXTENSION_TYPES.get(`${assoc[2]} ad extension`)!,
        onGroup: assoc[1] === 'ad group',
      });
      return;
    }
    const kind = ITEM_TYPES.get(t);
    if (kind === undefined) {
      this.summary.otherRows++;
      return;
    }
    const fields: string[] = [];
    const values: string[] = [];
    const field = (name: string, value: string): void => {
      if (value === '') return;
      fields.push(name);
      values.push(normalizeFieldValue(name, value, this.label));
    };
    let rest: string[] = [];
    let place = { campaign, adGroup, parentId };
    switch (t) {
      case 'campaign': {
        const campaignType = cell('campaigntype');
        if (campaignType !== '' && campaignType.toLowerCase() !== 'search') {
          this.summary.otherRows++;
          return;
        }
        field('budget', cell('budget'));
        this.campaignIds.set(campaign, id);
        this.campaignById.set(id, campaign);
        break;
      }
      case 'ad group':
        if (campaign === '')
          place = { campaign: this.campaignById.get(parentId) ?? '', adGroup, parentId };
        if (place.campaign !== '') {
          this.adGroupIds.set(`${place.campaign}\u0000${adGroup}`, id);
          this.adGroupById.set(id, [place.campaign, adGroup]);
        }
        break;
      case 'keyword':
        rest = [own(cell('keyword')), own(cell('matchtype'))];
        break;
      case 'ad group negative keyword':
        rest = [own(cell('keyword')), `Negative ${cell('matchtype')}`];
        break;
      case 'campaign negative keyword':
        place = { campaign, adGroup: '', parentId };
        rest = [own(cell('keyword')), `Campaign Negative ${cell('matchtype')}`];
        break;
      case 'responsive search ad':
        rest = rsaIdentityCells(
          assetList(cell('headline')),
          assetList(cell('description')),
          own(cell('path1')),
          own(cell('path2')),
        ).map(own);
        field('finalurl', own(cell('finalurl')));
        break;
    }
    if (kind !== 'campaign') {
      this.placeOf(place, isOnAdGroup(kind, t));
      const named =
        place.campaign !== '' &&
        (kind === 'ad-group' || !isOnAdGroup(kind, t) || place.adGroup !== '');
      if (!named) {
        // Its parent is not read yet: held until the end.
        this.held.push({ kind, type, rest, ...place, status, id, parentId, fields, values });
        return;
      }
    }
    this.addItem(
      kind,
      type,
      place.campaign,
      place.adGroup,
      rest,
      status,
      id,
      parentId,
      fields,
      values,
    );
  }

  /** The names of a record that gives only its parent's Id, from that parent when read. */
  private placeOf(
    h: { campaign: string; adGroup: string; parentId?: string },
    onGroup: boolean,
  ): void {
    const parentId = h.parentId ?? '';
    if (onGroup && (h.campaign === '' || h.adGroup === '')) {
      const g = this.adGroupById.get(parentId);
      if (g) [h.campaign, h.adGroup] = g;
    } else if (!onGroup && h.campaign === '') h.campaign = this.campaignById.get(parentId) ?? '';
  }

  private addItem(
    kind: PlanItemKind,
    type: string,
    campaign: string,
    adGroup: string,
    rest: readonly string[],
    status: string,
    id: string,
    parentId: string,
    fields: readonly string[],
    values: readonly string[],
  ): void {
    if (kind === 'ad-group' && !this.adGroupById.has(id) && campaign !== '') {
      this.adGroupIds.set(`${campaign}\u0000${adGroup}`, id);
      this.adGroupById.set(id, [campaign, adGroup]);
    }
    // Campaigns are named by their campaign, ad groups by both names, the rest after both.
    const identity = kind === 'campaign' ? [campaign] : [campaign, adGroup, ...rest];
    this.add(kind, identity, status, fields, values, { id, parentId, type });
  }

  private add(
    kind: PlanItemKind,
    identity: string[],
    status: string,
    fields: readonly string[],
    values: readonly string[],
    id: MicrosoftItemIds,
  ): void {
    const { fieldIndices, hashes, builder } = this;
    fieldIndices.length = 0;
    hashes.length = 0;
    for (let f = 0; f < fields.length; f++) {
      fieldIndices.push(builder.fieldIndex(fields[f]!));
      hashes.push(hashField(fields[f]!, values[f]!));
    }
    builder.add({
      kind,
      identity,
      status: parseItemStatus(status),
      line: 0,
      fieldIndices,
      hashes,
      // Ownership is known at the end (label associations follow their entities).
      owned: false,
      droppable: true,
      ...(kind === 'responsive-search-ad' && id.id !== '' ? { adId: id.id } : {}),
    });
    this.ids.push(id);
  }
}

/**
 * Reads a Microsoft Advertising bulk download of the account from its whole text (a leading BOM
 * is dropped): `MicrosoftAccountReader` given one piece. See the module's comment.
 */
export function readMicrosoftAccount(
  text: string,
  options: MicrosoftAccountOptions = {},
): MicrosoftAccount {
  const reader = new MicrosoftAccountReader(options);
  reader.pushText(text);
  return reader.end();
}

/** An extension record's text cells (its identity and contents), by kind. */
function extensionCells(
  kind: PlanItemKind,
  cell: (name: string) => string,
): { cells: string[]; fields: string[]; values: string[] } {
  if (kind === 'sitelink') {
    const cells = [
      cell('sitelinkextensionlinktext'),
      cell('sitelinkextensiondescription1'),
      cell('sitelinkextensiondescription2'),
      cell('finalurl'),
    ];
    const fields: string[] = [];
    const values: string[] = [];
    ['descriptionline1', 'descriptionline2', 'finalurl'].forEach((f, i) => {
      if (cells[i + 1] !== '') {
        fields.push(f);
        values.push(cells[i + 1]!);
      }
    });
    return { cells, fields, values };
  }
  if (kind === 'callout') return { cells: [cell('callouttext')], fields: [], values: [] };
  return {
    cells: [
      snippetHeaderKey(cell('structuredsnippetheader')),
      snippetValuesKey(cell('structuredsnippetvalues')),
    ],
    fields: [],
    values: [],
  };
}

/** An extension's identity cells after its place. */
function identityOfExtension(kind: PlanItemKind, cells: readonly string[]): string[] {
  return kind === 'sitelink' ? [cells[0]!] : [...cells];
}
