/**
 * The ArrayBuffers inside a result (typed arrays in objects and arrays, a few levels deep), so a
 * result is sent with its buffers moved rather than copied. Each buffer once; arrays are looked
 * into only for their first 64 items (big arrays of plain values hold no buffers worth a walk).
 */
export function collectTransferables(value: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const walk = (x: unknown, depth: number): void => {
    if (depth > 6 || x === null || typeof x !== 'object') return;
    if (ArrayBuffer.isView(x)) {
      if (x.buffer instanceof ArrayBuffer && x.buffer.byteLength > 0) found.add(x.buffer);
      return;
    }
    if (x instanceof ArrayBuffer) {
      found.add(x);
      return;
    }
    if (typeof Blob !== 'undefined' && x instanceof Blob) return;
    if (Array.isArray(x)) {
      const limit = Math.min(x.length, 64);
      for (let i = 0; i < limit; i += 1) walk(x[i], depth + 1);
      return;
    }
    for (const key of Object.keys(x)) walk((x as Record<string, unknown>)[key], depth + 1);
  };
  walk(value, 0);
  return [...found];
}

/** Strings of a result at least this long travel in messages of their own. */
export const RESULT_PART_MIN_CHARS = 256 * 1024;

/** What stands in a result for a string sent as a part. */
interface PartMarker {
  adloomResultPart: number;
}

function isPartMarker(x: unknown): x is PartMarker {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as Partial<PartMarker>).adloomResultPart === 'number'
  );
}

/**
 * Items of an array visited for long strings: a packed column's text comes in pieces of 512K
 * characters (PIECE_CHARS), so this covers columns of 500 MB.
 */
const SLOT_ARRAY_LIMIT = 1024;

/** Visits the plain objects and arrays of a result as collectTransferables does (more items). */
function visitSlots(
  value: unknown,
  visit: (holder: Record<string, unknown> | unknown[], key: string | number) => void,
): void {
  const walk = (x: unknown, depth: number): void => {
    if (depth > 6 || x === null || typeof x !== 'object') return;
    if (ArrayBuffer.isView(x) || x instanceof ArrayBuffer) return;
    if (typeof Blob !== 'undefined' && x instanceof Blob) return;
    if (Array.isArray(x)) {
      const limit = Math.min(x.length, SLOT_ARRAY_LIMIT);
      for (let i = 0; i < limit; i += 1) {
        visit(x, i);
        walk(x[i], depth + 1);
      }
      return;
    }
    const record = x as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      visit(record, key);
      walk(record[key], depth + 1);
    }
  };
  walk(value, 0);
}

/**
 * Takes the long strings out of a result (in place), leaving a marker where each stood. The
 * worker posts each string as a message of its own before the result: the page then takes one
 * string off the wire per task instead of the whole output (68M characters for 300k ads) in one.
 */
export function takeLongStrings(result: unknown, minChars = RESULT_PART_MIN_CHARS): string[] {
  const parts: string[] = [];
  visitSlots(result, (holder, key) => {
    const x = (holder as Record<string | number, unknown>)[key];
    if (typeof x === 'string' && x.length >= minChars) {
      const marker: PartMarker = { adloomResultPart: parts.length };
      (holder as Record<string | number, unknown>)[key] = marker;
      parts.push(x);
    }
  });
  return parts;
}

/** Puts the strings taken by takeLongStrings back in place (in place). */
export function restoreLongStrings(result: unknown, parts: readonly string[]): void {
  if (parts.length === 0) return;
  visitSlots(result, (holder, key) => {
    const x = (holder as Record<string | number, unknown>)[key];
    if (isPartMarker(x)) {
      const part = parts[x.adloomResultPart];
      if (part === undefined) throw new Error(`Result part ${x.adloomResultPart} is missing`);
      (holder as Record<string | number, unknown>)[key] = part;
    }
  });
}
