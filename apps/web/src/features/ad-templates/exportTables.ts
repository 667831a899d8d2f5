import type { ExportableKind } from '../exports/index.ts';
import { reportPartOf } from '../exports/exportables.ts';
import { adOutputsOf, type AdOutputs } from './adOutputStore.ts';
import { adsHeldRef } from './adsHeld.ts';

/** How the report names each ad kind's output. */
const AD_OUTPUT_NAMES: Readonly<Record<keyof AdOutputs, string>> = {
  rsa: 'Responsive search ads',
  performance: 'Performance Max ads',
};

/** The table each ad kind exports: the engine's Editor columns, held by the worker. */
const AD_TABLE_KINDS = {
  rsa: 'responsive-search-ads',
  performance: 'performance-max-ads',
} as const satisfies Record<keyof AdOutputs, string>;

/** The export table of one kind's kept ads (the worker makes its Editor table when asked). */
export function adsExportTable(kind: keyof AdOutputs, outputId: string) {
  return { kind: AD_TABLE_KINDS[kind], source: { held: adsHeldRef(kind, outputId) } };
}

/** The ad tabs' exportable tables: the kept responsive search ads, then Performance Max ads. */
export const adExports: ExportableKind = {
  id: 'ads',
  store: adOutputsOf,
  tables(outputs) {
    const kept = adOutputsOf(outputs).get();
    const tables = [];
    const report = [];
    for (const kind of ['rsa', 'performance'] as const) {
      const ads = kept[kind];
      if (!ads) continue;
      if (ads.adCount > 0) tables.push(adsExportTable(kind, ads.outputId));
      report.push(reportPartOf(AD_OUTPUT_NAMES[kind], ads.origin, ads.issues));
    }
    return { tables, report };
  },
};
