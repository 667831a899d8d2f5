import { useSyncExternalStore } from 'react';
import { FEED_COLUMNS, type FeedRow } from '@adloom/engine';
import type { FeedStore } from '../feed-grid/index.ts';
import { useBuilderWorkspace } from '../builder/useBuilderWorkspace.ts';
import { yieldToPage } from '../../state/yieldToPage.ts';
import type { RowsChunkMessage } from './jobTypes.ts';
import { ROWS_CHUNK_ID_TEXT as ID_TEXT } from './rowsChunk.ts';
import { keptForPage } from '../../state/pageState.ts';

/** Where a job's rows come from: the selected rows of a feed store. */
export interface RowsSource {
  readonly store: FeedStore;
  /** Changes whenever the rows or the selection change. */
  key(): string;
}

const storeIds = new WeakMap<FeedStore, number>();
let nextStoreId = 1;
keptForPage(() => {
  nextStoreId = 1;
});

/** The selected rows of `store` as a rows source. */
export function selectedRowsSource(store: FeedStore): RowsSource {
  let id = storeIds.get(store);
  if (id === undefined) storeIds.set(store, (id = nextStoreId++));
  const storeId = id;
  return { store, key: () => `${storeId}:${store.getVersion()}` };
}

/** Rows read per slice before giving the page a turn (a slice takes a few ms). */
export const ROWS_SLICE = 2000;

/**
 * Reads the selected rows of a store in slices, each as a message for the worker, giving the
 * page a turn between slices. Stops early (returns false) when `isStopped()` says so.
 */
export async function sendSelectedRows(
  store: FeedStore,
  key: string,
  send: (message: RowsChunkMessage, transfer: Transferable[]) => void,
  onProgress: (fraction: number) => void,
  isStopped: () => boolean,
): Promise<boolean> {
  const total = store.rowCount;
  let position = 0;
  while (position < total) {
    if (isStopped()) return false;
    const end = Math.min(total, position + ROWS_SLICE);
    // Every feed column in FEED_COLUMNS order, then the row ids (the worker's readRowsChunk).
    const texts = new Array<string>(ID_TEXT + 1).fill('');
    const lengths: Uint32Array[] = [];
    for (let c = 0; c <= ID_TEXT; c += 1) lengths.push(new Uint32Array(end - position));
    const positions = new Uint32Array(end - position);
    let n = 0;
    for (let p = position; p < end; p += 1) {
      const slot = store.getSlotAt(p);
      if (!store.isSelected(slot)) continue;
      for (let c = 0; c < ID_TEXT; c += 1) {
        const value = store.getCell(slot, c);
        texts[c] += value;
        (lengths[c] as Uint32Array)[n] = value.length;
      }
      const id = store.getRowId(slot);
      texts[ID_TEXT] += id;
      (lengths[ID_TEXT] as Uint32Array)[n] = id.length;
      positions[n] = p;
      n += 1;
    }
    if (n > 0) {
      const trimmed = lengths.map((l) => l.slice(0, n));
      const pos = positions.slice(0, n);
      send({ type: 'rows-chunk', key, texts, lengths: trimmed, positions: pos }, [
        ...trimmed.map((l) => l.buffer),
        pos.buffer,
      ]);
    }
    position = end;
    onProgress(total === 0 ? 1 : position / total);
    if (position < total) await yieldToPage();
  }
  return true;
}

/** The first `limit` selected rows of a store as FeedRow objects (main thread; keep it small). */
export function readSelectedRows(store: FeedStore, limit = Number.POSITIVE_INFINITY): FeedRow[] {
  const rows: FeedRow[] = [];
  for (let p = 0; p < store.rowCount && rows.length < limit; p += 1) {
    const slot = store.getSlotAt(p);
    if (!store.isSelected(slot)) continue;
    const row = { id: store.getRowId(slot) } as FeedRow;
    FEED_COLUMNS.forEach((column, c) => {
      row[column] = store.getCell(slot, c);
    });
    rows.push(row);
  }
  return rows;
}

/** What a tab knows about the selected rows of the active feed. */
export interface SelectedRows {
  count: number;
  /** Changes whenever the rows or the selection change. */
  version: number;
  /** Every selected row now, on the main thread: only for small uses. */
  read(): FeedRow[];
  /** Hand this to `runEngineJob({ rows })`: the worker gets the rows in slices. */
  source: RowsSource;
}

/** The selected rows of the active feed (re-renders when rows or selection change). */
export function useSelectedRows(): SelectedRows {
  const workspace = useBuilderWorkspace();
  const store = workspace.editor.store;
  const version = useSyncExternalStore(store.subscribe, store.getVersion, store.getVersion);
  const hasFeed = useSyncExternalStore(
    workspace.editor.state.subscribe,
    () => workspace.editor.state.get().activeFeed !== null,
    () => workspace.editor.state.get().activeFeed !== null,
  );
  return {
    count: hasFeed ? store.selectedCount : 0,
    version,
    read: () => (hasFeed ? readSelectedRows(store) : []),
    source: selectedRowsSource(store),
  };
}
