/**
 * A save worker thread (see save-workers.ts): receives a save's body in pieces as it arrives,
 * prepares it (save-body.ts) and answers the prepared save, its stored documents transferred
 * rather than copied. One save at a time.
 */
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors.ts';
import { prepareSaveBody } from './save-body.ts';
import type { PreparedSave, SaveKind } from './save-rows.ts';
import type { SaveWorkerAnswer, SaveWorkerMessage } from './save-workers.ts';

/** The body of the save under way: one buffer of its declared length, else its pieces. */
interface Receiving {
  kind: SaveKind;
  whole: Uint8Array | undefined;
  pieces: Uint8Array[];
  length: number;
}

let receiving: Receiving | undefined;

function answer(message: SaveWorkerAnswer, transfer: ArrayBuffer[] = []): void {
  parentPort!.postMessage(message, transfer);
}

function receive(piece: Uint8Array): void {
  const body = receiving!;
  if (body.whole && body.length + piece.length <= body.whole.length)
    body.whole.set(piece, body.length);
  else {
    // More than declared (Node's parser never lets that through): keep the pieces instead.
    if (body.whole) body.pieces.push(body.whole.subarray(0, body.length));
    body.whole = undefined;
    body.pieces.push(piece);
  }
  body.length += piece.length;
}

function finish(): void {
  const body = receiving!;
  receiving = undefined;
  // Held by the holder alone, which prepareSaveBody empties as soon as it can let them go.
  const holder = {
    bytes: body.whole ? body.whole.subarray(0, body.length) : Buffer.concat(body.pieces),
  };
  body.whole = undefined;
  body.pieces = [];
  let save: PreparedSave;
  try {
    save = prepareSaveBody(body.kind, holder);
  } catch (error) {
    if (error instanceof AppError) {
      answer({
        type: 'refused',
        refusal: { code: error.code, message: error.message, errors: error.extras.errors },
      });
    } else answer({ type: 'failed', message: error instanceof Error ? error.message : 'unknown' });
    return;
  }
  answer(
    { type: 'prepared', save },
    save.feeds.flatMap((feed) => [feed.storedFrame, feed.answered]),
  );
}

parentPort!.on('message', (message: SaveWorkerMessage) => {
  switch (message.type) {
    case 'start':
      receiving = {
        kind: message.kind,
        whole: message.length === undefined ? undefined : new Uint8Array(message.length),
        pieces: [],
        length: 0,
      };
      break;
    case 'piece':
      if (receiving) receive(message.bytes);
      break;
    case 'end':
      if (receiving) finish();
      break;
    case 'cancel':
      receiving = undefined;
      break;
  }
});
