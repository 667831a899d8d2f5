import { Gunzip, Gzip, strToU8 } from 'fflate';
import { BUILD_RECORD_CONTENT_TYPE } from '@adloom/contract';
import {
  AccountExportReader,
  BuildRecordReader,
  GOOGLE_ADS_EDITOR,
  MICROSOFT_BULK_FILE_STEM,
  MICROSOFT_REPORT_FILE_STEM,
  PLAN_FILE_NAME,
  PLAN_ITEM_KINDS,
  PLAN_ITEM_KIND_LABELS,
  PLAN_TABLE_HEADERS,
  buildRecordChunks,
  changesTables,
  emptyBaseline,
  findMicrosoftRefusals,
  formatCsv,
  microsoftPlanTables,
  planChanges,
  planCollisions,
  planLines,
  planRecordChunks,
  recordCountsOfLastChunk,
  planTable,
  MicrosoftAccountReader,
  withoutRefused,
  writeMicrosoftChanges,
  type Baseline,
  type BuildRecordInfo,
  type ChangeAction,
  type ChangePlan,
  type DroppedPolicy,
  type ExportFile,
  type ExportTable,
  type MicrosoftAccount,
  type MicrosoftRefusals,
  type PlanCounts,
  type PlanItemKind,
  type Table,
} from '@adloom/engine';
import {
  JobError,
  TablePacker,
  type EngineJobHandler,
  type PackedTable,
} from '../generation/jobs.ts';
import { exportTablesOf, zipFiles } from '../exports/exportJobs.ts';
import { keptForPage } from '../../state/pageState.ts';
import type { ExportTableRef } from '../exports/exportables.ts';
import type { HeldTableRef } from '../exports/heldTables.ts';
import { fileNamer, type FileNaming } from '../exports/fileNames.ts';

// The account loop's worker jobs (issue 35): the build record of a download, the change plan of
// the kept tables against a baseline (the last build's record, or an Editor export of the
// account), its lines by action and kind, and "Download changes". The plan stays in this worker
// (one at a time) so its lines and changes are made from it without sending it to the page.

/** Bytes read from a file or record at a time. */
const PIECE_BYTES = 1 << 20;

/** Items per kind a build counts (the server's `BuildCounts`). */
export type ItemCounts = Partial<Record<PlanItemKind, number>>;

/**
 * A gzip'd build record and the items of each kind it holds. The record is a Blob made in the
 * worker from gzip's pieces: it reaches the page as a handle, and the page uploads it and keeps it
 * without copying its bytes on its own thread (a 100k-row record was a 100 ms task to upload as
 * bytes).
 */
export interface RecordOutput {
  record: Blob;
  counts: ItemCounts;
  /**
   * Names the baseline the worker read from the record's text as it was made (see `madeForPlan`):
   * a plan against this record while the same worker runs starts from it.
   */
  madeId?: string;
}

/**
 * The record's chunks gzip'd as they come (a 1M-row record is never one string). With `reader`,
 * each chunk is also read into it: the baseline of the record without gunzipping it back.
 */
export function gzipRecord(chunks: Iterable<string>, reader?: BuildRecordReader): RecordOutput {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const gzip = new Gzip({ level: 6 }, (data) => {
    parts.push(data as Uint8Array<ArrayBuffer>);
  });
  let last = '';
  for (const chunk of chunks) {
    gzip.push(strToU8(chunk));
    reader?.push(chunk);
    last = chunk;
  }
  gzip.push(new Uint8Array(0), true);
  return {
    record: new Blob(parts, { type: BUILD_RECORD_CONTENT_TYPE }),
    counts: recordCountsOfLastChunk(last) as ItemCounts,
  };
}

/** A held table as a job made it (the ads), with its feed lines. */
interface MadeTable {
  table: Table;
  lines: ArrayLike<number> | undefined;
}

/**
 * What the last record job left for the plan right after it, against that record (its `madeId`):
 * the record's baseline, read from its text as it was written (not the stored copy read back,
 * gunzip and all), and the held tables it made (the ads), by slot and id, so they are generated
 * once for both. Taken once by the next plan; nothing made stays in the worker after it.
 */
let madeForPlan: {
  id: string;
  baseline: ReturnType<BuildRecordReader['end']>;
  tables: Map<string, MadeTable>;
} | null = null;
let nextMadeId = 1;

