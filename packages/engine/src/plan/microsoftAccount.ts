/**
 * The live Microsoft Advertising account as a baseline: a bulk download of the account
 * (Microsoft's Bulk File Schema, format version 6.0, CSV or tab-separated) read into the same
 * items the Google account plan reads from an Editor export, each matched by the same identity
 * (names; keyword text and match type; an ad's texts and pins...), keeping its Microsoft `Id`,
 * `Parent Id` and status. Labels are records of their own in a bulk file: the client's label is a
 * `Label` record (its name in the `Label` column), applied by `Campaign Label`, `Ad Group Label`,
 * `Keyword Label` and `Responsive Search Ad Label` records (label `Id`, entity `Parent Id`).
 * Items without it are never changed (as for Google); negatives and extensions, which take no
 * label, belong to whoever owns their ad group, else their campaign. Sources: docs/decisions.md,
 * "Microsoft Advertising: the change plan".
 */
import { forEachCsvRecord } from '../csv.ts';
import { RSA_MAX_DESCRIPTIONS, RSA_MAX_HEADLINES } from '../limits.ts';
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

/** One item read, held until the labels and names of the whole file are known. */
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

/**
 * Reads a Microsoft Advertising bulk download of the account (its text; a leading BOM is
 * dropped; commas or tabs, as the header shows). See the module's comment.
 */
