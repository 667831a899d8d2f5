/** Bytes kept in blocks that are never copied: a store grows without a spare copy of itself. */

/** Bytes per block (a bigger item gets a block of its own size). */
const BLOCK_BYTES = 4 << 20;

export class ByteBlocks {
  readonly blocks: Buffer<ArrayBufferLike>[] = [];
  /** The block being filled, and the bytes used in it. */
  current: Buffer<ArrayBufferLike> = Buffer.allocUnsafe(0);
  used = 0;

  /** `shared`: blocks in SharedArrayBuffers, which another thread can read without a copy. */
  constructor(private readonly shared = false) {}

  /** Makes room for `bytes` more bytes in the current block; returns its number. */
  reserve(bytes: number): number {
    if (this.used + bytes > this.current.length) {
      const size = Math.max(BLOCK_BYTES, bytes);
      this.current = this.shared
        ? Buffer.from(new SharedArrayBuffer(size))
        : Buffer.allocUnsafe(size);
      this.blocks.push(this.current);
      this.used = 0;
    }
    return this.blocks.length - 1;
  }
}

type Typed = Int32Array | Uint8Array | Uint16Array;

/**
 * A growing Int32Array or Uint8Array: `grown(a, length)` is `a` or a copy at least that long, in
 * a SharedArrayBuffer when `a` is in one.
 */
export function grown<A extends Typed>(a: A, length: number): A {
  if (length <= a.length) return a;
  const n = Math.max(a.length * 2, length);
  const b =
    a.buffer instanceof SharedArrayBuffer
      ? sharedArray(a.constructor as SharedArrayType<A>, n)
      : new (a.constructor as new (n: number) => A)(n);
  b.set(a);
  return b;
}

type SharedArrayType<A extends Typed> = {
  new (buffer: SharedArrayBuffer): A;
  readonly BYTES_PER_ELEMENT: number;
};

/** A typed array of `length` zeros in a SharedArrayBuffer. */
export function sharedArray<A extends Typed>(type: SharedArrayType<A>, length: number): A {
  return new type(new SharedArrayBuffer(length * type.BYTES_PER_ELEMENT));
}

/**
 * Writes `text` as UTF-8 into `block` at `at`; returns where it ends. ASCII (the common case) is
 * copied a character at a time: for texts this short that is quicker than a call into
 * Buffer.write, which the rest of the text gets once a character is not ASCII. Half of a
 * surrogate pair at either end of `text` is written as U+FFFD, as Buffer.write writes it.
 */
export function writeUtf8(block: Uint8Array, at: number, text: string): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return at + i + (block as Buffer).write(text.slice(i), at + i, 'utf8');
    block[at + i] = c;
  }
  return at + n;
}
