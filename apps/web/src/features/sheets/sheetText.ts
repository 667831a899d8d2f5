import { parseSheetUrl, type SheetProgress, type SheetSync } from '@adloom/contract';
import type { SheetDirection } from '../../api/google.ts';

/** Shown beside feeds linked to a spreadsheet in the feed dropdowns. */
export const LINKED_FEED_MARKER = '(linked sheet)';

/** Spec section 9: a linked sheet's name shows this many characters, then '...'. */
export const SHEET_NAME_SHOWN_CHARS = 32;

/** The texts of the sheet link (spec section 5 where it has them). */
export const SHEET_TEXTS = {
  linkTitle: 'Link New Sheet',
  keepQuestion: 'Which data to keep?',
  keepUpload: "This feed's rows (upload them to the sheet)",
  keepDownload: "The sheet's rows (download them into this feed)",
  overwriteWarning: "Uploading replaces the sheet's rows; downloading replaces this feed's rows.",
  badUrl: 'Paste the address of a Google Sheet: https://docs.google.com/spreadsheets/d/…',
  replaceTitle: "Replace the sheet's rows?",
  editsStayHere: 'Edits here reach the sheet only with Upload Data.',
  heldBack:
    "Not downloaded: this feed has edits not uploaded yet. Upload Data sends them to the sheet; Download Data replaces them with the sheet's rows.",
} as const;

/** What Link New Sheet keeps: the feed's rows (upload) or the sheet's (download). */
export type SheetKeep = 'upload' | 'download';

/** Spec section 5: the link button is enabled only with a sheet URL and a choice of data. */
export function canLinkSheet(url: string, keep: SheetKeep | null): boolean {
  return keep !== null && parseSheetUrl(url) !== undefined;
}

/** Spec section 9: the sheet's name, 32 characters then '...'. */
export function truncateSheetName(name: string): string {
  const chars = Array.from(name);
  return chars.length > SHEET_NAME_SHOWN_CHARS
    ? `${chars.slice(0, SHEET_NAME_SHOWN_CHARS).join('')}...`
    : name;
}

const NUMBER_FORMAT = new Intl.NumberFormat('en-US');
const DATE_FORMAT = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const DATE_TIME_FORMAT = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
});

function countRows(rows: number): string {
  return `${NUMBER_FORMAT.format(rows)} ${rows === 1 ? 'row' : 'rows'}`;
}

/** How long ago an ISO time was: 'just now', '5 min ago', '3 h ago', or 'on Nov 2, 2026'. */
export function describeAgo(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  const seconds = Math.max(0, (now - at) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `on ${DATE_FORMAT.format(at)}`;
}

/** The link row's last-sync line: "Last read from the sheet 2 min ago · 1,234 rows". */
export function describeSheetSync(sync: SheetSync | undefined, now: number): string {
  if (!sync) return 'Not read from the sheet yet';
  const ago = describeAgo(sync.at, now);
  switch (sync.direction) {
    case 'read':
      return `Last read from the sheet ${ago} · ${countRows(sync.rows)}`;
    case 'written':
      return `Last written to the sheet ${ago} · ${countRows(sync.rows)}`;
    case 'kept':
      return `Not read from the sheet yet · ${countRows(sync.rows)} kept from the feed ${ago}`;
  }
}

/** The note shown while a linked feed's sheet cannot be read: whose rows the grid shows. */
export function describeUnreachable(sync: SheetSync | undefined): string {
  const at = sync ? Date.parse(sync.at) : Number.NaN;
  const when = Number.isNaN(at) ? '' : ` on ${DATE_TIME_FORMAT.format(at)}`;
  switch (sync?.direction) {
    case 'read':
      return `Showing the rows last read from the sheet${when}: the sheet could not be reached.`;
    case 'written':
      return `Showing the rows last written to the sheet${when}: the sheet could not be reached.`;
    default:
      return "Showing the feed's own rows: the sheet could not be reached.";
  }
}

/**
 * The progress line of a sheet call: "Downloading from Sheets: 40,000 of 100,000 rows". An
 * upload first reads the sheet (to find rows the feed does not hold), then writes.
 */
export function describeSheetProgress(
  direction: SheetDirection,
  progress: SheetProgress | null,
): string {
  const action =
    direction === 'download'
      ? 'Downloading from Sheets'
      : progress?.phase === 'reading'
        ? 'Checking the sheet'
        : 'Uploading to Sheets';
  if (!progress || progress.total === 0) return `${action}…`;
  return `${action}: ${NUMBER_FORMAT.format(progress.done)} of ${countRows(progress.total)}`;
}

/** The progress bar's value (0-100), or null while the total is unknown. */
export function sheetProgressPercent(progress: SheetProgress | null): number | null {
  if (!progress || progress.total === 0) return null;
  return Math.min(100, Math.round((progress.done / progress.total) * 100));
}
