/**
 * The engine's text hash: a polynomial hash of UTF-16 units (mod 2^32) that composes, so a filled
 * pattern is hashed from its pieces' hashes: hash(x + y) = hash(x) * HASH_BASE^|y| + hash(y).
 * The keyword path keys its tables with it; the ads compare texts ignoring case with its
 * case-folded form.
 */

/** Multiplier of the polynomial text hash. */
export const HASH_BASE = 0x01000193;

/** Polynomial hash of the UTF-16 units of `s` (of `s.slice(from, to)`, without the slice). */
export function polyHash(s: string, from = 0, to = s.length): number {
  let h = 0;
  for (let i = from; i < to; i++) h = (Math.imul(h, HASH_BASE) + s.charCodeAt(i)) | 0;
  return h;
}

/** The hash of `x + y` from the hash of `x` and of `y`, with `pow` = HASH_BASE ** |y|. */
export function composeHash(hashX: number, pow: number, hashY: number): number {
  return (Math.imul(hashX, pow) + hashY) | 0;
}

/** A case-folded hash and the power of its text's length (see `foldHash`). */
export interface FoldedHash {
  hash: number;
  /** HASH_BASE ** length. */
  pow: number;
}

/**
 * The polynomial hash of ASCII-lowercased `s` into `out` (equal for texts equal ignoring case);
 * false, leaving `out` as it was, for text that is not ASCII.
 */
export function foldHash(s: string, out: FoldedHash): boolean {
  let h = 0;
  let pow = 1;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 128) return false;
    if (c >= 65 && c <= 90) c += 32;
    h = (Math.imul(h, HASH_BASE) + c) | 0;
    pow = Math.imul(pow, HASH_BASE);
  }
  out.hash = h;
  out.pow = pow;
  return true;
}

/** A polynomial hash seeded with two integers and mixed (murmur3 fmix) for table slots. */
export function sealHash(poly: number, a: number, b: number): number {
  let h = poly ^ Math.imul(a + 1, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h ^= Math.imul(b + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Table hash of a text under the key (a, b). */
export function hashText(s: string, a: number, b: number): number {
  return sealHash(polyHash(s), a, b);
}
