import type { Table } from '@adloom/engine';
import { keptForPage } from '../../state/pageState.ts';
import { JobError } from '../generation/jobs.ts';

// Tables the engine worker keeps for a later download (in the worker only): a kind that would
// rather not send a second big table to the page (the ads' Editor columns) holds how to make it,
// and the page names it by slot and id.

/** A table the worker holds, as the page names it. */
export interface HeldTableRef {
  /** One table per slot ('ads:rsa'): holding another replaces it. */
  slot: string;
  id: string;
  /** What the person reads when the worker no longer holds it (replaced, or a new worker). */
  missing: string;
}

const held = new Map<
  string,
  { id: string; make: () => Table; lines?: (() => ArrayLike<number>) | undefined }
>();
keptForPage(() => held.clear());

function newHeldId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/**
 * Holds how to make the table of `slot` (replacing the one held before), and each row's feed
 * line when given (`ExportTable.lines`); returns its id.
 */
export function holdTable(
  slot: string,
  make: () => Table,
  lines?: () => ArrayLike<number>,
): string {
  const id = newHeldId();
  held.set(slot, { id, make, lines });
  return id;
}

function heldEntry(ref: HeldTableRef) {
  const entry = held.get(ref.slot);
  if (!entry || entry.id !== ref.id) throw new JobError(ref.missing);
  return entry;
}

/** The held table `ref` names, made now; fails with `ref.missing` when it is not held. */
export function readHeldTable(ref: HeldTableRef): Table {
  return heldEntry(ref).make();
}

/** The feed line of each row of the held table `ref` names, or undefined when it has none. */
export function readHeldLines(ref: HeldTableRef): ArrayLike<number> | undefined {
  return heldEntry(ref).lines?.();
}
