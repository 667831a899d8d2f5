/**
 * `adloom plan`: the build `generate` would make, compared with the last build (its record,
 * `adloom-build.json`, in an earlier output folder) or with the live account (a Google Ads Editor
 * export), and only the changes written: Editor files with their status columns set, the plan
 * `adloom-plan.csv`, the collisions with hand-made items, and the record of the build after the
 * changes. The full build is made in a scratch folder first and read back as tables.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AccountExportReader,
  baselineItemsToLoad,
  BUILD_RECORD_FILE_NAME,
  BuildRecordReader,
  changesTables,
  editorFileStem,
  formatCsv,
  GOOGLE_ADS_EDITOR,
  IMAGES_NEEDED_FILE_STEM,
  IMAGES_NEEDED_NOTE,
  MICROSOFT_BULK_FILE_STEM,
  MICROSOFT_REPORT_FILE_STEM,
  itemKindOfTable,
  PLAN_FILE_NAME,
  PLAN_ITEM_KIND_LABELS,
  PLAN_ITEM_KINDS,
  planChanges,
  planCollisions,
  planKeptDroppedItems,
  planRecordChunks,
  planTable,
  readRecordIdentities,
  type Baseline,
  type ChangePlan,
  type DroppedPolicy,
  type ExportTable,
  type PlanCounts,
  type Table,
} from '@adloom/engine';
import { fileTables } from './fileTables.ts';
import { InputError, OutputFolder } from './files.ts';
import {
  commandFileName,
  OUTPUT_KINDS,
  runGenerateBuild,
  type GenerateOptions,
} from './generate.ts';
import { recordCounts, recordItemCount, writeRecordWithExtra } from './recordStream.ts';
import { plural } from './report.ts';

/** The collisions file: new items not written because a hand-made item holds their name. */
export const COLLISIONS_FILE_NAME = 'adloom-collisions.csv';

/** Its columns. */
const COLLISION_HEADERS = ['Kind', 'Campaign', 'Ad Group', 'Item', 'Reason', 'Feed line'];

/** Options of `runPlan`: generate's, and what the build is compared with. */
export interface PlanCommandOptions extends Omit<GenerateOptions, 'out' | 'record' | 'lines'> {
  out: string;
  /** An earlier `generate` or `plan` output folder (its adloom-build.json). */
  previous?: string;
  /** A Google Ads Editor export of the account. */
  account?: string;
  dropped: DroppedPolicy;
}

/** Bytes read at a time from a record or an account export. */
const PIECE_BYTES = 1 << 20;

/** Calls `onPiece` with each piece of the file's bytes. */
export function readPieces(file: string, onPiece: (bytes: Uint8Array) => void): void {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      onPiece(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/** The record file of a folder given to --previous, checked before anything is generated. */
function recordFileOf(dir: string): string {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new InputError(`--previous: no such folder: ${dir}`);
  }
  if (!isDir)
    throw new InputError(`--previous must be an output folder of generate or plan: ${dir}`);
  const file = path.join(dir, BUILD_RECORD_FILE_NAME);
  if (!existsSync(file))
    throw new InputError(
      `--previous: ${dir} has no ${BUILD_RECORD_FILE_NAME} (made by "adloom generate" or "adloom plan" into a folder)`,
    );
  return file;
}

/** Calls `push` with the file's text in pieces (UTF-8). */
function readTextOf(file: string, push: (text: string) => void): void {
  const decoder = new TextDecoder('utf-8');
  readPieces(file, (bytes) => push(decoder.decode(bytes, { stream: true })));
  push(decoder.decode());
}

/**
 * Reads a build record into a baseline that keeps no text (a 1M-row build's record names
 * millions): the identities the plan writes again are read from the file once more
 * (`loadDroppedIdentities`).
 */
function readRecord(file: string): Baseline & { header: { created: string; feed: string } } {
  // The lists made as long as the record says at once (its end line).
  const reader = new BuildRecordReader({
    identities: 'on-demand',
    expectedItems: recordItemCount(file),
  });
  try {
    readTextOf(file, (text) => reader.push(text));
    return reader.end();
  } catch (e) {
    throw new InputError(`${file}: ${(e as Error).message}`);
  }
}

/** The identities of the items the plan writes again, read from the record once more. */
function loadDroppedIdentities(plan: ChangePlan, file: string): void {
  if (!plan.baseline.identitiesOnDemand) return;
  plan.baseline.loadIdentities(
    readRecordIdentities(baselineItemsToLoad(plan), (push) => readTextOf(file, push)),
  );
}

/** Reads an Editor export of the account into a baseline. */
function readAccount(file: string, label: string): ReturnType<AccountExportReader['end']> {
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new InputError(`--account: cannot read ${file}`);
  }
  const reader = new AccountExportReader({ label });
  readPieces(file, (bytes) => reader.pushBytes(bytes));
  const baseline = reader.end();
  if (baseline.summary.rows === 0)
    throw new InputError(`--account: ${file} holds no rows of a Google Ads Editor export`);
  return baseline;
}

