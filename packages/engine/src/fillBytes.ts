/**
 * Filled ad texts written as CSV cells from their pieces: a pattern's literal parts encoded as
 * UTF-8 once, and each row value encoded once per row, however many texts use it. A text that
 * `measureFill` joined from a tidy frame and tidy values (`isJoinedFill`) is exactly those
 * pieces in order, so its cell is their bytes copied one after another; the filled string is
 * not scanned again. Pieces that would make the cell need quotes, or whose bytes might not join
 * (surrogates), are left to `CsvBytes.cell` with the whole text.
 */
import type { CsvBytes } from './csvBytes.ts';
import { PLACEHOLDERS, slotValueAt, type CompiledPattern, type PlaceholderValues } from './text.ts';

/** A pattern's cell as a list of steps: a slot's value, or a literal part (empty ones left out). */
export interface PatternBytes {
  /** The pattern's slots (each value is encoded before the cell is written). */
  slotAt: readonly number[];
  /** Per step: a slot number (0 or more), or -1 - i for `parts[i]`. */
  steps: Int32Array;
  parts: Uint8Array[];
}

/**
 * The bytes of the parts of a pattern that `measureFill` can join (a tidy frame), or undefined
 * when its cells are always written from the whole text: a static pattern, or parts with a
 * character that makes a cell quoted (`"`, `,`, CR, LF, a space at either end) or a surrogate.
 */
export function patternBytesOf(pattern: CompiledPattern): PatternBytes | undefined {
  if (pattern.isStatic || !pattern.isTidyFrame) return undefined;
  const { joinParts } = pattern;
  const first = joinParts[0] ?? '';
  const last = joinParts[joinParts.length - 1] ?? '';
  if (first.charCodeAt(0) === 32 || last.charCodeAt(last.length - 1) === 32) return undefined;
  const parts: Uint8Array[] = [];
  const steps: number[] = [];
  const scratch = new PieceBytes();
  for (let i = 0; i < joinParts.length; i++) {
    if (i > 0) steps.push(pattern.slotAt[i - 1] as number);
    if (!scratch.encode(joinParts[i] as string)) return undefined;
    if (scratch.length === 0) continue;
    steps.push(-1 - parts.length);
    parts.push(scratch.bytes.slice(0, scratch.length));
  }
  return { slotAt: pattern.slotAt, steps: Int32Array.from(steps), parts };
}

/** One piece of text as UTF-8, reused piece after piece. */
class PieceBytes {
  bytes = new Uint8Array(64);
  length = 0;

  /**
   * Encodes `s`; false (bytes unusable) when it has a character that needs the cell quoted
   * (`"`, `,`, CR, LF) or a surrogate (one half could pair with a neighbouring piece's).
   */
  encode(s: string): boolean {
    const n = s.length;
    if (3 * n > this.bytes.length)
      this.bytes = new Uint8Array(Math.max(3 * n, 2 * this.bytes.length));
    const b = this.bytes;
    let at = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        if (c === 34 || c === 44 || c === 10 || c === 13) return false;
        b[at++] = c;
      } else if (c < 0x800) {
        b[at++] = 0xc0 | (c >> 6);
        b[at++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        return false;
      } else {
        b[at++] = 0xe0 | (c >> 12);
        b[at++] = 0x80 | ((c >> 6) & 0x3f);
        b[at++] = 0x80 | (c & 0x3f);
      }
    }
    this.length = at;
    return true;
  }
}

/** The row's values as UTF-8, per slot, encoded on first use for each row. */
export class RowValueBytes {
  private readonly pieces = PLACEHOLDERS.map(() => new PieceBytes());
  /** Per slot: the row (`generation`) its bytes are for, -1 for none. */
  private readonly stampAt = new Float64Array(PLACEHOLDERS.length).fill(-1);
  /** Per slot: 1 when its bytes can be joined (see `PieceBytes.encode`). */
  private readonly usableAt = new Uint8Array(PLACEHOLDERS.length);

  /**
   * Writes the cell of the text `measureFill` joined from `plan`'s pattern for the row whose
   * values are `values` (`generation`: the row's `ValueFacts.generation`). False, with nothing
   * written, when a value's bytes cannot be joined: the caller writes the text instead.
   */
  writeCell(
    csv: CsvBytes,
    plan: PatternBytes,
    values: PlaceholderValues,
    generation: number,
  ): boolean {
    const { slotAt, steps, parts } = plan;
    for (let i = 0; i < slotAt.length; i++) {
      const at = slotAt[i] as number;
      if (this.stampAt[at] !== generation) {
        this.stampAt[at] = generation;
        const ok = (this.pieces[at] as PieceBytes).encode(slotValueAt(at, values));
        this.usableAt[at] = ok ? 1 : 0;
      }
      if (this.usableAt[at] === 0) return false;
    }
    for (let k = 0; k < steps.length; k++) {
      const step = steps[k] as number;
      if (step < 0) csv.bytes(parts[-1 - step] as Uint8Array);
      else {
        const piece = this.pieces[step] as PieceBytes;
        csv.bytes(piece.bytes, piece.length);
      }
    }
    return true;
  }
}
