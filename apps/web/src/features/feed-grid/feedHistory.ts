/** Most steps Ctrl+Z can go back. */
export const FEED_HISTORY_LIMIT = 100;

/** The row order at one moment: the slots of the feed's rows, in feed order. */
export interface OrderSnapshot {
  order: Uint32Array;
  length: number;
}

/** One undoable step, stored as a compact diff. */
export type HistoryEntry =
  | { kind: 'cells'; slots: Uint32Array; columns: Uint8Array; before: string[]; after: string[] }
  | { kind: 'append'; start: number; count: number }
  | { kind: 'order'; before: OrderSnapshot; after: OrderSnapshot }
  | { kind: 'batch'; entries: HistoryEntry[] };

/** The undo and redo stacks of a feed store (the store applies the steps). */
export class FeedHistory {
  private undoStack: HistoryEntry[] = [];
  private redoStack: HistoryEntry[] = [];

  /** Keeps a new step (the oldest goes past FEED_HISTORY_LIMIT); nothing is left to redo. */
  record(entry: HistoryEntry): void {
    this.undoStack.push(entry);
    if (this.undoStack.length > FEED_HISTORY_LIMIT) this.undoStack.shift();
    this.redoStack = [];
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /** The step to undo, moved to the redo stack. */
  takeUndo(): HistoryEntry | undefined {
    const entry = this.undoStack.pop();
    if (entry) this.redoStack.push(entry);
    return entry;
  }

  /** The step to redo, moved back to the undo stack. */
  takeRedo(): HistoryEntry | undefined {
    const entry = this.redoStack.pop();
    if (entry) this.undoStack.push(entry);
    return entry;
  }
}