/** The command's name for a changes table's file (Performance Max ads: asset-groups.csv). */
function changesFileName(tables: readonly ExportTable[]): (stem: string, ext: string) => string {
  const hasAssetGroups = tables.some((t) => t.kind === 'asset-groups');
  return (stem, ext) =>
    stem === editorFileStem('performance-max-ads') && !hasAssetGroups
      ? OUTPUT_KINDS['asset-groups']
      : commandFileName(stem, ext);
}

/** Every file a plan may write (those it does not write this time are removed from --out). */
export const PLAN_OUTPUT_NAMES = [
  ...Object.values(OUTPUT_KINDS),
  commandFileName(editorFileStem('performance-max-ads'), 'csv'),
  commandFileName(IMAGES_NEEDED_FILE_STEM, 'txt'),
  COLLISIONS_FILE_NAME,
  PLAN_FILE_NAME,
  BUILD_RECORD_FILE_NAME,
  commandFileName(MICROSOFT_BULK_FILE_STEM, 'csv'),
  commandFileName(MICROSOFT_REPORT_FILE_STEM, 'csv'),
];

/** The changes of one kind. */
function changed(c: PlanCounts): number {
  return c.add + c.update + c.pause + c.enable + c.remove;
}

/** The counts per kind as a readable table. */
export function formatPlanCounts(plan: ChangePlan): string[] {
  const showCollisions = plan.totals.collisions > 0;
  const headers = [
    'Kind',
    'New',
    'Changed',
    'Paused',
    'Resumed',
    'Removed',
    'Unchanged',
    ...(showCollisions ? ['Collisions'] : []),
  ];
  const row = (label: string, c: PlanCounts): string[] => [
    label,
    ...[c.add, c.update, c.pause, c.enable, c.remove, c.unchanged].map(String),
    ...(showCollisions ? [String(c.collisions)] : []),
  ];
  const rows = PLAN_ITEM_KINDS.filter((k) => {
    const c = plan.counts[k];
    return changed(c) + c.unchanged + c.collisions > 0;
  }).map((k) => row(PLAN_ITEM_KIND_LABELS[k], plan.counts[k]));
  rows.push(row('Total', plan.totals));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`;
  return [line(headers), ...rows.map(line)];
}

/** Runs a plan; returns the summary. Throws InputError for bad input (nothing written). */
export async function runPlan(o: PlanCommandOptions): Promise<string> {
  const recordFile = o.previous !== undefined ? recordFileOf(o.previous) : undefined;
  if (o.account !== undefined && !existsSync(o.account))
    throw new InputError(`--account: no such file: ${o.account}`);
  // The full build, in a scratch folder.
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'adloom-plan-'));
  try {
    // The build writes its own record as it goes: the next record is that one and the dropped
    // items that stay (no pass over the build's files for it).
    const created = new Date().toISOString();
    const made = await runGenerateBuild({
      ...o,
      out: scratch,
      lines: new Map(),
      record: { created },
    });
    const buildRecord = path.join(scratch, BUILD_RECORD_FILE_NAME);
    const tables = fileTables(made.files);
    // The baseline is read once the build is made (the two never hold their memory together).
    let baseline: Baseline;
    let compared: string;
    if (recordFile !== undefined) {
      const record = readRecord(recordFile);
      baseline = record;
      compared = `Compared with the build of ${record.header.created || 'an unknown date'}${record.header.feed ? ` (${record.header.feed})` : ''} in ${o.previous}: ${plural(record.size, 'item')}`;
    } else {
      const account = readAccount(o.account!, o.label);
      baseline = account;
      compared = `Compared with the account export ${path.basename(o.account!)}: ${plural(account.summary.rows, 'row')}, ${plural(account.size, 'item')} (${account.unownedCount()} without the label "${o.label}": never changed)${account.summary.otherRows ? `; ${plural(account.summary.otherRows, 'row')} of other kinds left alone` : ''}`;
    }
    // Against a record, the new build's items come from its own record as it is read (no pass
    // over its files, none of its items held).
    const next =
      recordFile !== undefined && existsSync(buildRecord)
        ? (push: (text: string) => void) => readTextOf(buildRecord, push)
        : undefined;
    const plan = planChanges(
      baseline,
      tables,
      {
        dropped: o.dropped,
        label: o.label,
        ...(next ? { nextCounts: recordCounts(buildRecord) } : {}),
      },
      next,
    );
    if (recordFile !== undefined) loadDroppedIdentities(plan, recordFile);

    const folder = OutputFolder.open(o.out);
    const written: Array<[string, string]> = [];
    try {
      const changes = changesTables(plan, tables);
      const files = GOOGLE_ADS_EDITOR.files(changes, {
        fileName: changesFileName(changes),
        withNotes: true,
      });
      // One file per changes table, in order, then the images note.
      files.forEach((file, i) => {
        folder.writeFile(file.name, file.chunks(), file.bom);
        const table = changes[i];
        written.push([
          file.name,
          table
            ? plural(changed(plan.counts[itemKindOfTable(table.kind)]), 'change')
            : IMAGES_NEEDED_NOTE,
        ]);
      });
      writePlanLines(folder, plan, tables, written);
      const info = {
        created,
        client: '',
        feed: path.basename(o.feed),
        templates: made.templates,
        label: o.label,
      };
      // Collisions are left out of the next record: it is then made from the tables. Without
      // them, it is the build's own record (the same header), moved in as it is when no dropped
      // item stays in the account, else copied with those items after it.
      const kept = planKeptDroppedItems(plan);
      const firstKept = kept.next();
      if (plan.totals.collisions === 0 && existsSync(buildRecord)) {
        if (firstKept.done) folder.adopt(BUILD_RECORD_FILE_NAME, buildRecord);
        else
          writeRecordWithExtra(
            folder.file(BUILD_RECORD_FILE_NAME, false),
            info,
            buildRecord,
            (function* () {
              yield firstKept.value;
              yield* kept;
            })(),
          );
      } else folder.writeFile(BUILD_RECORD_FILE_NAME, planRecordChunks(info, plan, tables), false);
      written.push([BUILD_RECORD_FILE_NAME, 'the build record after these changes']);
      copyGenerationReport(folder, made.files.length > 0 ? scratch : undefined, written);
      folder.commit();
    } finally {
      folder.discard();
    }
    removeUnwritten(o.out, PLAN_OUTPUT_NAMES, written);

    const lines: string[] = [made.readLine, compared];
    lines.push(...planChangeLines(plan, o.dropped));
    if (plan.totals.collisions > 0) {
      lines.push(
        `${plural(plan.totals.collisions, 'new item')} not written: an item without the label "${o.label}" holds the name (see ${COLLISIONS_FILE_NAME}):`,
      );
      let n = 0;
      for (const c of planCollisions(plan, tables)) {
        if (n++ === 5) {
          lines.push(`  ... and ${plan.totals.collisions - 5} more`);
          break;
        }
        lines.push(
          `  ${PLAN_ITEM_KIND_LABELS[c.kind]} ${c.item} (${[c.campaign, c.adGroup].filter(Boolean).join(' > ')}): ${c.reason}`,
        );
      }
    }
    lines.push(...writtenLines(o.out, written), ...made.issueLines);
    return `${lines.join('\n')}\n`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Whether the plan changes anything: the summary's first lines, then the counts per kind. */
export function planChangeLines(plan: ChangePlan, dropped: string): string[] {
  return [
    ...(changed(plan.totals) === 0
      ? ['Nothing to change: the account is what the feed makes.']
      : []),
    `Changes (dropped items: ${dropped}):`,
    ...formatPlanCounts(plan),
  ];
}

/** The summary's list of the files written, one line each with what it holds. */
export function writtenLines(out: string, written: ReadonlyArray<[string, string]>): string[] {
  const width = Math.max(...written.map(([f]) => f.length));
  return [`Wrote to ${out}:`, ...written.map(([file, what]) => `  ${file.padEnd(width)}  ${what}`)];
}

/**
 * Copies the report generation wrote in `scratch` (none when nothing was skipped, cleaned or
 * warned about, or when no scratch folder is given) into the output.
 */
export function copyGenerationReport(
  folder: OutputFolder,
  scratch: string | undefined,
  written: Array<[string, string]>,
): void {
  const reportFile = scratch === undefined ? '' : path.join(scratch, OUTPUT_KINDS.report);
  if (!reportFile || !existsSync(reportFile)) return;
  folder.writeFile(OUTPUT_KINDS.report, readTextPieces(reportFile), false);
  written.push([OUTPUT_KINDS.report, 'the items generation skipped, cleaned or warned about']);
}

/**
 * Removes the files of `names` in `out` that this run did not write: files of an earlier plan
 * or build left there would be imported by mistake.
 */
export function removeUnwritten(
  out: string,
  names: Iterable<string>,
  written: ReadonlyArray<[string, string]>,
): void {
  const kept = new Set(written.map(([n]) => n));
  for (const name of names) if (!kept.has(name)) rmSync(path.join(out, name), { force: true });
}

/**
 * Writes the plan's lines (`adloom-plan.csv`) and, when there are any, its collisions
 * (`adloom-collisions.csv`), and notes both in `written`.
 */
export function writePlanLines(
  folder: OutputFolder,
  plan: ChangePlan,
  tables: readonly ExportTable[],
  written: Array<[string, string]>,
): void {
  folder.writeFile(
    PLAN_FILE_NAME,
    formatCsv(planTable(plan, tables), { neutraliseFormulas: true }),
  );
  written.push([PLAN_FILE_NAME, plural(changed(plan.totals), 'change')]);
  if (plan.totals.collisions === 0) return;
  folder.writeFile(
    COLLISIONS_FILE_NAME,
    formatCsv(collisionsTable(plan, tables), { neutraliseFormulas: true }),
  );
  written.push([COLLISIONS_FILE_NAME, plural(plan.totals.collisions, 'collision')]);
}

/** The collisions as a table. */
function collisionsTable(plan: ChangePlan, tables: readonly ExportTable[]): Table {
  return {
    headers: COLLISION_HEADERS,
    rows: {
      *[Symbol.iterator]() {
        for (const c of planCollisions(plan, tables))
          yield [
            PLAN_ITEM_KIND_LABELS[c.kind],
            c.campaign,
            c.adGroup,
            c.item,
            c.reason,
            c.line > 0 ? String(c.line) : '',
          ];
      },
    },
  };
}

/** A text file's contents in pieces, read as they are asked for (its BOM kept). */
function* readTextPieces(file: string): Generator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(PIECE_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      yield decoder.decode(buf.subarray(0, n), { stream: true });
    }
    yield decoder.decode();
  } finally {
    closeSync(fd);
  }
}
