/**
 * One row in PostgreSQL's binary COPY format, for a row whose last field is large (a build
 * record): the fields before it are encoded here, and the large field's bytes are written by the
 * caller straight into the buffer that `Db.copyFrom` sends, so they are never copied again.
 *
 * Format (PostgreSQL manual, "COPY", binary format): the signature `PGCOPY\n\377\r\n\0`, a flags
 * int32 and a header-extension length int32 (both 0); per row an int16 field count, then per
 * field an int32 byte length (-1 for NULL) and the bytes; the trailer int16 -1. Integers are
 * big-endian.
 */

const SIGNATURE = Uint8Array.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0]);
const HEADER_BYTES = SIGNATURE.length + 8;
/** PostgreSQL's type oid of text (an array's element type in its binary form). */
const TEXT_OID = 25;
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const TRAILER_BYTES = 2;
/** jsonb's binary form: a version byte, then the JSON text. */
const JSONB_VERSION = 1;

/** A field's binary form, by PostgreSQL type. */
export const binaryField = {
  uuid(id: string): Uint8Array {
    const hex = id.replaceAll('-', '');
    if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error('not a UUID');
    return Buffer.from(hex, 'hex');
  },
  text(value: string): Uint8Array {
    return Buffer.from(value, 'utf8');
  },
  jsonb(value: unknown): Uint8Array {
    const json = Buffer.from(JSON.stringify(value), 'utf8');
    const bytes = Buffer.allocUnsafe(json.length + 1);
    bytes[0] = JSONB_VERSION;
    json.copy(bytes, 1);
    return bytes;
  },
  int4(value: number): Uint8Array {
    const bytes = Buffer.allocUnsafe(4);
    bytes.writeInt32BE(value);
    return bytes;
  },
  int8(value: number): Uint8Array {
    const bytes = Buffer.allocUnsafe(8);
    bytes.writeBigInt64BE(BigInt(value));
    return bytes;
  },
  /** A timestamptz: microseconds since 2000-01-01 UTC. */
  timestamptz(at: Date): Uint8Array {
    const bytes = Buffer.allocUnsafe(8);
    bytes.writeBigInt64BE(BigInt(at.getTime() - POSTGRES_EPOCH_MS) * 1000n);
    return bytes;
  },
  /** A one-dimensional text[] without NULLs: dimensions, flags, element type, then each element. */
  textArray(values: readonly string[]): Uint8Array {
    const elements = values.map((value) => Buffer.from(value, 'utf8'));
    const bytes = Buffer.alloc(20 + elements.reduce((sum, e) => sum + 4 + e.length, 0));
    bytes.writeInt32BE(1, 0);
    bytes.writeInt32BE(0, 4);
    bytes.writeInt32BE(TEXT_OID, 8);
    bytes.writeInt32BE(values.length, 12);
    bytes.writeInt32BE(1, 16);
    let at = 20;
    for (const element of elements) {
      bytes.writeInt32BE(element.length, at);
      bytes.set(element, at + 4);
      at += 4 + element.length;
    }
    return bytes;
  },
};

/**
 * Where a large FIRST field's bytes start in a one-row binary COPY input: after the header, the
 * field count and the field's length. A row whose large field comes first can have that field
 * written (in a worker thread) before the small fields after it are known: see `openCopyRow`.
 */
export const FIRST_FIELD_AT = HEADER_BYTES + 2 + 4;
/** An ArrayBuffer that can grow and shrink in place (ES2024; the project's lib is ES2022). */
interface ResizableArrayBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(length: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  length: number,
  options: { maxByteLength: number },
) => ResizableArrayBuffer;

/** Shrinks a buffer that can be resized in place to `length` bytes (others stay as they are). */
export function shrinkInPlace(buffer: ArrayBuffer, length: number): void {
  const resizable = buffer as ResizableArrayBuffer;
  if (resizable.resizable && resizable.byteLength > length) resizable.resize(length);
}

/** Room kept after a large first field for the small fields that follow it (see `openCopyRow`). */
const TAIL_ROOM_BYTES = 64 * 1024;

/**
 * A one-row binary COPY input with `fieldCount` fields, the first of `firstLength` bytes: the
 * header and the first field's length are written, its bytes go at `FIRST_FIELD_AT`. The buffer
 * is resizable: `closeCopyRow` appends the other fields and the trailer and makes it exactly as
 * long as the input, so PGlite reads it without a copy and the first field is never copied.
 */
export function openCopyRow(
  fieldCount: number,
  firstLength: number,
  firstRoom = firstLength,
): ArrayBuffer {
  const length = FIRST_FIELD_AT + firstLength;
  const buffer = new ResizableArrayBuffer(length, {
    maxByteLength: FIRST_FIELD_AT + Math.max(firstLength, firstRoom) + TAIL_ROOM_BYTES,
  });
  const view = new DataView(buffer);
  new Uint8Array(buffer).set(SIGNATURE, 0);
  view.setInt32(SIGNATURE.length, 0);
  view.setInt32(SIGNATURE.length + 4, 0);
  view.setInt16(HEADER_BYTES, fieldCount);
  view.setInt32(HEADER_BYTES + 2, firstLength);
  return buffer;
}

