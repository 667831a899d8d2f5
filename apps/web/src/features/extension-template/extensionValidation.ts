import {
  type CampaignTemplate,
  compileExtensionTemplate,
  type ExtensionTemplate,
  FEED_TEXT_COLUMNS,
  type FeedRow,
  fillExtensionValues,
  findExtensionProblem,
  newFeedCells,
  type PlaceholderValues,
} from '@adloom/engine';
import type { EngineJobHandler } from '../generation/jobs.ts';
import { FAILURES_KEPT, type ValidationResult } from '../validation/checks.ts';

/** The field a problem of `findExtensionProblem` is about (its message starts with it). */
export function findProblemField(template: ExtensionTemplate, problem: string): string {
  if (problem.startsWith('Snippet value')) return 'Snippet Values';
  const field = template.extensionType.fields.find((f) => problem.startsWith(f.title));
  return field ? field.title : 'Extension';
}

function rowText(row: FeedRow): string {
  return FEED_TEXT_COLUMNS.map((column) => row[column])
    .filter((v) => v !== '')
    .join(' · ');
}

/**
 * Which rows some entry of an extension template serves (spec section 5: every non-static field
 * above 0 and within its limit after substitution, snippet values 3 to 10 of at most 25, a known
 * header, a sitelink's final URL), and for the others the first entry's field and reason.
 */
export function validateExtensionTemplate(
  template: ExtensionTemplate,
  rows: readonly FeedRow[],
  rowPositions?: Uint32Array,
  onProgress?: (fraction: number) => void,
  campaign: CampaignTemplate | null = null,
): ValidationResult {
  const compiled = compileExtensionTemplate(template);
  const type = template.extensionType.name;
  // {const} is the campaign template's, as generation fills it.
  const values: PlaceholderValues = {
    row: newFeedCells(),
    const: campaign?.const ?? '',
  };
  const result: ValidationResult = { valid: 0, total: rows.length, failures: [], failing: 0 };
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as FeedRow;
    values.row = row;
    let first: string | undefined;
    let isValid = false;
    for (const fields of compiled) {
      const problem = findExtensionProblem(template, fillExtensionValues(type, fields, values));
      if (problem === undefined) {
        isValid = true;
        break;
      }
      first ??= problem;
    }
    if (isValid) {
      result.valid++;
    } else {
      result.failing++;
      if (result.failures.length < FAILURES_KEPT) {
        const reason = first ?? 'The template has no values';
        result.failures.push({
          rowNumber: i + 1,
          feedRowNumber: rowPositions ? (rowPositions[i] ?? -1) + 1 : 0,
          rowText: rowText(row),
          field: first === undefined ? 'Extension' : findProblemField(template, reason),
          reason,
        });
      }
    }
    if (onProgress && (i & 4095) === 4095) onProgress(i / rows.length);
  }
  return result;
}

/** The extension validator's job in the engine worker. */
export const validateExtensionsJob: EngineJobHandler<
  { template: ExtensionTemplate; campaign: CampaignTemplate | null },
  ValidationResult
> = (input, ctx) =>
  validateExtensionTemplate(
    input.template,
    ctx.rows,
    ctx.rowPositions,
    (f) => ctx.progress(f),
    input.campaign,
  );

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    validateExtensions: typeof validateExtensionsJob;
  }
}
