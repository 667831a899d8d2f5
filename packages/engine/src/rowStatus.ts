/**
 * A feed row's status (the `status` column): active or paused. Items made only from paused rows
 * go out Paused (buildStatus.ts). A merchant feed's availability reads as a status too: out of
 * stock is paused; in stock, preorder and backorder take orders, so they stay active (Google
 * Merchant Center's `availability` attribute, support.google.com/merchants/answer/6324448).
 */
import type { FeedRow, FeedRows } from './types.ts';

/** A row's status as the engine reads it. */
export type RowStatus = 'active' | 'paused';

/** A status cell read: its status, and whether the text was one the column knows. */
export interface ReadRowStatus {
  status: RowStatus;
  /** False for text no spelling matches (read as active, and reported). */
  known: boolean;
}

/**
 * The spellings the column accepts, compared lowercased with '_', '-' and runs of spaces as
 * one space: the product's own words, and Google Merchant Center's availability values.
 */
const STATUS_BY_SPELLING: ReadonlyMap<string, RowStatus> = new Map([
  ['', 'active'],
  ['active', 'active'],
  ['enabled', 'active'],
  ['paused', 'paused'],
  ['in stock', 'active'],
  ['preorder', 'active'],
  ['pre order', 'active'],
  ['backorder', 'active'],
  ['back order', 'active'],
  ['out of stock', 'paused'],
]);

function normaliseStatus(cell: string): string {
  return cell
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/**
 * Reads a status cell: active, enabled, paused (any case), a merchant availability (in stock,
 * out of stock, preorder, backorder, also as `in_stock`), or empty (active). Any other text is
 * read as active and `known` is false.
 */
export function readRowStatus(cell: string): ReadRowStatus {
  const status = STATUS_BY_SPELLING.get(normaliseStatus(cell));
  return status === undefined ? { status: 'active', known: false } : { status, known: true };
}

/**
 * The status cell a merchant availability makes (the XML feed import): 'paused' for out of
 * stock, 'active' for in stock, preorder and backorder, '' (active) for none; an unknown value
 * is kept as written, so the feed shows it and the run reports it.
 */
export function statusOfAvailability(availability: string): string {
  const normalised = normaliseStatus(availability);
  if (normalised === '') return '';
  const status = STATUS_BY_SPELLING.get(normalised);
  return status ?? availability.trim();
}

/** Per row: 0 active, 1 paused, 2 active but the text is not a known spelling. */
export const ROW_ACTIVE = 0;
export const ROW_PAUSED = 1;
export const ROW_UNKNOWN_STATUS = 2;

/**
 * Each row's status code (`ROW_ACTIVE`, `ROW_PAUSED`, `ROW_UNKNOWN_STATUS`), or undefined when
 * every row is active with an empty or known cell and none is paused: the run is then the
 * run of a feed without the column. A store that knows them (`FeedRows.statusCodes`) answers
 * without making rows.
 */
export function rowStatusCodes(rows: FeedRows): Uint8Array | undefined {
  if (rows.statusCodes) return rows.statusCodes();
  let codes: Uint8Array | undefined;
  for (let r = 0; r < rows.length; r++) {
    const cell = (rows.at(r) as FeedRow).status;
    if (cell === undefined || cell === '') continue;
    const read = readRowStatus(cell);
    const code = !read.known ? ROW_UNKNOWN_STATUS : read.status === 'paused' ? ROW_PAUSED : -1;
    if (code < 0) continue;
    codes ??= new Uint8Array(rows.length);
    codes[r] = code;
  }
  return codes;
}

/** Whether some row of `codes` is paused. */
export function hasPausedRow(codes: Uint8Array | undefined): boolean {
  return codes !== undefined && codes.includes(ROW_PAUSED);
}

/**
 * The active rows of a run, read by index (a paused row is not there): what the run would make
 * without its paused rows. `indexOfRow` maps back to the run's index.
 */
export class ActiveRows implements FeedRows {
  private readonly index: Int32Array;
  readonly length: number;

  constructor(
    private readonly rows: FeedRows,
    codes: Uint8Array,
  ) {
    let n = 0;
    for (let r = 0; r < rows.length; r++) if (codes[r] !== ROW_PAUSED) n++;
    this.index = new Int32Array(n);
    n = 0;
    for (let r = 0; r < rows.length; r++) if (codes[r] !== ROW_PAUSED) this.index[n++] = r;
    this.length = n;
  }

  at(i: number): FeedRow | undefined {
    return i >= 0 && i < this.length ? this.rows.at(this.index[i] as number) : undefined;
  }

  /** The run's index of active row `i`. */
  indexOfRow(i: number): number {
    return this.index[i] as number;
  }
}
