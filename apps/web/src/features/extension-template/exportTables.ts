import { EXTENSION_TYPES } from '@adloom/engine';
import type { ExportableKind, ExportTableRef } from '../exports/index.ts';
import { reportPartOf } from '../exports/exportables.ts';
import { extensionOutputsOf } from './extensionOutput.ts';
import { EXTENSION_TABLE_KINDS } from './extensionTables.ts';

/** The Extensions tab's exportable tables: each type generated, in the engine's type order. */
export const extensionExports: ExportableKind = {
  id: 'extensions',
  store: extensionOutputsOf,
  tables(outputs) {
    const kept = extensionOutputsOf(outputs).get();
    const tables: ExportTableRef[] = [];
    const report = [];
    for (const type of EXTENSION_TYPES) {
      const extension = kept[type];
      if (!extension) continue;
      if (extension.table.rowCount > 0)
        tables.push({ kind: EXTENSION_TABLE_KINDS[type], source: { packed: extension.table } });
      report.push(reportPartOf(type, extension.origin, extension.issues));
    }
    return { tables, report };
  },
};
