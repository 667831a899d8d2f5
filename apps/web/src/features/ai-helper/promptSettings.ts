import {
  FEED_COLUMN_LABELS,
  FEED_TEXT_COLUMNS,
  type FeedRow,
  type FeedTextColumn,
} from '@adloom/engine';

/** A column a prompt setting can be filled from: the feed's text columns. */
export type RowColumn = FeedTextColumn;

/** The feed columns a prompt setting can be filled from, with their grid names. */
export const ROW_COLUMNS: readonly { value: RowColumn; label: string }[] = FEED_TEXT_COLUMNS.map(
  (value) => ({ value, label: FEED_COLUMN_LABELS[value] }),
);

/** The distinct non-empty values of `column` in `rows`, first seen first, joined with ', '. */
export function valuesFromRows(rows: readonly FeedRow[], column: RowColumn): string {
  const seen = new Set<string>();
  for (const row of rows) {
    const value = row[column].trim();
    if (value !== '') seen.add(value);
  }
  return [...seen].join(', ');
}

/** Keeps a panel position within a viewport of `width` x `height` (top-left corner). */
export function clampPosition(
  position: { x: number; y: number },
  size: { width: number; height: number },
  viewport: { width: number; height: number },
): { x: number; y: number } {
  return {
    x: Math.min(Math.max(position.x, 0), Math.max(viewport.width - size.width, 0)),
    y: Math.min(Math.max(position.y, 0), Math.max(viewport.height - 48, 0)),
  };
}
