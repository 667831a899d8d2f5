/**
 * The change plan: a new build's items against a baseline (the last build's record, or the live
 * account's Editor export). One pass over the new build's tables decides each item's action
 * (kept as one byte per item, with a reason code), a bitset marks the baseline items the build
 * still makes, and the rest follow the client's choice for dropped items. Change lines, the
 * changes-only tables and the next record are made from the plan by further passes over the
 * same tables (changes.ts), so no pass holds millions of objects.
 */
import type { ExportTable } from '../formats/exportFormat.ts';
import type { Baseline } from './baseline.ts';
import { BuildRecordReader } from './record.ts';
import type { RecordPasses } from './recordIdentities.ts';
import { droppedBaselineItems, Int32List, Uint8List } from './baseline.ts';
import {
  itemKindOfTable,
  PLAN_ITEM_KINDS,
  PLAN_KIND_SPECS,
  type ItemStatus,
  type PlanItemKind,
} from './kinds.ts';
import {
  DEFAULT_CLIENT_LABEL,
  hashField,
  hashIdentity,
  readBuildItems,
  type IdentityHash,
} from './items.ts';

/** What happens to items the feed no longer makes: paused (default), removed, or left alone. */
export type DroppedPolicy = 'pause' | 'remove' | 'keep';

/** The choices of `DroppedPolicy`. */
export const DROPPED_POLICIES: readonly DroppedPolicy[] = ['pause', 'remove', 'keep'];

/** What a change line does (the plan's `Action` column). */
export type ChangeAction = 'add' | 'update' | 'pause' | 'enable' | 'remove';

/** The actions, in the order plans count and list them. */
export const CHANGE_ACTIONS: readonly ChangeAction[] = [
  'add',
  'update',
  'pause',
  'enable',
  'remove',
];

/** Options of `planChanges`. */
export interface PlanOptions {
  /** Default 'pause'. */
  dropped?: DroppedPolicy;
  /** The client's label (default `adloom`): it marks what Adloom made in an account export. */
  label?: string;
  /**
   * The new build's items per kind, when known (its record's end line): the plan's per-item
   * lists are made that long at once, in place in the plan's own arrays (none grown by copying,
   * none copied together after).
   */
  nextCounts?: Partial<Record<PlanItemKind, number>>;
}

/** Per kind: how many items are new, changed, paused, resumed, removed, unchanged, colliding. */
export interface PlanCounts {
  add: number;
  update: number;
  pause: number;
  enable: number;
  remove: number;
  unchanged: number;
  /** New items whose identity an item without the client's label holds: not written. */
  collisions: number;
}

/** One line of a plan (the plan's table, `adloom-plan.csv`). */
export interface ChangeLine {
  action: ChangeAction;
  kind: PlanItemKind;
  campaign: string;
  /** The ad group (asset group for Performance Max); '' at campaign or account level. */
  adGroup: string;
  /** What a person reads: the keyword in notation, the ad's first headline, the name. */
  item: string;
  /** Why, in plain words ('new in the feed', 'final URL changed', 'no longer in the feed'). */
  reason: string;
  /** The feed line that made it in the new build, 0 when none (a dropped item). */
  line: number;
}

/** A new item not written because an item without the client's label holds its name. */
export interface Collision {
  kind: PlanItemKind;
  campaign: string;
  adGroup: string;
  item: string;
  reason: string;
  line: number;
}

/** Action codes kept per item. */
export const Act = {
  Unchanged: 0,
  Add: 1,
  Update: 2,
  Pause: 3,
  Enable: 4,
  Remove: 5,
  Collision: 6,
} as const;
export type Act = (typeof Act)[keyof typeof Act];

/** Reason codes kept per item (low byte; a field index above it). */
export const Why = {
  None: 0,
  New: 1,
  NewPaused: 2,
  FieldChanged: 3,
  RowPaused: 4,
  RowActive: 5,
  BackInFeed: 6,
  Dropped: 7,
  AdEdited: 8,
  AdReplaced: 9,
  WasRemoved: 10,
  NameTaken: 11,
  CampaignTaken: 12,
  AdGroupTaken: 13,
  RowPausedAndField: 14,
  RowActiveAndField: 15,
} as const;
export type Why = (typeof Why)[keyof typeof Why];