/** A download's record, gzip'd, and what the plan after it takes (`madeForPlan`). */
function recordOfDownload(
  chunks: Iterable<string>,
  tables = new Map<string, MadeTable>(),
): RecordOutput {
  madeForPlan = null;
  const reader = new BuildRecordReader();
  const out = gzipRecord(chunks, reader);
  const id = `made-${nextMadeId++}`;
  madeForPlan = { id, baseline: reader.end(), tables };
  return { ...out, madeId: id };
}

/** What the record job left, when the plan's baseline is that record; none is kept after. */
function takeMadeForPlan(input: LoopBaselineInput): typeof madeForPlan {
  const made = madeForPlan;
  madeForPlan = null;
  return made && input.kind === 'record' && made.id === input.madeId ? made : null;
}

/** The pieces of a Blob's bytes, read one at a time. */
async function* blobPieces(blob: Blob): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < blob.size; at += PIECE_BYTES)
    yield new Uint8Array(await blob.slice(at, at + PIECE_BYTES).arrayBuffer());
}

/** A gzip'd build record (as the server keeps it) read into a baseline, in pieces. */
export async function readRecordBlob(blob: Blob): Promise<ReturnType<BuildRecordReader['end']>> {
  const reader = new BuildRecordReader();
  const decoder = new TextDecoder();
  const gunzip = new Gunzip((data, final) => {
    reader.push(decoder.decode(data, { stream: !final }));
  });
  let pushed = false;
  for await (const piece of blobPieces(blob)) {
    gunzip.push(piece, false);
    pushed = true;
  }
  if (pushed) gunzip.push(new Uint8Array(0), true);
  return reader.end();
}

/** What a plan is made against. */
export type LoopBaselineInput =
  | { kind: 'none' }
  /** The last build's gzip'd record; `key` tells one record from another (its build id). */
  | { kind: 'record'; key: string; record: Blob; madeId?: string }
  /** Google Ads Editor export files of the account. */
  | { kind: 'account'; key: string; files: Blob[]; names: string[] };

/** What the plan was compared with, as the panel says it. */
export type ComparedWith =
  | { source: 'none' }
  | { source: 'record'; created: string; feed: string; items: number }
  | {
      source: 'account';
      names: string[];
      rows: number;
      items: number;
      /** Items without the client's label: never changed. */
      unlabelled: number;
      otherRows: number;
      /** A Microsoft Advertising bulk download: the changes are Microsoft's bulk file. */
      microsoft?: boolean;
    };

/** True when a file's first bytes are a Microsoft bulk file's header (its first column Type). */
function isMicrosoftBulk(first: Uint8Array): boolean {
  const start = first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf ? 3 : 0;
  const head = new TextDecoder().decode(first.subarray(start, start + 8));
  return /^"?Type"?[,\t]/.test(head);
}

/** A Microsoft bulk download read into a baseline, in pieces (never one string). */
async function readMicrosoftBlob(blob: Blob, label: string): Promise<MicrosoftAccount> {
  const reader = new MicrosoftAccountReader({ label });
  for await (const piece of blobPieces(blob)) reader.pushBytes(piece);
  return reader.end();
}

/** A baseline as read: a Microsoft download keeps its Ids beside it. */
interface ReadBaseline {
  baseline: Baseline;
  compared: ComparedWith;
  microsoft?: MicrosoftAccount;
}

/** A baseline read once, kept while its key is asked again (filters, another plan). */
let kept: ({ key: string; label: string } & ReadBaseline) | null = null;

