import { FEED_COLUMNS, type FeedRow } from '@adloom/engine';
import { FeedStore, normalizeCell, type BulkAppend, type PasteResult } from '../feed-grid/index.ts';

/**
 * A FeedStore that counts changes to its data (cells and rows), as opposed to selection or
 * filter changes, which the store's own version also counts. The count moves before the store
 * tells its listeners, so a listener can compare it with the last one it saw and know whether
 * there is unsaved work. Loading rows does not count: it is the saved state.
 */
export class TrackedFeedStore extends FeedStore {
  private dataChangeCount = 0;
  private rowsChangeCount = 0;

  /** How many changes to cells and rows there have been since the store was made. */
  get dataChanges(): number {
    return this.dataChangeCount;
  }

  /**
   * How many times the rows a generation would read may have changed: data changes, loads and
   * selection changes, not filtering (outputs compare it to say their rows changed since).
   */
  get rowsChanges(): number {
    return this.rowsChangeCount;
  }

  private bump(): void {
    this.dataChangeCount += 1;
    this.rowsChangeCount += 1;
  }

  /** Also the start of `load`: other rows. */
  override reset(): void {
    this.rowsChangeCount += 1;
    super.reset();
  }

  override setSelected(slot: number, isSelected: boolean): void {
    if (this.isSelected(slot) !== isSelected) this.rowsChangeCount += 1;
    super.setSelected(slot, isSelected);
  }

  override selectAllShown(): void {
    this.rowsChangeCount += 1;
    super.selectAllShown();
  }

  override clearSelection(): void {
    if (this.selectedCount > 0) this.rowsChangeCount += 1;
    super.clearSelection();
  }

  override setCell(slot: number, column: number, value: string): string {
    if (normalizeCell(value, column) !== this.getCell(slot, column)) this.bump();
    return super.setCell(slot, column, value);
  }

  override addRow(): number {
    this.bump();
    return super.addRow();
  }

  override paste(
    viewIndex: number,
    column: number,
    lines: readonly (readonly string[])[],
  ): PasteResult {
    if (lines.length > 0) this.bump();
    return super.paste(viewIndex, column, lines);
  }

  override deleteRow(slot: number): void {
    this.bump();
    super.deleteRow(slot);
  }

  override deleteSelected(): number {
    if (this.selectedCount > 0) this.bump();
    return super.deleteSelected();
  }

  override undo() {
    if (this.canUndo) this.bump();
    return super.undo();
  }

  override redo() {
    if (this.canRedo) this.bump();
    return super.redo();
  }

  override beginBulkAppend(): BulkAppend {
    const bulk = super.beginBulkAppend();
    const bump = () => this.bump();
    return {
      addChunk: (chunk) => bulk.addChunk(chunk),
      addRows: (rows) => bulk.addRows(rows),
      get count() {
        return bulk.count;
      },
      commit: (options) => {
        if (bulk.count > 0) bump();
        return bulk.commit(options);
      },
      abort: () => bulk.abort(),
    };
  }

  /** Appends rows (cells normalized) as one undoable step; a feed of only blank rows is replaced. */
  appendFeedRows(rows: readonly Partial<FeedRow>[]): number {
    const bulk = this.beginBulkAppend();
    bulk.addRows(
      rows.map((row) => FEED_COLUMNS.map((column, c) => normalizeCell(row[column] ?? '', c))),
    );
    return bulk.commit({ replaceBlankFeed: true });
  }
}