/**
 * Makes the first field of an `openCopyRow` input `firstLength` bytes long (up to its room), in
 * place: its bytes stay where they are.
 */
export function resizeCopyRowFirst(buffer: ArrayBuffer, firstLength: number): void {
  (buffer as ResizableArrayBuffer).resize(FIRST_FIELD_AT + firstLength);
  new DataView(buffer).setInt32(HEADER_BYTES + 2, firstLength);
}

/** A growing text, written as UTF-8 into an ArrayBuffer that grows in place up to `room`. */
export class Utf8Writer {
  readonly buffer: ArrayBuffer;
  #bytes: Uint8Array;
  #at: number;
  readonly #encoder = new TextEncoder();

  /** `buffer` is written from `start` (its bytes before are left as they are). */
  constructor(buffer: ArrayBuffer, start: number) {
    this.buffer = buffer;
    this.#bytes = new Uint8Array(buffer);
    this.#at = start;
  }

  /** A writer of its own buffer, `room` bytes at most. */
  static ofRoom(room: number): Utf8Writer {
    return new Utf8Writer(new ResizableArrayBuffer(0, { maxByteLength: room }), 0);
  }

  /** Bytes written so far (from the buffer's start). */
  get end(): number {
    return this.#at;
  }

  write(text: string): void {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes.
    this.#ensure(this.#at + text.length * 3);
    this.#at += this.#encoder.encodeInto(text, this.#bytes.subarray(this.#at)).written;
  }

  byte(value: number): void {
    this.#ensure(this.#at + 1);
    this.#bytes[this.#at++] = value;
  }

  #ensure(length: number): void {
    const buffer = this.buffer as ResizableArrayBuffer;
    if (length <= buffer.byteLength) return;
    if (length > buffer.maxByteLength) throw new RangeError('Utf8Writer: out of room');
    buffer.resize(Math.min(buffer.maxByteLength, Math.max(length, buffer.byteLength * 2)));
    this.#bytes = new Uint8Array(buffer);
  }
}

/**
 * Appends the fields after the first (null: SQL NULL) and the trailer to an `openCopyRow` input;
 * answers the whole input. When the fields do not fit in its room, the input is copied into a
 * buffer of its own (correct, only slower).
 */
export function closeCopyRow(
  buffer: ArrayBuffer,
  firstLength: number,
  fields: readonly (Uint8Array | null)[],
): Uint8Array {
  const at = FIRST_FIELD_AT + firstLength;
  const tail = fields.reduce((sum, field) => sum + 4 + (field?.length ?? 0), 0) + TRAILER_BYTES;
  let target = buffer;
  const resizable = buffer as ResizableArrayBuffer;
  if (resizable.resizable && at + tail <= resizable.maxByteLength) resizable.resize(at + tail);
  else {
    target = new ArrayBuffer(at + tail);
    new Uint8Array(target).set(new Uint8Array(buffer, 0, at));
  }
  const data = new Uint8Array(target);
  const view = new DataView(target);
  let offset = at;
  for (const field of fields) {
    view.setInt32(offset, field ? field.length : -1);
    if (field) data.set(field, offset + 4);
    offset += 4 + (field?.length ?? 0);
  }
  view.setInt16(offset, -1);
  return data;
}

/** A binary COPY input of one row, and the place its last field's bytes go. */
export interface CopyRowFrame {
  /** The whole input (header, row, trailer), in a buffer of its own. */
  data: Uint8Array;
  /** The last field's bytes inside `data`: fill them before sending `data`. */
  last: Uint8Array;
}

/**
 * Frames one row: `fields` are written, then room for a last field of `lastLength` bytes. The
 * answer's `data` is exactly its ArrayBuffer (PGlite reads it without a copy).
 */
export function frameCopyRow(fields: readonly Uint8Array[], lastLength: number): CopyRowFrame {
  const fieldBytes = fields.reduce((sum, field) => sum + 4 + field.length, 0);
  const lastAt = HEADER_BYTES + 2 + fieldBytes + 4;
  const data = new Uint8Array(new ArrayBuffer(lastAt + lastLength + TRAILER_BYTES));
  const view = new DataView(data.buffer);
  data.set(SIGNATURE, 0);
  // Flags and header extension length: 0 (the new ArrayBuffer is zeroed).
  let at = HEADER_BYTES;
  view.setInt16(at, fields.length + 1);
  at += 2;
  for (const field of fields) {
    view.setInt32(at, field.length);
    data.set(field, at + 4);
    at += 4 + field.length;
  }
  view.setInt32(at, lastLength);
  view.setInt16(lastAt + lastLength, -1);
  return { data, last: data.subarray(lastAt, lastAt + lastLength) };
}