async function readBaseline(
  input: LoopBaselineInput,
  label: string,
  made: ReturnType<BuildRecordReader['end']> | undefined,
): Promise<ReadBaseline> {
  if (input.kind === 'none')
    return { baseline: emptyBaseline('record'), compared: { source: 'none' } };
  if (kept && kept.key === input.key && kept.label === label) return kept;
  kept = null;
  let read: ReadBaseline;
  const first = input.kind === 'account' && input.files.length === 1 ? input.files[0] : undefined;
  if (first && isMicrosoftBulk(new Uint8Array(await first.slice(0, 16).arrayBuffer()))) {
    try {
      const account = await readMicrosoftBlob(first, label);
      read = {
        baseline: account.baseline,
        microsoft: account,
        compared: {
          source: 'account',
          names: input.kind === 'account' ? input.names : [],
          rows: account.summary.rows,
          items: account.baseline.size,
          unlabelled: account.baseline.unownedCount(),
          otherRows: account.summary.otherRows,
          microsoft: true,
        },
      };
    } catch (error) {
      throw new JobError(
        `The Microsoft Advertising bulk download could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } else if (input.kind === 'record') {
    try {
      const record = made ?? (await readRecordBlob(input.record));
      read = {
        baseline: record,
        compared: {
          source: 'record',
          created: record.header.created,
          feed: record.header.feed,
          items: record.size,
        },
      };
    } catch (error) {
      throw new JobError(
        `The last export's record could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  } else {
    const reader = new AccountExportReader({ label });
    try {
      for (let f = 0; f < input.files.length; f++) {
        if (f > 0) reader.nextFile();
        for await (const piece of blobPieces(input.files[f]!)) reader.pushBytes(piece);
      }
      const account = reader.end();
      read = {
        baseline: account,
        compared: {
          source: 'account',
          names: input.names,
          rows: account.summary.rows,
          items: account.size,
          unlabelled: account.unownedCount(),
          otherRows: account.summary.otherRows,
        },
      };
    } catch (error) {
      throw new JobError(
        `The account export could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  kept = { key: input.key, label, ...read };
  return read;
}

/** The plan this worker holds (one at a time: a new plan replaces it). */
let held: {
  id: number;
  plan: ChangePlan;
  tables: ExportTable[];
  /**
   * Against a Microsoft download: the account, the items Microsoft cannot take (left out of the
   * plan) and the tables as the plan compared them.
   */
  microsoft?: {
    account: MicrosoftAccount;
    refusals: MicrosoftRefusals;
    planTables: ExportTable[];
  };
  /**
   * The tables as "Download changes" read them, kept for the record job that follows it (the
   * file first, then the record), so the held ads are not generated again.
   */
  made?: ExportTable[];
} | null = null;
let nextPlanId = 1;
keptForPage(() => {
  kept = null;
  held = null;
  nextPlanId = 1;
  nextMadeId = 1;
  madeForPlan = null;
});

function heldPlan(id: number): NonNullable<typeof held> {
  if (!held || held.id !== id)
    throw new JobError('This plan is out of date: the changes are being worked out again');
  return held;
}

/** Which lines of a plan to list: one action, one kind, or all (null). */
export interface PlanLinesFilter {
  action: ChangeAction | null;
  kind: PlanItemKind | null;
}

/** The plan's lines (`PLAN_TABLE_HEADERS`) that pass `filter`, packed for the page's table. */
export function packPlanLines(
  plan: ChangePlan,
  tables: readonly ExportTable[],
  filter: PlanLinesFilter = { action: null, kind: null },
): PackedTable {
  const packer = new TablePacker(PLAN_TABLE_HEADERS);
  const cells = new Array<string>(PLAN_TABLE_HEADERS.length);
  for (const l of planLines(plan, tables)) {
    if (filter.action !== null && l.action !== filter.action) continue;
    if (filter.kind !== null && l.kind !== filter.kind) continue;
    cells[0] = l.action;
    cells[1] = PLAN_ITEM_KIND_LABELS[l.kind];
    cells[2] = l.campaign;
    cells[3] = l.adGroup;
    cells[4] = l.item;
    cells[5] = l.reason;
    cells[6] = l.line > 0 ? String(l.line) : '';
    packer.addRow(cells);
  }
  return packer.finish();
}

/** The headers of the collisions' table. */
export const COLLISION_HEADERS = ['Kind', 'Campaign', 'Ad Group', 'Item', 'Reason', 'Feed line'];

function packCollisions(plan: ChangePlan, tables: readonly ExportTable[]): PackedTable {
  const packer = new TablePacker(COLLISION_HEADERS);
  for (const c of planCollisions(plan, tables))
    packer.addRow([
      PLAN_ITEM_KIND_LABELS[c.kind],
      c.campaign,
      c.adGroup,
      c.item,
      c.reason,
      c.line > 0 ? String(c.line) : '',
    ]);
  return packer.finish();
}

/** `loopRecord`: the build record of a download's tables. */
export interface LoopRecordInput {
  tables: ExportTableRef[];
  info: BuildRecordInfo;
}

/** `loopPlan`: the plan of the kept tables against a baseline. */
export interface LoopPlanInput {
  tables: ExportTableRef[];
  baseline: LoopBaselineInput;
  dropped: DroppedPolicy;
  label: string;
}

/** What `loopPlan` answers: the plan's id in this worker, counts, lines and collisions. */
export interface LoopPlanOutput {
  planId: number;
  compared: ComparedWith;
  /** Per kind with any item (in `PLAN_ITEM_KINDS` order). */
  counts: { kind: PlanItemKind; counts: PlanCounts }[];
  totals: PlanCounts;
  lines: PackedTable;
  collisions: PackedTable;
  /** Against a Microsoft download: items Microsoft cannot take, not planned (in the report). */
  refused: number;
}

/** `loopChanges`: the changes-only download of the held plan. */
export interface LoopChangesInput {
  planId: number;
  naming: FileNaming;
}

/** The plan's table as a file beside the changes: `adloom-plan.csv`, for a spreadsheet. */
function planFile(plan: ChangePlan, tables: readonly ExportTable[]): ExportFile {
  return {
    name: PLAN_FILE_NAME,
    type: 'text/csv;charset=utf-8',
    bom: true,
    chunks: () => formatCsv(planTable(plan, tables), { neutraliseFormulas: true }),
  };
}

/**
 * The tables with each one's cells (and feed lines) made once for the job that asks (the plan reads its tables
 * for the plan, its lines and its collisions; the changes download for its files, the plan file
 * and the next record). A held table (the ads) is made anew on every read: generated again, with
 * its ad groups' statuses worked out again from the keywords. Only the job keeps them: the held
 * plan keeps the tables as they were given, so nothing made stays in the worker between jobs.
 */
export function readOnce(tables: readonly ExportTable[]): ExportTable[] {
  return tables.map((table) => {
    let made: Table | undefined;
    let lines: ArrayLike<number> | undefined;
    const linesOf = table.lines?.bind(table);
    return {
      ...table,
      read: () => (made ??= table.read()),
      ...(linesOf ? { lines: () => (lines ??= linesOf()) } : {}),
    };
  });
}

function heldKey(ref: HeldTableRef): string {
  return `${ref.slot}\u0000${ref.id}`;
}

export const loopRecordJob: EngineJobHandler<LoopRecordInput, RecordOutput> = (input) => {
  const tables = readOnce(exportTablesOf(input.tables));
  const made = new Map<string, MadeTable>();
  const out = recordOfDownload(buildRecordChunks(input.info, tables), made);
  // Made for the record (readOnce keeps them): the plan after it takes them as they are.
  input.tables.forEach((ref, i) => {
    if ('held' in ref.source)
      made.set(heldKey(ref.source.held), { table: tables[i]!.read(), lines: tables[i]!.lines?.() });
  });
  return out;
};

/**
 * `tables` (of `refs`) for one plan job: a held table the record job just made is taken as made
 * (the plan keeps `tables` themselves, which make it again when read).
 */
function withMadeTables(
  refs: readonly ExportTableRef[],
  tables: ExportTable[],
  made: Map<string, MadeTable> | undefined,
): ExportTable[] {
  if (!made || made.size === 0) return tables;
  return tables.map((table, i) => {
    const source = refs[i]!.source;
    const kept = 'held' in source ? made.get(heldKey(source.held)) : undefined;
    if (!kept) return table;
    const { lines } = kept;
    return { ...table, read: () => kept.table, ...(lines ? { lines: () => lines } : {}) };
  });
}

export const loopPlanJob: EngineJobHandler<LoopPlanInput, LoopPlanOutput> = async (input) => {
  held = null;
  const made = takeMadeForPlan(input.baseline);
  const { baseline, compared, microsoft } = await readBaseline(
    input.baseline,
    input.label,
    made?.baseline,
  );
  const tables = exportTablesOf(input.tables);
  let once = readOnce(withMadeTables(input.tables, tables, made?.tables));
  // Against a Microsoft download: without the items Microsoft cannot take, as Microsoft holds
  // them (microsoftPlanTables).
  const refusals = microsoft
    ? findMicrosoftRefusals(once, baseline, { label: input.label })
    : undefined;
  if (refusals) once = microsoftPlanTables(withoutRefused(once, refusals));
  const plan = planChanges(baseline, once, { dropped: input.dropped, label: input.label });
  const id = nextPlanId++;
  held = {
    id,
    plan,
    tables,
    ...(microsoft && refusals
      ? {
          microsoft: {
            account: microsoft,
            refusals,
            planTables: microsoftPlanTables(withoutRefused(tables, refusals)),
          },
        }
      : {}),
  };
  const counts: LoopPlanOutput['counts'] = [];
  for (const kind of PLAN_ITEM_KINDS) {
    const c = plan.counts[kind];
    if (Object.values(c).some((n) => n > 0)) counts.push({ kind, counts: { ...c } });
  }
  return {
    planId: id,
    compared,
    counts,
    totals: { ...plan.totals },
    lines: packPlanLines(plan, once),
    collisions: packCollisions(plan, once),
    refused: refusals?.report.length ?? 0,
  };
};

export const loopPlanLinesJob: EngineJobHandler<
  { planId: number; filter: PlanLinesFilter },
  { lines: PackedTable }
> = (input) => {
  const { plan, tables, microsoft } = heldPlan(input.planId);
  return { lines: packPlanLines(plan, microsoft?.planTables ?? tables, input.filter) };
};

/** What "Download changes" answers: the zip and its files' names. */
export interface ChangesOutput {
  blob: Blob;
  fileNames: string[];
  /** A Microsoft Advertising plan: no record follows (see `microsoftChanges`). */
  microsoft?: boolean;
}

export const loopChangesJob: EngineJobHandler<LoopChangesInput, ChangesOutput> = (input) => {
  const held = heldPlan(input.planId);
  const { plan, tables: given, microsoft } = held;
  const tables = readOnce(given);
  const label = plan.options.label;
  if (microsoft) return microsoftChanges(plan, tables, microsoft, input.naming);
  const files = GOOGLE_ADS_EDITOR.files(changesTables(plan, tables), {
    fileName: fileNamer(input.naming),
    withNotes: true,
    clientLabel: label,
  });
  files.push(planFile(plan, tables));
  const blob = zipFiles(files);
  held.made = tables;
  return { blob, fileNames: files.map((f) => f.name) };
};

/**
 * `loopChangesRecord`: the record of the build after "Download changes" of the held plan, made
 * once its file is saved (from the tables that download read, when it ran just before).
 */
export const loopChangesRecordJob: EngineJobHandler<
  { planId: number; info: Omit<BuildRecordInfo, 'label'> },
  RecordOutput
> = (input) => {
  const held = heldPlan(input.planId);
  const tables = held.made ?? readOnce(held.tables);
  held.made = undefined;
  const label = held.plan.options.label;
  return recordOfDownload(planRecordChunks({ ...input.info, label }, held.plan, tables));
};

/**
 * "Download changes for Microsoft Advertising": the changes-only bulk file, its report and the
 * plan, zipped. No build record: a Microsoft plan's baseline is the account's next download.
 */
function microsoftChanges(
  plan: ChangePlan,
  given: ExportTable[],
  { account, refusals }: { account: MicrosoftAccount; refusals: MicrosoftRefusals },
  naming: FileNaming,
): ChangesOutput {
  const tables = withoutRefused(given, refusals);
  const planTables = microsoftPlanTables(tables);
  const changes = writeMicrosoftChanges(plan, tables, planTables, account, {
    label: plan.options.label,
    refused: refusals.report,
  });
  const name = fileNamer(naming);
  const files: ExportFile[] = [
    {
      name: name(`${MICROSOFT_BULK_FILE_STEM} changes`, 'csv'),
      type: 'text/csv;charset=utf-8',
      bom: true,
      chunks: () => changes.chunks(),
    },
    {
      name: name(MICROSOFT_REPORT_FILE_STEM, 'csv'),
      type: 'text/csv;charset=utf-8',
      bom: true,
      chunks: () => formatCsv(changes.report(), { neutraliseFormulas: true }),
    },
    planFile(plan, planTables),
  ];
  const blob = zipFiles(files);
  return { blob, fileNames: files.map((f) => f.name), microsoft: true };
}

/** Forgets the held plan and baseline (tests, and a new worker's start). */
export function forgetLoopState(): void {
  held = null;
  kept = null;
  madeForPlan = null;
}

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    loopRecord: typeof loopRecordJob;
    loopPlan: typeof loopPlanJob;
    loopPlanLines: typeof loopPlanLinesJob;
    loopChanges: typeof loopChangesJob;
    loopChangesRecord: typeof loopChangesRecordJob;
  }
}
