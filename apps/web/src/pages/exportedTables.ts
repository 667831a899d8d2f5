/**
 * The ONE list of what the template kinds export, in the order "Download everything" zips them.
 * To add a kind: declare its tables in your feature's exportTables.ts (an `ExportableKind`), and
 * add one line here. The export step (features/exports/) imports no template feature.
 */
import type { ExportableKind } from '../features/exports/index.ts';
import { campaignExports } from '../features/campaign-template/exportTables.ts';
import { adExports } from '../features/ad-templates/exportTables.ts';
import { extensionExports } from '../features/extension-template/exportTables.ts';

export const EXPORTED_TABLES: readonly ExportableKind[] = [
  campaignExports,
  adExports,
  extensionExports,
];
