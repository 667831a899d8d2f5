/** Height of one grid row in CSS pixels. */
export const FEED_ROW_HEIGHT_PX = 34;
/** Height of the grid's header row. */
export const HEADER_HEIGHT_PX = 36;
/**
 * Tallest scroll spacer used. Chrome clamps elements at ~33.5M px and Firefox at ~17.9M px:
 * beyond this the scroll position is scaled (virtual offset = scrollTop x factor).
 */
export const MAX_SCROLL_HEIGHT_PX = 8_000_000;
/** The spec's delay before an added row is scrolled to. */
export const ADD_ROW_SCROLL_DELAY_MS = 100;
/** Rows rendered beyond each edge of the visible window. */
export const GRID_OVERSCAN_ROWS = 4;
/** The row layer's origin moves in steps of this many pixels of virtual offset. */
export const LAYER_BLOCK_PX = 1_000_000;

/** A message for the person: import results, refusals, copy and paste counts. */
export interface FeedGridNotice {
  kind: 'success' | 'error' | 'info';
  message: string;
  /** The accessible name of an Undo button offered beside the message ('Undo paste'). */
  undoLabel?: string;
}

/** A cell of the grid by shown row (view index) and column index. */
export interface CellPosition {
  row: number;
  col: number;
}

/**
 * The grid's cells as the keyboard walks them: row -1 is the header row; cell 0 is the select
 * box, 1 the row number, then one per shown value column, then the delete button.
 */
export const HEADER_ROW = -1;
/** The cell of the first value column (Root). */
export const FIRST_VALUE_CELL = 2;

/** What makes an element a cell the keyboard walks: its place, and tabIndex 0 on the active one. */
export const cellFocusProps = (row: number, cell: number, activeCell: number) => ({
  'data-row': row,
  'data-cell': cell,
  tabIndex: cell === activeCell ? 0 : -1,
});

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

/** A count as the grid shows it (1,234). */
export const formatCount = (n: number): string => NUMBER_FORMAT.format(n);

/** A count of rows as messages say it: "1 row", "1,234 rows". */
export const formatRows = (n: number): string => `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`;