/** The plan of a build against a baseline. Make one with `planChanges`. */
export interface ChangePlan {
  readonly options: Readonly<Required<Omit<PlanOptions, 'nextCounts'>>>;
  readonly baseline: Baseline;
  /** Per kind, and over every kind. */
  readonly counts: Readonly<Record<PlanItemKind, PlanCounts>>;
  readonly totals: PlanCounts;
  /** The new build's items (in `readBuildItems` order). */
  readonly itemCount: number;
  /** @internal Per new item: its action and reason. */
  readonly actions: Uint8Array;
  /** @internal */ readonly reasons: Int32Array;
  /** @internal The ordinal of each table's first item. */
  readonly tableStarts: readonly number[];
  /** @internal Dropped baseline items with an action: index, action, reason. */
  readonly dropped: { index: Int32Array; action: Uint8Array; reason: Int32Array };
  /** @internal New ads paired with the baseline ad they replace (ordinal -> baseline index). */
  readonly pairs: ReadonlyMap<number, number>;
  /** @internal Names of the content fields the reasons name. */
  readonly fieldNames: readonly string[];
  /** @internal Baseline items the build still makes (or an edited ad updates). */
  readonly seen: { has(i: number): boolean };
}

/** Counts of nothing. */
export function emptyPlanCounts(): PlanCounts {
  return { add: 0, update: 0, pause: 0, enable: 0, remove: 0, unchanged: 0, collisions: 0 };
}

const COUNT_OF_ACT: readonly (keyof PlanCounts)[] = [
  'unchanged',
  'add',
  'update',
  'pause',
  'enable',
  'remove',
  'collisions',
];

/** A place's (campaign's, ad group's) ownership, looked up once for its run of items. */
interface PlaceCheck {
  key: string;
  why: Why;
}

