/**
 * Which rows (by slot) are selected: a base ('none', 'all' rows, or a bitmap of slots) XOR the
 * toggled slots, so selecting a million rows or all the rows a filter shows is one step.
 */
export class RowSelection {
  private base: 'none' | 'all' | Uint8Array = 'none';
  private baseCount = 0;
  private readonly toggled = new Set<number>();

  /** Whether the row at a slot is selected. */
  has(slot: number): boolean {
    const base = this.base;
    const inBase = base === 'all' ? true : base === 'none' ? false : base[slot] === 1;
    return inBase !== this.toggled.has(slot);
  }

  /** Selects a row that is not, or deselects one that is. */
  flip(slot: number): void {
    if (this.toggled.has(slot)) this.toggled.delete(slot);
    else this.toggled.add(slot);
  }

  /** How many rows are selected, of `rowCount` rows. */
  count(rowCount: number): number {
    const base = this.base;
    if (base === 'none') return this.toggled.size;
    if (base === 'all') return rowCount - this.toggled.size;
    let count = this.baseCount;
    for (const slot of this.toggled) count += base[slot] === 1 ? -1 : 1;
    return count;
  }

  /** Whether every row is selected by "select all" with no row toggled since. */
  get isEveryRow(): boolean {
    return this.base === 'all' && this.toggled.size === 0;
  }

  /** Selects every row. */
  selectAll(): void {
    this.toggled.clear();
    this.base = 'all';
  }

  /** Selects exactly the first `length` slots of `slots` (of `slotCount` slots in all). */
  selectSlots(slots: Uint32Array, length: number, slotCount: number): void {
    this.toggled.clear();
    const bitmap = new Uint8Array(slotCount);
    for (let i = 0; i < length; i += 1) bitmap[slots[i]!] = 1;
    this.base = bitmap;
    this.baseCount = length;
  }

  /** Deselects every row. */
  clear(): void {
    this.base = 'none';
    this.baseCount = 0;
    this.toggled.clear();
  }

  /** New rows at slots firstSlot.. start unselected, even after "select all". */
  appended(firstSlot: number, count: number): void {
    if (this.base === 'all') for (let i = 0; i < count; i += 1) this.toggled.add(firstSlot + i);
  }

  /** Rows were deleted: the selection of rows that remain (`alive`) is kept. */
  removeDeleted(alive: Uint8Array, rowCount: number): void {
    const base = this.base;
    if (!(base instanceof Uint8Array) && base !== 'all' && this.toggled.size === 0) return;
    for (const slot of [...this.toggled]) if (!alive[slot]) this.toggled.delete(slot);
    if (base instanceof Uint8Array) {
      let count = 0;
      for (let i = 0; i < base.length; i += 1) {
        if (base[i] === 1 && alive[i] !== 1) base[i] = 0;
        count += base[i]!;
      }
      this.baseCount = count;
    }
    if (rowCount === 0) this.clear();
  }
}
