/** Today as yyyymmdd (local time), for file names. */
export function formatFileDate(date: Date): string {
  const y = String(date.getFullYear());
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}${m}${d}`;
}

/** A name safe in file systems: no path or reserved characters, spaces kept, at most 80 chars. */
export function safeFilePart(text: string): string {
  const cleaned = Array.from(text, (ch) => (ch.charCodeAt(0) < 32 ? '-' : ch))
    .join('')
    .replace(/[\\/:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.slice(0, 80) || 'adloom';
}

/**
 * How a download names its files (it crosses to the worker): `<client> - <stem> - <yyyymmdd>`
 * with the date the page took, or null: the stem alone (the files inside a tab's zip).
 */
export type FileNaming = { client: string | null; date: string } | null;

/** Dated names under the client (see docs/decisions.md, "Downloads and Download everything"). */
export function datedNaming(client: string | null, today = new Date()): FileNaming {
  return { client, date: formatFileDate(today) };
}

/**
 * The names of `naming`: `Acme - keywords - 20261123.csv` (client null: `adloom - ...`), or
 * `keywords.csv` for null.
 */
export function fileNamer(naming: FileNaming): (stem: string, extension: string) => string {
  if (!naming) return (stem, extension) => `${stem}.${extension}`;
  const client = naming.client ? safeFilePart(naming.client) : 'adloom';
  return (stem, extension) =>
    `${[client, safeFilePart(stem), naming.date].join(' - ')}.${extension}`;
}