/** A bitset over baseline items. */
class Bits {
  private readonly words: Int32Array;
  constructor(n: number) {
    this.words = new Int32Array((n >>> 5) + 1);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
  set(i: number): void {
    this.words[i >>> 5] = this.words[i >>> 5]! | (1 << (i & 31));
  }
}

/**
 * Plans the build of `tables` against `baseline`: per item add (new), update (contents changed:
 * final URL, budget, locations…), pause (its feed row paused or out of stock; or no longer made,
 * by default), enable (paused before, made Enabled now), remove (no longer made, with
 * `dropped: 'remove'`), unchanged. Against an account, items without the client's label are never
 * changed, and a new item whose name one of them holds is a collision, not written (nor is
 * anything inside a campaign or ad group a person made). A responsive search ad is identified by
 * its text: an edited ad is a new ad, and the old one follows `dropped` (it keeps its history);
 * against an account export that gives the old ad's `Ad ID`, it is an update of that ad.
 */
export function planChanges(
  baseline: Baseline,
  tables: readonly ExportTable[],
  options: PlanOptions = {},
  /**
   * Reads the new build's own record (its text, from the start): its items are compared as they
   * are read instead of the tables' (no pass over the tables, no cell hashed again, nothing
   * held per item but its action). Its items of each kind must be the tables' rows in order, as
   * the command writes them; used against a record baseline only (an account's needs the new
   * items' cells).
   */
  next?: RecordPasses,
): ChangePlan {
  const opts = {
    dropped: options.dropped ?? 'pause',
    label: options.label ?? DEFAULT_CLIENT_LABEL,
  };
  const seen = new Bits(baseline.size);
  const fieldNames: string[] = [];
  const fieldIds = new Map<string, number>();
  const fieldId = (name: string): number => {
    let id = fieldIds.get(name);
    if (id === undefined) {
      id = fieldNames.length;
      fieldNames.push(name);
      fieldIds.set(name, id);
    }
    return id;
  };
  const baselineField = new Map<string, number>();
  const baselineFieldIndex = (name: string): number => {
    let i = baselineField.get(name);
    if (i === undefined) {
      i = baseline.fieldIndex(name);
      baselineField.set(name, i);
    }
    return i;
  };
  const isAccount = baseline.source === 'account';
  const known = baseline.knownFields;
  /** The first changed content field of `item` against baseline item `b`, or -1. */
  const changedField = (item: PlanInput, b: number): number => {
    let compared = 0;
    for (let f = 0; f < item.fields.length; f++) {
      const name = item.fields[f]!;
      if (known && !known.has(name)) continue;
      const bf = baselineFieldIndex(name);
      const had = bf < 0 ? undefined : baseline.fieldHashOf(b, bf);
      if (had === undefined || had !== item.hashes[f]) return fieldId(name);
      compared++;
    }
    // Against a record, a field the build no longer fills changed too.
    if (!isAccount && compared < baseline.fieldCountOf(b)) {
      let missing = -1;
      baseline.forEachField(b, (f) => {
        const name = baseline.fieldNames[f]!;
        if (missing < 0 && !item.fields.includes(name)) missing = fieldId(name);
      });
      return missing;
    }
    return -1;
  };

  const placeHash: IdentityHash = { lo: 0, hi: 0 };
  const campaignCheck: PlaceCheck = { key: '\u0000', why: Why.None };
  const groupCheck: PlaceCheck = { key: '\u0000', why: Why.None };
  /** Why items in this campaign or ad group cannot be written (a person's), or None. */
  const placeTaken = (input: PlanInput): Why => {
    if (!isAccount || !input.identity) return Why.None;
    const item = { kind: input.kind, identity: input.identity };
    const spec = PLAN_KIND_SPECS[item.kind];
    if (item.kind === 'campaign') return Why.None;
    const campaign = item.identity[0]!;
    if (campaignCheck.key !== campaign) {
      campaignCheck.key = campaign;
      const b = baseline.findHash(hashIdentity('campaign', item.identity, placeHash, 1));
      campaignCheck.why = b >= 0 && !baseline.isOwned(b) ? Why.CampaignTaken : Why.None;
    }
    if (campaignCheck.why !== Why.None) return campaignCheck.why;
    if (spec.placeCells < 2 || item.kind === 'ad-group' || item.identity[1] === '') return Why.None;
    const key = `${campaign}\u0000${item.identity[1]}`;
    if (groupCheck.key !== key) {
      groupCheck.key = key;
      const b = baseline.findHash(hashIdentity('ad-group', item.identity, placeHash, 2));
      groupCheck.why = b >= 0 && !baseline.isOwned(b) ? Why.AdGroupTaken : Why.None;
    }
    return groupCheck.why;
  };

  // Each table's items (a slot each) are decided into its own lists: a record hands its items
  // over kind by kind as its parts come, not in the tables' order. With the counts known, the
  // lists are the plan's own arrays, a part each.
  const expected =
    options.nextCounts && tables.map((t) => options.nextCounts![itemKindOfTable(t.kind)] ?? 0);
  const expectedTotal = expected?.reduce((a, b) => a + b, 0) ?? 0;
  const sizedActions = expected && new Uint8Array(expectedTotal);
  const sizedReasons = expected && new Int32Array(expectedTotal);
  let sizedAt = 0;
  const slots = tables.map((_, t) => {
    const actions = new Uint8List(expected ? 0 : 1 << 10);
    const reasons = new Int32List(expected ? 0 : 1 << 10);
    if (expected) {
      actions.data = sizedActions!.subarray(sizedAt, sizedAt + expected[t]!);
      reasons.data = sizedReasons!.subarray(sizedAt, sizedAt + expected[t]!);
      sizedAt += expected[t]!;
    }
    return {
      actions,
      reasons,
      /** Added responsive search ads, by their index in the slot, and their ad groups' keys. */
      addedAds: new Int32List(16),
      addedAdPlaces: [] as string[],
    };
  });
  const consider = (item: PlanInput, slot: number): void => {
    const into = slots[slot]!;
    let act: Act = Act.Unchanged;
    let why: number = Why.None;
    const taken = placeTaken(item);
    const b = taken === Why.None ? baseline.findNext(item.h) : -1;
    if (taken !== Why.None) {
      act = Act.Collision;
      why = taken;
    } else if (b < 0 || seen.has(b)) {
      act = Act.Add;
      why = item.status === 'Paused' ? Why.NewPaused : Why.New;
      if (item.kind === 'responsive-search-ad' && b < 0) {
        into.addedAds.push(into.actions.length);
        into.addedAdPlaces.push(`${item.groupKey.lo}:${item.groupKey.hi}`);
      }
    } else {
      seen.set(b);
      const was = baseline.statusOf(b);
      if (!baseline.isOwned(b)) {
        act = Act.Collision;
        why = Why.NameTaken;
      } else if (was === 'Removed') {
        act = Act.Add;
        why = Why.WasRemoved;
      } else {
        const field = changedField(item, b);
        if (item.status !== was) {
          const paused = item.status === 'Paused';
          act = paused ? Act.Pause : Act.Enable;
          if (field >= 0)
            why = (paused ? Why.RowPausedAndField : Why.RowActiveAndField) | (field << 8);
          else if (paused) why = Why.RowPaused;
          else why = baseline.lineOf(b) === 0 ? Why.BackInFeed : Why.RowActive;
        } else if (field >= 0) {
          act = Act.Update;
          why = Why.FieldChanged | (field << 8);
        }
      }
    }
    into.actions.push(act);
    into.reasons.push(why);
  };
  const fromRecord = next !== undefined && !isAccount && kindsOnce(tables);
  if (fromRecord) {
    const slotOfKind = new Map(tables.map((t, i) => [itemKindOfTable(t.kind), i]));
    const input = newInput();
    const reader = new BuildRecordReader({
      onItem: (view) => {
        const slot = slotOfKind.get(view.kind);
        if (slot === undefined)
          throw new Error(`The new build's record holds ${view.kind} items its tables do not`);
        input.kind = view.kind;
        input.status = view.status;
        input.h = view.h;
        input.groupKey = view.groupKey;
        input.fields = view.fields;
        input.hashes = view.hashes;
        consider(input, slot);
      },
    });
    next((text) => reader.push(text));
    reader.end();
  } else for (const item of inputsOfTables(tables, opts.label)) consider(item, item.table);

  // The slots one after another: the ordinals of the tables' items.
  const tableStarts: number[] = [];
  let ordinal = 0;
  for (const slot of slots) {
    tableStarts.push(ordinal);
    ordinal += slot.actions.length;
  }
  // In place when every slot held exactly what was expected (its lists never grew).
  const inPlace =
    expected !== undefined &&
    ordinal === expectedTotal &&
    slots.every(
      (slot, t) =>
        slot.actions.length === expected[t] && slot.actions.data.buffer === sizedActions!.buffer,
    ) &&
    slots.every((slot) => slot.reasons.data.buffer === sizedReasons!.buffer);
  const actionData = inPlace ? sizedActions! : new Uint8Array(ordinal);
  const reasonData = inPlace ? sizedReasons! : new Int32Array(ordinal);
  const addedAds = new Int32List();
  const addedAdPlaces: string[] = [];
  slots.forEach((slot, t) => {
    if (!inPlace) {
      actionData.set(slot.actions.data.subarray(0, slot.actions.length), tableStarts[t]);
      reasonData.set(slot.reasons.data.subarray(0, slot.reasons.length), tableStarts[t]);
    }
    for (let k = 0; k < slot.addedAds.length; k++)
      addedAds.push(tableStarts[t]! + slot.addedAds.data[k]!);
    for (const place of slot.addedAdPlaces) addedAdPlaces.push(place);
  });
  slots.length = 0;
  const pairs = pairEditedAds(baseline, seen, addedAds, addedAdPlaces, actionData, reasonData);

  // Dropped: owned baseline items the build no longer makes.
  const droppedIndex = new Int32List();
  const droppedAction = new Uint8List();
  const droppedReason = new Int32List();
  const replaced = new Set(pairs.values());
  const counts = Object.fromEntries(PLAN_ITEM_KINDS.map((k) => [k, emptyPlanCounts()])) as Record<
    PlanItemKind,
    PlanCounts
  >;
  for (const i of droppedBaselineItems(baseline, seen)) {
    const was = baseline.statusOf(i);
    const kind = baseline.kindOf(i);
    let act: Act = Act.Unchanged;
    if (opts.dropped === 'remove') act = Act.Remove;
    else if (opts.dropped === 'pause' && was === 'Enabled') act = Act.Pause;
    counts[kind][COUNT_OF_ACT[act]!]++;
    if (act === Act.Unchanged) continue;
    droppedIndex.push(i);
    droppedAction.push(act);
    droppedReason.push(replaced.has(i) ? Why.AdReplaced : Why.Dropped);
  }
  let k = 0;
  for (const item of itemKinds(tables, tableStarts, ordinal)) {
    counts[item][COUNT_OF_ACT[actionData[k]!]!]++;
    k++;
  }
  const totals = emptyPlanCounts();
  for (const kind of PLAN_ITEM_KINDS)
    for (const key of Object.keys(totals) as (keyof PlanCounts)[]) totals[key] += counts[kind][key];
  return {
    options: opts,
    baseline,
    counts,
    totals,
    itemCount: ordinal,
    actions: actionData,
    reasons: reasonData,
    tableStarts,
    dropped: {
      index: droppedIndex.data.slice(0, droppedIndex.length),
      action: droppedAction.data.slice(0, droppedAction.length),
      reason: droppedReason.data.slice(0, droppedReason.length),
    },
    pairs,
    fieldNames,
    seen,
  };
}

/** One item of the new build as the plan compares it (reused: copy what you keep). */
interface PlanInput {
  kind: PlanItemKind;
  status: ItemStatus;
  /** The table that holds it. */
  table: number;
  /** Its identity hash. */
  h: IdentityHash;
  /** Its content fields' names and hashes. */
  fields: string[];
  hashes: number[];
  /** Its identity cells (read from tables; undefined from a record). */
  identity: string[] | undefined;
  /** A responsive search ad's ad group key (`Baseline.adGroupKeyOf`). */
  groupKey: IdentityHash;
}

function newInput(): PlanInput {
  return {
    kind: 'campaign',
    status: 'Enabled',
    table: 0,
    h: { lo: 0, hi: 0 },
    fields: [],
    hashes: [],
    identity: undefined,
    groupKey: { lo: 0, hi: 0 },
  };
}

/** True when no two tables hold the same kind of item. */
function kindsOnce(tables: readonly ExportTable[]): boolean {
  const kinds = new Set(tables.map((t) => itemKindOfTable(t.kind)));
  return kinds.size === tables.length;
}

/** The items of the tables, their identity and contents hashed. */
function* inputsOfTables(tables: readonly ExportTable[], label: string): Generator<PlanInput> {
  const input = newInput();
  for (const item of readBuildItems(tables, { label })) {
    input.kind = item.kind;
    input.status = item.status;
    input.table = item.table;
    hashIdentity(item.kind, item.identity, input.h);
    input.fields = item.fields;
    input.hashes.length = item.fields.length;
    for (let f = 0; f < item.fields.length; f++)
      input.hashes[f] = hashField(item.fields[f]!, item.values[f]!);
    input.identity = item.identity;
    if (item.kind === 'responsive-search-ad')
      hashIdentity('ad-group', item.identity, input.groupKey, 2);
    yield input;
  }
}

/** The kind of every item by ordinal, from the tables' starts (items of a table share a kind). */
function* itemKinds(
  tables: readonly ExportTable[],
  starts: readonly number[],
  total: number,
): Generator<PlanItemKind> {
  for (let t = 0; t < tables.length; t++) {
    const kind = PLAN_ITEM_KINDS.find((k) => PLAN_KIND_SPECS[k].tableKind === tables[t]!.kind)!;
    const end = t + 1 < starts.length ? starts[t + 1]! : total;
    for (let o = starts[t]!; o < end; o++) yield kind;
  }
}

/**
 * Pairs each new responsive search ad with a dropped ad of the same ad group (in order): the
 * edited ad's reason names what changed. Against an account export that gives the old ad's
 * `Ad ID`, the new ad becomes an update of the old one (and the old one is no longer dropped).
 */
function pairEditedAds(
  baseline: Baseline,
  seen: Bits,
  addedAds: Int32List,
  addedAdPlaces: readonly string[],
  actions: Uint8Array,
  reasons: Int32Array,
): Map<number, number> {
  const pairs = new Map<number, number>();
  if (addedAds.length === 0) return pairs;
  const byPlace = new Map<string, number[]>();
  const placeHash: IdentityHash = { lo: 0, hi: 0 };
  for (let i = 0; i < baseline.size; i++) {
    if (seen.has(i) || baseline.kindOf(i) !== 'responsive-search-ad') continue;
    if (!baseline.isDroppable(i) || baseline.statusOf(i) === 'Removed') continue;
    baseline.adGroupKeyOf(i, placeHash);
    const key = `${placeHash.lo}:${placeHash.hi}`;
    const list = byPlace.get(key);
    if (list) list.push(i);
    else byPlace.set(key, [i]);
  }
  if (byPlace.size === 0) return pairs;
  const isAccount = baseline.source === 'account';
  for (let a = 0; a < addedAds.length; a++) {
    const list = byPlace.get(addedAdPlaces[a]!);
    const b = list?.shift();
    if (b === undefined) continue;
    const o = addedAds.data[a]!;
    pairs.set(o, b);
    if (isAccount && baseline.adIdOf(b) !== undefined) {
      actions[o] = Act.Update;
      seen.set(b);
    }
    reasons[o] = Why.AdEdited;
  }
  return pairs;
}
