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
 * The Editor file name of one output: `<client> - <output> - <yyyymmdd>.csv`, e.g.
 * `Acme - keywords - 20261123.csv` (see docs/decisions.md).
 */
export function editorFileName(client: string | null, output: string, today = new Date()): string {
  const parts = [
    client ? safeFilePart(client) : 'adloom',
    safeFilePart(output),
    formatFileDate(today),
  ];
  return `${parts.join(' - ')}.csv`;
}

/**
 * The name of a zip of Editor files: `<client> - <output> - <yyyymmdd>.zip`, e.g.
 * `Acme - all outputs - 20261123.zip`.
 */
export function editorZipFileName(
  client: string | null,
  output: string,
  today = new Date(),
): string {
  return `${editorFileName(client, output, today).slice(0, -'.csv'.length)}.zip`;
}
