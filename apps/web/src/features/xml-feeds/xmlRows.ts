import type { FeedRow, XmlFeedCells } from '@adloom/engine';
import { normalizeCell } from '../feed-grid/index.ts';

/** A row's Root and Modifier as compared: as the grid stores them, case ignored. */
function pairKey(root: string, mod: string): string {
  return `${normalizeCell(root, 0).toLowerCase()}\u0000${normalizeCell(mod, 1).toLowerCase()}`;
}

/**
 * The rows an Add XML appends (issue 17: each combination once): the feed cells whose Root and
 * Modifier the feed does not hold yet, case-insensitively, each once, in the engine's order
 * (with the status the engine gave: 'paused' when all the row's products are out of stock).
 * `existing` gives the Root and Modifier of every row the feed holds.
 */
export function pickNewXmlRows(
  existing: Iterable<readonly [root: string, mod: string]>,
  cells: readonly XmlFeedCells[],
): Partial<FeedRow>[] {
  const seen = new Set<string>();
  for (const [root, mod] of existing) seen.add(pairKey(root, mod));
  const rows: Partial<FeedRow>[] = [];
  for (const { root, mod, status } of cells) {
    const key = pairKey(root, mod);
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(status ? { root, mod, status } : { root, mod });
  }
  return rows;
}
