import { formatPackedTsvParts } from '../exports/tsv.ts';
import type { EngineJobHandler } from '../generation/jobTypes.ts';
import type { PackedTable } from '../generation/packTable.ts';

/** Input of the clipboard job. */
export interface ClipboardTextInput {
  table: PackedTable;
  /** For a spreadsheet: an apostrophe before cells starting with = + - @. */
  neutraliseFormulas?: boolean;
}

/** A character outside Latin-1: joined in front, it makes the whole text two-byte. */
const TWO_BYTE_MARK = '\u20AC';

/**
 * The clipboard text of a packed table (as `formatPackedTsvParts`), held as a two-byte string.
 * Chromium's clipboard write widens a one-byte (Latin-1) string character by character on the
 * page's thread (about 60 ms for 22 MB here) but copies a two-byte one (about 18 ms), so the text
 * is made two-byte here, in the worker: joined behind one non-Latin-1 character that is then cut
 * off (the slice keeps its parent's two-byte form and reaches the page as such).
 */
export const clipboardTextJob: EngineJobHandler<ClipboardTextInput, { text: string }> = (input) => {
  const parts = formatPackedTsvParts(input.table, input.neutraliseFormulas);
  parts.unshift(TWO_BYTE_MARK);
  return { text: parts.join('').slice(TWO_BYTE_MARK.length) };
};

declare module '../generation/jobTypes.ts' {
  interface EngineJobs {
    clipboardText: typeof clipboardTextJob;
  }
}
