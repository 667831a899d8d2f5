/**
 * The feed's columns, written once. Everything that names a feed column derives from
 * `FEED_COLUMN_DEFINITIONS`: the row type, the placeholders of patterns, the seed boxes, CSV,
 * clipboard and Sheets header names, the contract's row checks, the server's stored layout, the
 * packed rows of the command line and the web app, and the grid. Adding a column is one entry
 * here (a text column goes before `url`; `status` stays after it, so a headerless file of the
 * first six columns still maps by position) and its tests.
 *
 * The list lives in the engine, not in the contract: the engine imports nothing from the
 * workspace (the contract imports the engine), and it is the lowest package every app imports.
 */
/** Feed cell limit of every text column (root, modifier, the variables). */
export const FEED_CELL_MAX_CHARS = 30;
/**
 * The most characters a stored Final URL cell holds: a bound against abuse far above Google's
 * 2,048 (`FINAL_URL_MAX_CHARS`). Readers never cut a URL (a cut URL is another page): a URL
 * too long for Google is kept whole and reported by the engine; the contract refuses a longer one.
 */
export const FEED_URL_MAX_CHARS = 65_536;

/** What the product knows of one feed column. */
export interface FeedColumnDefinition {
  /** The row field, the placeholder name (`{var1}`), the stored layout's key and the sheet header. */
  readonly key: string;
  /** The column as the grid and the reports name it (spec section 2, Data Table). */
  readonly label: string;
  /**
   * Header names that map a CSV or sheet column to it, compared lowercased without spaces, '_'
   * or '-' (the key and the label are always accepted).
   */
  readonly headerAliases: readonly string[];
  /** Other field names legacy stored rows used for it (`restoreFeedRow`). */
  readonly legacyFields: readonly string[];
  /** The most characters a cell keeps after trimming (`url`: stored; readers never cut it). */
  readonly maxChars: number;
  /**
   * A text column: a seed box of the combiner and the builder, an AI prompt setting, and one
   * byte of length in packed rows (at most `FEED_CELL_MAX_CHARS`). `url` and `status` are not.
   */
  readonly isText: boolean;
}

/** The data columns of a feed row, in display order: the text columns, `url`, then `status`. */
export const FEED_COLUMN_DEFINITIONS = [
  {
    key: 'root',
    label: 'Root',
    headerAliases: [],
    legacyFields: [],
    maxChars: FEED_CELL_MAX_CHARS,
    isText: true,
  },
  {
    key: 'mod',
    label: 'Modifier',
    headerAliases: [],
    legacyFields: ['modifier'],
    maxChars: FEED_CELL_MAX_CHARS,
    isText: true,
  },
  {
    key: 'var1',
    label: 'Var 1',
    headerAliases: ['variable1'],
    legacyFields: [],
    maxChars: FEED_CELL_MAX_CHARS,
    isText: true,
  },
  {
    key: 'var2',
    label: 'Var 2',
    headerAliases: ['variable2'],
    legacyFields: [],
    maxChars: FEED_CELL_MAX_CHARS,
    isText: true,
  },
  {
    key: 'var3',
    label: 'Var 3',
    headerAliases: ['variable3'],
    legacyFields: [],
    maxChars: FEED_CELL_MAX_CHARS,
    isText: true,
  },
  {
    key: 'url',
    label: 'Final URL',
    headerAliases: [],
    legacyFields: ['finalUrl'],
    maxChars: FEED_URL_MAX_CHARS,
    isText: false,
  },
  {
    // The row's status (rowStatus.ts): active or paused, empty = active. A merchant feed's
    // `availability` column maps here too (out of stock = paused).
    key: 'status',
    label: 'Status',
    headerAliases: ['availability'],
    legacyFields: [],
    maxChars: FEED_CELL_MAX_CHARS,
    isText: false,
  },
] as const satisfies readonly FeedColumnDefinition[];

type Definition = (typeof FEED_COLUMN_DEFINITIONS)[number];

/** One data column of a feed row. */
export type FeedColumn = Definition['key'];

/** The data columns of a feed row, in display order (the text columns, `url`, `status`). */
export const FEED_COLUMNS: readonly FeedColumn[] = FEED_COLUMN_DEFINITIONS.map((d) => d.key);

/** A text column (every column but `url` and `status`). */
export type FeedTextColumn = Extract<Definition, { isText: true }>['key'];

/** The text columns in order: the seed boxes, and the cells before the URL in packed rows. */
export const FEED_TEXT_COLUMNS: readonly FeedTextColumn[] = FEED_COLUMN_DEFINITIONS.filter(
  (d): d is Extract<Definition, { isText: true }> => d.isText,
).map((d) => d.key);

/** The columns as the grid and the reports name them (spec section 2, Data Table). */
export const FEED_COLUMN_LABELS: Readonly<Record<FeedColumn, string>> = Object.fromEntries(
  FEED_COLUMN_DEFINITIONS.map((d) => [d.key, d.label]),
) as Record<FeedColumn, string>;

