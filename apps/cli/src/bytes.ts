/**
 * Texts kept in blocks: each block is the texts added to it joined into one flat string of about
 * 64k characters, and a text is read back as a slice of its block (a slice of a flat string is
 * made in JavaScript, with no call into Node to decode bytes). A block never grows or is copied.
 */

/** Characters per block (a block ends at the first text that reaches this). */
const BLOCK_CHARS = 1 << 16;

export class TextBlocks {
  private readonly blocks: string[] = [];
  private parts: string[] = [];
  /** Characters in the open block. */
  used = 0;

  /** The block the next text goes into. */
  get block(): number {
    return this.blocks.length;
  }

  add(text: string): void {
    this.parts.push(text);
    this.used += text.length;
  }

  /** Ends the open block once it is full (call between records: a record stays in one block). */
  endRecord(): void {
    if (this.used >= BLOCK_CHARS) this.close();
  }

  /** The text of block `b` (the open block is closed first). */
  text(b: number): string {
    if (b === this.blocks.length) this.close();
    return this.blocks[b] as string;
  }

  private close(): void {
    this.blocks.push(this.parts.join(''));
    this.parts = [];
    this.used = 0;
  }
}

/** A growing typed array: `grown(a, length)` is `a` or a copy at least that long. */
export function grown<A extends Int32Array | Uint8Array | Uint16Array>(a: A, length: number): A {
  if (length <= a.length) return a;
  const b = new (a.constructor as new (n: number) => A)(Math.max(a.length * 2, length));
  b.set(a);
  return b;
}
