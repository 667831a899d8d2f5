/**
 * A job's input on its way to the worker, in pieces. Posting a message copies what it holds on
 * the page's thread: the kept outputs a plan or a download reads (300k keywords' packed tables)
 * were one 100–300 ms task each time. Their big strings and typed arrays go ahead of the job
 * instead, a few megabytes per message, each message posted in a task of its own; the job's
 * message carries a marker where each stood. The caller's input is never changed: the plain
 * objects and arrays on the way to a big value are copied, everything else is shared.
 */

/** A value sent ahead of its job. */
export type InputPart = string | ArrayBufferView;

/** What stands in a job's input for a value sent ahead of it. */
interface InputPartMarker {
  adloomInputPart: number;
}

/** Strings and typed arrays of an input at least this big (in bytes) go ahead of the job. */
export const INPUT_PART_MIN_BYTES = 64 * 1024;

/** Bytes of parts per message: about a 10 ms copy on a slow core. */
export const INPUT_MESSAGE_BYTES = 4 * 1024 * 1024;

/** How deep an input is looked into (a job's tables sit at depth 5: tables, ref, source, packed, columns). */
const MAX_DEPTH = 10;

/** An array or a plain object (of this realm or another: a message's data is made elsewhere). */
function isPlain(x: object): boolean {
  return Array.isArray(x) || Object.prototype.toString.call(x) === '[object Object]';
}

/** The bytes a value takes in a message (UTF-16 for strings, as the copy is sized). */
export function partBytes(part: InputPart): number {
  return typeof part === 'string' ? part.length * 2 : part.byteLength;
}

/**
 * The input without its big values: a copy of its plain objects and arrays, each string or
 * typed array of INPUT_PART_MIN_BYTES or more replaced by a marker, and those values in order.
 * An input without such values is returned as it is.
 */
export function splitInput(
  input: unknown,
  minBytes = INPUT_PART_MIN_BYTES,
): { input: unknown; parts: InputPart[] } {
  const parts: InputPart[] = [];
  const take = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') {
      if (x.length * 2 < minBytes) return x;
      parts.push(x);
      return { adloomInputPart: parts.length - 1 } satisfies InputPartMarker;
    }
    if (x === null || typeof x !== 'object') return x;
    if (ArrayBuffer.isView(x)) {
      if (x.byteLength < minBytes) return x;
      parts.push(x);
      return { adloomInputPart: parts.length - 1 } satisfies InputPartMarker;
    }
    if (depth >= MAX_DEPTH || !isPlain(x)) return x;
    // Copied from its first changed value on: an array or object without big values is shared,
    // not copied and dropped (a job's rows would be copied one object at a time for nothing).
    if (Array.isArray(x)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < x.length; i++) {
        const item: unknown = x[i];
        const taken = take(item, depth + 1);
        if (copy) copy.push(taken);
        else if (taken !== item) {
          copy = x.slice(0, i);
          copy.push(taken);
        }
      }
      return copy ?? x;
    }
    const record = x as Record<string, unknown>;
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const taken = take(record[key], depth + 1);
      if (!copy && taken !== record[key]) {
        copy = {};
        for (let j = 0; j < k; j++) copy[keys[j]!] = record[keys[j]!];
      }
      if (copy) copy[key] = taken;
    }
    return copy ?? x;
  };
  const taken = take(input, 0);
  return { input: taken, parts };
}

function isMarker(x: unknown): x is InputPartMarker {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as Partial<InputPartMarker>).adloomInputPart === 'number'
  );
}

/** Puts the parts back where their markers stand (in place: the worker's own copy). */
export function restoreInput(input: unknown, parts: readonly InputPart[]): unknown {
  const put = (x: unknown, depth: number): unknown => {
    if (isMarker(x)) {
      const part = parts[x.adloomInputPart];
      if (part === undefined) throw new Error(`Input part ${x.adloomInputPart} is missing`);
      return part;
    }
    if (x === null || typeof x !== 'object' || depth >= MAX_DEPTH || !isPlain(x)) return x;
    const record = x as Record<string | number, unknown>;
    for (const key of Object.keys(record)) record[key] = put(record[key], depth + 1);
    return x;
  };
  return put(input, 0);
}

/** The parts grouped into messages of about INPUT_MESSAGE_BYTES (one big part alone). */
export function partMessages(
  parts: readonly InputPart[],
  maxBytes = INPUT_MESSAGE_BYTES,
): InputPart[][] {
  const messages: InputPart[][] = [];
  let current: InputPart[] = [];
  let bytes = 0;
  for (const part of parts) {
    const size = partBytes(part);
    if (current.length > 0 && bytes + size > maxBytes) {
      messages.push(current);
      current = [];
      bytes = 0;
    }
    current.push(part);
    bytes += size;
  }
  if (current.length > 0) messages.push(current);
  return messages;
}
