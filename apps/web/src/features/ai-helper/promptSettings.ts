import type { FeedRow } from '@adloom/engine';

/** The feed columns a prompt setting can be filled from, with their grid names. */
export const ROW_COLUMNS = [
  { value: 'root', label: 'Root' },
  { value: 'mod', label: 'Modifier' },
  { value: 'var1', label: 'Var 1' },
  { value: 'var2', label: 'Var 2' },
  { value: 'var3', label: 'Var 3' },
] as const;

/** A column a prompt setting can be filled from. */
export type RowColumn = (typeof ROW_COLUMNS)[number]['value'];

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
