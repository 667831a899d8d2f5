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
};

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
