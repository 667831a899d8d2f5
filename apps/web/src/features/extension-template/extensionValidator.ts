import type { CampaignTemplate, ExtensionTemplate } from '@adloom/engine';
import { runEngineJob, type RowsSource } from '../generation/index.ts';
import { createCoalescingValidator, type FallbackValidator } from '../validation/validator.ts';
import { VALIDATE_LANE } from '../validation/useWorkerChecks.ts';

/** What the extension validator scores: one extension template ({const} from the campaign template). */
export interface ExtensionCheck {
  template: ExtensionTemplate;
  campaign: CampaignTemplate | null;
}

/**
 * The Extensions tab's validator over the selected rows, in the engine worker's 'validate' lane
 * (shared with the text counters). Like the RSA and Performance Max validators it runs one check
 * at a time and keeps only the newest waiting one: a keystroke never cancels a running check,
 * which would end the lane's worker and make it take the rows again.
 */
export function createExtensionValidator(
  rowCount: number,
  version: number,
  rows: RowsSource,
  lane: string = VALIDATE_LANE,
): FallbackValidator<ExtensionCheck> {
  return createCoalescingValidator<ExtensionCheck>(rowCount, version, (check) =>
    runEngineJob('validateExtensions', check, { rows, lane }),
  );
}
