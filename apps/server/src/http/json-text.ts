/**
 * JSON answers given as text or in pieces (`JsonPieces`: text, and UTF-8 bytes of JSON such as a
 * feed's rows as its save answered them). A large one (a feed of 50 MB) leaves as a stream: its
 * text encoded a piece at a time as the socket or the compressor asks for the next, its bytes as
 * they are. Encoded whole, it held the event loop for over half a second (Buffer.from of the
 * whole text, and the compressor's copy of it), and every other request, `/api/ready`
 * included, waited.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { JsonPieces } from '../presenters/workspace.ts';

/** Characters of JSON text (or bytes of JSON) sent at a time: a few milliseconds of work. */
export const JSON_PIECE_CHARS = 256 * 1024;

/**
 * `json` as UTF-8 pieces of about `pieceChars` characters, made one at a time as they are asked
 * for. A piece never ends between the two halves of a surrogate pair (each half alone would be
 * encoded as U+FFFD).
 */
export function* jsonTextPieces(json: string, pieceChars = JSON_PIECE_CHARS): Generator<Buffer> {
  let start = 0;
  while (start < json.length) {
    let end = Math.min(json.length, start + Math.max(2, pieceChars));
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield Buffer.from(json.slice(start, end), 'utf8');
    start = end;
  }
}

/** Every piece's bytes, in pieces of about `pieceChars` (bytes are views, never copies). */
export function* jsonPiecesBytes(
  pieces: JsonPieces,
  pieceChars = JSON_PIECE_CHARS,
): Generator<Uint8Array> {
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      yield* jsonTextPieces(piece, pieceChars);
      continue;
    }
    for (let start = 0; start < piece.length; start += pieceChars)
      yield piece.subarray(start, start + pieceChars);
  }
}

/** Sends JSON: in one buffer when small, else as a stream of its pieces (`jsonPiecesBytes`). */
export function sendJson(reply: FastifyReply, json: string | JsonPieces): FastifyReply {
  reply.type('application/json; charset=utf-8');
  const pieces = typeof json === 'string' ? [json] : json;
  let size = 0;
  for (const piece of pieces) size += piece.length;
  if (size <= JSON_PIECE_CHARS) return reply.send(Buffer.concat([...jsonPiecesBytes(pieces)]));
  return reply.send(Readable.from(jsonPiecesBytes(pieces), { objectMode: false }));
}
