/**
 * `adloom plan --format microsoft-advertising --account FILE`: the build `generate` would make,
 * compared with a bulk download of the Microsoft Advertising account, and only the changes
 * written: `microsoft-advertising.csv` (new items as the full file writes them, labelled; changed,
 * paused, resumed and removed ones by their Microsoft Id), its report (what could not be planned
 * or written), the plan `adloom-plan.csv`, and the collisions with hand-made items. The full
 * build is made in a scratch folder first and read back as tables, as for Google's plan.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MICROSOFT_BULK_FILE_STEM,
  MICROSOFT_REPORT_FILE_STEM,
  formatCsv,
  microsoftPlanInput,
  planChanges,
  MicrosoftAccountReader,
  writeMicrosoftChanges,
  type MicrosoftAccount,
} from '@adloom/engine';
import { fileTables } from './fileTables.ts';
import { InputError, OutputFolder } from './files.ts';
import { commandFileName, runGenerateBuild } from './generate.ts';
import { readMicrosoftLocationMap, type MicrosoftLocationFiles } from './microsoft.ts';
import {
  COLLISIONS_FILE_NAME,
  PLAN_OUTPUT_NAMES,
  copyGenerationReport,
  planChangeLines,
  readPieces,
  removeUnwritten,
  writePlanLines,
  writtenLines,
  type PlanCommandOptions,
} from './plan.ts';
import { plural } from './report.ts';

/** Why a Microsoft plan needs the account's bulk download, said when it is not given. */
export const MICROSOFT_PLAN_NEEDS_ACCOUNT =
  'plan --format microsoft-advertising needs --account FILE, a bulk download of the Microsoft ' +
  'Advertising account (Bulk File Schema 6.0, CSV): an update, pause or removal in a Microsoft ' +
  "bulk file names the item by Microsoft's Id, which only the account's download holds " +
  '(--previous has Google Ads Editor builds only)';

/**
 * Reads the bulk download given to --account (UTF-8, as Microsoft writes it) in pieces: a large
 * account's download is never one string.
 */
function readAccount(file: string, label: string): MicrosoftAccount {
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new InputError(`--account: cannot read ${file}`);
  }
  const reader = new MicrosoftAccountReader({ label });
  const notBulk = () =>
    new InputError(
      `--account: ${file} is not a Microsoft Advertising bulk download (its first column is not Type)`,
    );
  let first = true;
  readPieces(file, (bytes) => {
    if (first) {
      first = false;
      if (!/^\uFEFF?"?Type"?[,\t]/.test(new TextDecoder().decode(bytes.subarray(0, 16))))
        throw notBulk();
    }
    reader.pushBytes(bytes);
  });
  if (first) throw notBulk();
  return reader.end();
}

/** Runs a Microsoft plan; returns the summary. Throws InputError for bad input (nothing written). */
export async function runMicrosoftPlan(
  o: PlanCommandOptions & { account: string; locations?: MicrosoftLocationFiles },
): Promise<string> {
  const account = readAccount(o.account, o.label);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'adloom-msplan-'));
  try {
    const made = await runGenerateBuild({ ...o, out: scratch, lines: new Map() });
    const locations = o.locations ? readMicrosoftLocationMap(scratch, o.locations) : undefined;
    const located = locations ? { microsoftLocationId: locations.microsoftLocationId } : {};
    // Items Microsoft cannot take (and the account does not hold) are left out of the plan.
    const { tables, planTables, refusals } = microsoftPlanInput(
      fileTables(made.files),
      account.baseline,
      { label: o.label, ...located },
    );
    const plan = planChanges(account.baseline, planTables, { dropped: o.dropped, label: o.label });
    const changes = writeMicrosoftChanges(plan, tables, planTables, account, {
      label: o.label,
      refused: refusals.report,
      ...located,
    });
    const bulkName = commandFileName(MICROSOFT_BULK_FILE_STEM, 'csv');
    const reportName = commandFileName(MICROSOFT_REPORT_FILE_STEM, 'csv');
    const folder = OutputFolder.open(o.out);
    const written: Array<[string, string]> = [];
    try {
      folder.writeFile(bulkName, changes.chunks(), true);
      const counts = changes.counts();
      const records = Object.entries(counts.records)
        .map(([type, n]) => `${n} ${type}`)
        .join(', ');
      written.push([bulkName, records || 'no change']);
      folder.writeFile(reportName, formatCsv(changes.report(), { neutraliseFormulas: true }), true);
      written.push([
        reportName,
        `${plural(counts.notPlanned, 'change')} not planned, ${plural(counts.notWritten, 'new item')} not written`,
      ]);
      writePlanLines(folder, plan, planTables, written);
      copyGenerationReport(folder, made.files.length > 0 ? scratch : undefined, written);
      folder.commit();
    } finally {
      folder.discard();
    }
    removeUnwritten(o.out, [...PLAN_OUTPUT_NAMES, bulkName, reportName], written);

    const unlabelled = account.baseline.unownedCount();
    const lines: string[] = [
      made.readLine,
      `Compared with the Microsoft Advertising bulk download ${path.basename(o.account)}: ${plural(account.summary.rows, 'record')}, ${plural(account.baseline.size, 'item')} (${unlabelled} without the label "${o.label}": never changed)${account.summary.otherRows ? `; ${plural(account.summary.otherRows, 'record')} of other kinds left alone` : ''}`,
    ];
    const total = plan.totals;
    lines.push(...planChangeLines(plan, o.dropped));
    const refused = refusals.report.length;
    if (refused > 0)
      lines.push(
        `${plural(refused, 'item')} Microsoft cannot take: not planned (see ${reportName})`,
      );
    if (total.collisions > 0)
      lines.push(
        `${plural(total.collisions, 'new item')} not written: an item without the label "${o.label}" holds the name (see ${COLLISIONS_FILE_NAME})`,
      );
    if (locations) {
      const { mapped, notMapped } = locations.counts();
      lines.push(
        `Locations: ${mapped} of ${plural(mapped + notMapped, 'Google location')} mapped to Microsoft Location Ids`,
      );
    }
    lines.push(...writtenLines(o.out, written), ...made.issueLines);
    return `${lines.join('\n')}\n`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
