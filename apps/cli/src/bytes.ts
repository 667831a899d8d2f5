/** Bytes kept in blocks that are never copied: a store grows without a spare copy of itself. */

/** Bytes per block (a bigger item gets a block of its own size). */
const BLOCK_BYTES = 4 << 20;

export class ByteBlocks {
  readonly blocks: Buffer[] = [];
  /** The block being filled, and the bytes used in it. */
  current = Buffer.allocUnsafe(0);
  used = 0;

  /** Makes room for `bytes` more bytes in the current block; returns its number. */
  reserve(bytes: number): number {
    if (this.used + bytes > this.current.length) {
      this.current = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, bytes));
      this.blocks.push(this.current);
      this.used = 0;
    }
    return this.blocks.length - 1;
  }
}

/** A growing Int32Array or Uint8Array: `grown(a, length)` is `a` or a copy at least that long. */
export function grown<A extends Int32Array | Uint8Array | Uint16Array>(a: A, length: number): A {
  if (length <= a.length) return a;
  const b = new (a.constructor as new (n: number) => A)(Math.max(a.length * 2, length));
  b.set(a);
  return b;
}