/** The index of `status` in `FEED_COLUMNS` (the last). */
export const STATUS_COLUMN_INDEX = FEED_COLUMN_DEFINITIONS.findIndex((d) => d.key === 'status');

/** The most characters each column's cell keeps. */
export const FEED_COLUMN_MAX_CHARS: Readonly<Record<FeedColumn, number>> = Object.fromEntries(
  FEED_COLUMN_DEFINITIONS.map((d) => [d.key, d.maxChars]),
) as Record<FeedColumn, number>;

/** The index of `url` in `FEED_COLUMNS` (after the text columns). */
export const URL_COLUMN_INDEX = FEED_COLUMNS.indexOf('url');

/**
 * A feed row's data: one text per column. `status` may be missing from a row written before the
 * column existed (read as '', active); every row the engine makes has it.
 */
export type FeedCells = Record<Exclude<FeedColumn, 'status'>, string> & { status?: string };

/** Cells to make a row from, by index in `FEED_COLUMNS`; a missing one is ''. */
type CellValues = ArrayLike<string | undefined>;

const NO_CELLS: CellValues = [];

/*
 * Rows are made by constructors: V8 runs a constructor's stores by a key held in a variable about
 * as fast as an object literal's (200k rows: ~20 ms), where the same stores into an object already
 * made take three to four times as long. Plain functions whose prototype is Object.prototype, so
 * what they make are plain objects, all of one shape.
 */
function CellsRow(this: Record<string, string>, cells: CellValues): void {
  for (let c = 0; c < FEED_COLUMNS.length; c++) this[FEED_COLUMNS[c]!] = cells[c] ?? '';
}
function IdentifiedCellsRow(this: Record<string, string>, id: string, cells: CellValues): void {
  this.id = id;
  for (let c = 0; c < FEED_COLUMNS.length; c++) this[FEED_COLUMNS[c]!] = cells[c] ?? '';
}
CellsRow.prototype = Object.prototype;
IdentifiedCellsRow.prototype = Object.prototype;
const makeCells = CellsRow as unknown as new (cells: CellValues) => FeedCells;
const makeIdentifiedCells = IdentifiedCellsRow as unknown as new (
  id: string,
  cells: CellValues,
) => FeedCells & { id: string };

/** A row's data with every cell empty (a new object each call, always of one shape). */
export function newFeedCells(): FeedCells {
  return new makeCells(NO_CELLS);
}

/** A row with this id and every cell empty (id first, then the columns: one shape). */
export function newIdentifiedFeedCells(id: string): FeedCells & { id: string } {
  return new makeIdentifiedCells(id, NO_CELLS);
}

/** A row with this id and the cells `cells` holds (any other column empty, other fields dropped). */
export function completeFeedRow(
  id: string,
  cells: Readonly<Partial<Record<FeedColumn, string | undefined>>>,
): FeedCells & { id: string } {
  return new makeIdentifiedCells(
    id,
    FEED_COLUMNS.map((c) => cells[c]),
  );
}

/** The row's data made from its cells in `FEED_COLUMNS` order (a missing cell is empty). */
export function feedCellsFrom(cells: CellValues): FeedCells {
  return new makeCells(cells);
}

/**
 * A row with this id made from its cells in `FEED_COLUMNS` order (a missing cell is empty): the
 * fast way to make rows by the million (gather the cells in a reused array, then call this).
 */
export function identifiedFeedCellsFrom(id: string, cells: CellValues): FeedCells & { id: string } {
  return new makeIdentifiedCells(id, cells);
}

/** True when every data column of the row is empty (a missing `status` is empty). */
export function isEmptyFeedCells(row: Readonly<FeedCells>): boolean {
  for (const c of FEED_COLUMNS) if ((row[c] ?? '') !== '') return false;
  return true;
}

/** True when the two rows hold the same text in every data column (a missing `status` is ''). */
export function haveSameFeedCells(a: Readonly<FeedCells>, b: Readonly<FeedCells>): boolean {
  for (const c of FEED_COLUMNS) if ((a[c] ?? '') !== (b[c] ?? '')) return false;
  return true;
}

/** The names a header cell may use for each column (before normalising). */
export function headerNamesOf(column: FeedColumn): readonly string[] {
  const d = FEED_COLUMN_DEFINITIONS.find((x) => x.key === column)!;
  return [d.key, d.label, ...d.headerAliases];
}

/** The keys joined for a message: "root, mod, var1, var2, var3, url or status". */
export function describeFeedColumnKeys(columns: readonly string[] = FEED_COLUMNS): string {
  return columns.length < 2
    ? columns.join('')
    : `${columns.slice(0, -1).join(', ')} or ${columns[columns.length - 1]}`;
}
