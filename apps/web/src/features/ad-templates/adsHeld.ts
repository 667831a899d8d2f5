import type { HeldTableRef } from '../exports/heldTables.ts';

// The ads' Editor tables the engine worker holds for the downloads (adJobs.ts holds them, the
// page names them): shared by both sides, so neither imports the other.

/** The held slot of each ad kind's Editor table: one per kind, the last generated. */
export const ADS_HELD_SLOTS = { rsa: 'ads:rsa', performance: 'ads:performance' } as const;

/** Text of the Editor download when the worker no longer holds the ads. */
export const REGENERATE_MESSAGE = 'Generate the ads again to download them for Google Ads Editor';

/** The held Editor table of the ads of one generation (`AdOutput.outputId`). */
export function adsHeldRef(kind: keyof typeof ADS_HELD_SLOTS, outputId: string): HeldTableRef {
  return { slot: ADS_HELD_SLOTS[kind], id: outputId, missing: REGENERATE_MESSAGE };
}
