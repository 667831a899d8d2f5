/** Growing lists of int32 values: the keyword path keeps its numbers in these, not in objects. */
/** `a`, or a copy of it at least `length` long (twice as long when that is more). */
export function grownInts(a: Int32Array, length: number): Int32Array {
  if (length <= a.length) return a;
  const b = new Int32Array(Math.max(a.length * 2, length));
  b.set(a);
  return b;
}

/**
 * A growing list of int32 values. `capacity`: the values likely at most, allocated at once (as
 * `TextKeyTable`'s maxEntries: pages never written are never touched, and a list that does not
 * grow by doubling leaves no old copy for the garbage collector).
 */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(1024, capacity));
  }

  push(a: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = a;
  }

  private grow(): void {
    const grown = new Int32Array(this.data.length * 2);
    grown.set(this.data);
    this.data = grown;
  }

  push4(a: number, b: number, c: number, d: number): void {
    if (this.length + 4 > this.data.length) this.grow();
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
    this.data[this.length++] = d;
  }
}

/** Values per chunk of an `IntChunks`. */
const CHUNK_INTS = 1 << 16;

/**
 * A growing list of int32 values kept in chunks of `CHUNK_INTS`: it grows without copying itself
 * (an `IntList` grown by doubling holds its old copy and its new one until the old is collected,
 * and its last doubling can leave half of it unused). Values are read with `at`.
 */
export class IntChunks {
  private readonly chunks: Int32Array[] = [];
  private last = new Int32Array(0);
  private used = 0;
  length = 0;

  push(a: number): void {
    if (this.used === this.last.length) {
      this.last = new Int32Array(CHUNK_INTS);
      this.chunks.push(this.last);
      this.used = 0;
    }
    this.last[this.used++] = a;
    this.length++;
  }

  at(i: number): number {
    return (this.chunks[Math.floor(i / CHUNK_INTS)] as Int32Array)[i % CHUNK_INTS] as number;
  }
}