export function readMicrosoftAccount(
  text: string,
  options: MicrosoftAccountOptions = {},
): MicrosoftAccount {
  const label = (options.label ?? DEFAULT_CLIENT_LABEL).trim().toLowerCase();
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstBreak = text.slice(start).search(/[\r\n]/);
  const headerLine = firstBreak < 0 ? text.slice(start) : text.slice(start, start + firstBreak);
  const delimiter = headerLine.includes('\t') ? '\t' : ',';
  const summary: MicrosoftAccountSummary = { rows: 0, otherRows: 0 };
  const items: HeldItem[] = [];
  const associations: HeldAssociation[] = [];
  const extensions = new Map<
    string,
    { kind: PlanItemKind; cells: string[]; fields: string[]; values: string[] }
  >();
  const labelIds = new Set<string>();
  const labelled: [string, string][] = [];
  let at = new Map<string, number>();
  let header = true;
  forEachCsvRecord(
    text,
    (cells) => {
      if (header) {
        at = new Map();
        cells.forEach((h, i) => {
          const n = normalizeHeader(h);
          if (!at.has(n)) at.set(n, i);
        });
        header = false;
        return;
      }
      if (cells.length === 1 && cells[0] === '') return;
      const cell = (name: string): string => {
        const i = at.get(name);
        return i === undefined ? '' : (cells[i] ?? '').trim();
      };
      const type = cell('type');
      const t = type.toLowerCase();
      if (PASSED_TYPES.has(t)) return;
      summary.rows++;
      const base = {
        type,
        campaign: cell('campaign'),
        adGroup: cell('adgroup'),
        status: cell('status'),
        id: cell('id'),
        parentId: cell('parentid'),
      };
      if (t === 'label') {
        if (cell('label').toLowerCase() === label && base.status.toLowerCase() !== 'deleted')
          labelIds.add(base.id);
        return;
      }
      if (LABEL_TYPES.has(t)) {
        if (base.status.toLowerCase() !== 'deleted') labelled.push([base.id, base.parentId]);
        return;
      }
      const extensionKind = EXTENSION_TYPES.get(t);
      if (extensionKind !== undefined) {
        if (base.status.toLowerCase() === 'deleted') return;
        const ext = extensionCells(extensionKind, cell);
        extensions.set(base.id, { kind: extensionKind, ...ext });
        return;
      }
      const assoc = /^(campaign|ad group) (sitelink|callout|structured snippet) ad extension$/.exec(
        t,
      );
      if (assoc) {
        associations.push({
          ...base,
          kind: EXTENSION_TYPES.get(`${assoc[2]} ad extension`)!,
          onGroup: assoc[1] === 'ad group',
        });
        return;
      }
      const kind = ITEM_TYPES.get(t);
      if (kind === undefined) {
        summary.otherRows++;
        return;
      }
      const held: HeldItem = { ...base, kind, rest: [], fields: [], values: [] };
      const field = (name: string, value: string): void => {
        if (value === '') return;
        held.fields.push(name);
        held.values.push(normalizeFieldValue(name, value, label));
      };
      switch (t) {
        case 'campaign': {
          const campaignType = cell('campaigntype');
          if (campaignType !== '' && campaignType.toLowerCase() !== 'search') {
            summary.otherRows++;
            return;
          }
          field('budget', cell('budget'));
          break;
        }
        case 'ad group':
          break;
        case 'keyword':
          held.rest = [cell('keyword'), cell('matchtype')];
          break;
        case 'ad group negative keyword':
          held.rest = [cell('keyword'), `Negative ${cell('matchtype')}`];
          break;
        case 'campaign negative keyword':
          held.adGroup = '';
          held.rest = [cell('keyword'), `Campaign Negative ${cell('matchtype')}`];
          break;
        case 'responsive search ad':
          held.rest = rsaIdentityCells(
            assetList(cell('headline')),
            assetList(cell('description')),
            cell('path1'),
            cell('path2'),
          );
          field('finalurl', cell('finalurl'));
          break;
      }
      items.push(held);
    },
    delimiter,
  );

  // Names from ids where a record gives only its parent's id.
  const campaignIds = new Map<string, string>();
  const campaignById = new Map<string, string>();
  const adGroupIds = new Map<string, string>();
  const adGroupById = new Map<string, [string, string]>();
  for (const h of items)
    if (h.kind === 'campaign') {
      campaignIds.set(h.campaign, h.id);
      campaignById.set(h.id, h.campaign);
    }
  for (const h of items)
    if (h.kind === 'ad-group') {
      if (h.campaign === '') h.campaign = campaignById.get(h.parentId) ?? '';
      adGroupIds.set(`${h.campaign}\u0000${h.adGroup}`, h.id);
      adGroupById.set(h.id, [h.campaign, h.adGroup]);
    }
  const placeOf = (
    h: { campaign: string; adGroup: string; parentId: string },
    onGroup: boolean,
  ) => {
    if (onGroup && (h.campaign === '' || h.adGroup === '')) {
      const g = adGroupById.get(h.parentId);
      if (g) [h.campaign, h.adGroup] = g;
    } else if (!onGroup && h.campaign === '') h.campaign = campaignById.get(h.parentId) ?? '';
  };
  const owned = new Set<string>();
  for (const [labelId, entity] of labelled) if (labelIds.has(labelId)) owned.add(entity);

  const builder = new BaselineBuilder('account');
  const ids: MicrosoftItemIds[] = [];
  const fieldIndices: number[] = [];
  const hashes: number[] = [];
  const add = (
    kind: PlanItemKind,
    identity: string[],
    status: string,
    fields: readonly string[],
    values: readonly string[],
    id: MicrosoftItemIds,
    isOwned: boolean,
  ): void => {
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
      owned: isOwned,
      droppable: true,
      ...(kind === 'responsive-search-ad' && id.id !== '' ? { adId: id.id } : {}),
    });
    ids.push(id);
  };
  for (const h of items) {
    // Keywords, ads and ad group negatives sit in an ad group; the others in a campaign.
    if (h.kind !== 'campaign' && h.kind !== 'ad-group')
      placeOf(h, h.type.toLowerCase() !== 'campaign negative keyword');
    // Campaigns are named by their campaign, ad groups by both names, the rest after both.
    const identity = h.kind === 'campaign' ? [h.campaign] : [h.campaign, h.adGroup, ...h.rest];
    add(
      h.kind,
      identity,
      h.status,
      h.fields,
      h.values,
      { id: h.id, parentId: h.parentId, type: h.type },
      owned.has(h.id),
    );
  }
  const extensionIds = new Map<string, string>();
  for (const [id, ext] of extensions)
    extensionIds.set(microsoftExtensionKey(ext.kind, ext.cells), id);
  for (const a of associations) {
    const ext = extensions.get(a.id);
    if (!ext || ext.kind !== a.kind) {
      summary.otherRows++;
      continue;
    }
    placeOf(a, a.onGroup);
    add(
      a.kind,
      [a.campaign, a.onGroup ? a.adGroup : '', ...identityOfExtension(a.kind, ext.cells)],
      a.status,
      ext.fields,
      ext.values,
      { id: a.id, parentId: a.parentId, type: a.type },
      false,
    );
  }
  const baseline = builder.finish(MICROSOFT_KNOWN_FIELDS);
  // Kinds without labels take their ad group's ownership, else their campaign's.
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
    labelId: labelIds.values().next().value,
    campaignIds,
    adGroupIds,
    extensionIds,
    summary,
  };
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
