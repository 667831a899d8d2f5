import { Text } from '@mantine/core';
import { OutputTable } from './OutputTable.tsx';
import type { PackedTable } from '../generation/packTable.ts';

/**
 * Items the engine skipped or cleaned, with the feed row (its number in the grid) and the
 * reason in full (the rows are as tall as the longest reason needs, wrapped, at any width),
 * shown beside an output (never dropped silently). Virtualized like the output, with
 * Copy, which is for a spreadsheet: a cell starting with = + - @ gets an apostrophe.
 */
export function IssuesList({
  table,
  label = 'Skipped and cleaned items',
  height = 260,
}: {
  table: PackedTable | null;
  label?: string;
  height?: number;
}) {
  if (!table) return null;
  return (
    <section aria-label={label} className="issues-list">
      <Text size="sm" fw={600} mb={4}>
        {label}
      </Text>
      <OutputTable
        label={label}
        table={table}
        height={height}
        emptyText="Nothing was skipped or cleaned."
        unit={['item', 'items']}
        neutraliseCopy
        columnWidths="52px 136px minmax(150px, 1fr)"
        rowLines="fit"
      />
    </section>
  );
}
