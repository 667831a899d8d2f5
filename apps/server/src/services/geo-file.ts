/**
 * Google's geo targets file (issue 16): where it comes from (a CSV or zip path, or an http(s)
 * address of either), its release date, and its rows checked and turned into the CSV that
 * db/geo.ts copies into the database.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { unzipSync } from 'fflate';

/** The columns of Google's file, in its order (its first line). */
export const GEO_FILE_COLUMNS = [
  'Criteria ID',
  'Name',
  'Canonical Name',
  'Parent ID',
  'Country Code',
  'Target Type',
  'Status',
] as const;

/** Largest file (or zip entry) taken: Google's whole release is ~23 MB of CSV. */
export const GEO_FILE_MAX_BYTES = 256 * 1024 * 1024;
/** A download of the file must be over within this time. */
export const GEO_DOWNLOAD_TIMEOUT_MS = 5 * 60 * 1000;
/** A HEAD request asking an address when it last changed must be over within this time. */
const GEO_HEAD_TIMEOUT_MS = 30 * 1000;

/** A geo targets file that cannot be loaded; the message says why, for the operator. */
export class GeoFileError extends Error {
  override name = 'GeoFileError';
}

/** One row of Google's file. */
export interface GeoFileRow {
  criteriaId: number;
  name: string;
  canonicalName: string;
  parentId: number | null;
  countryCode: string;
  targetType: string;
  status: string;
}

/** A file read into memory, with what its release is called. */
export interface GeoSourceBytes {
  /** The file or address's last path segment. */
  name: string;
  /** The release date (YYYY-MM-DD) from the name, the zip entry's name, or the file's date. */
  date: string;
  /** The CSV's bytes (unzipped). */
  csv: Uint8Array;
}

const RELEASE_DATE = /geotargets-(\d{4}-\d{2}-\d{2})/i;

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** The last path segment of a path or address. */
export function geoSourceName(source: string): string {
  if (!isUrl(source)) return basename(source);
  const path = new URL(source).pathname.replace(/\/+$/, '');
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || new URL(source).host;
}

/** The release date in a name like `geotargets-2024-08-13.csv.zip`, if it holds a real date. */
export function releaseDateInName(name: string): string | undefined {
  const date = RELEASE_DATE.exec(name)?.[1];
  if (!date) return undefined;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date)
    ? date
    : undefined;
}

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The release date of `source` known before reading it: from its name, else the file's
 * modification date; undefined for an address whose name holds no date.
 */
export async function geoSourceDate(source: string): Promise<string | undefined> {
  const fromName = releaseDateInName(geoSourceName(source));
  if (fromName || isUrl(source)) return fromName;
  return dayOf((await stat(source)).mtime);
}

/**
 * When `source` last changed: a file's modification time, an address's Last-Modified (asked
 * with HEAD); undefined when the address does not say or cannot be reached.
 */
export async function geoSourceModified(source: string): Promise<Date | undefined> {
  if (!isUrl(source)) return (await stat(source)).mtime;
  try {
    const response = await fetch(source, {
      method: 'HEAD',
      redirect: 'follow',
      signal: AbortSignal.timeout(GEO_HEAD_TIMEOUT_MS),
    });
    const header = response.ok ? response.headers.get('last-modified') : null;
    const date = header ? new Date(header) : undefined;
    return date && !Number.isNaN(date.getTime()) ? date : undefined;
  } catch {
    return undefined;
  }
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** The one .csv entry of a zip, with its name. */
function unzipCsv(bytes: Uint8Array, name: string): { entry: string; csv: Uint8Array } {
  let tooBig: string | undefined;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        if (!file.name.toLowerCase().endsWith('.csv')) return false;
        if (file.originalSize > GEO_FILE_MAX_BYTES) tooBig = file.name;
        return tooBig === undefined;
      },
    });
  } catch (error) {
    throw new GeoFileError(
      `${name} is not a readable zip (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (tooBig)
    throw new GeoFileError(`${name}: ${tooBig} is larger than ${GEO_FILE_MAX_BYTES} bytes`);
  const names = Object.keys(entries);
  const [entry] = names;
  if (names.length !== 1 || entry === undefined)
    throw new GeoFileError(
      `${name} must hold exactly one .csv file (Google's geotargets-YYYY-MM-DD.csv); it holds ${names.length}`,
    );
  return { entry, csv: entries[entry]! };
}

async function download(url: string): Promise<{ bytes: Uint8Array; lastModified?: Date }> {
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'follow',
      signal: AbortSignal.timeout(GEO_DOWNLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new GeoFileError(
      `could not download ${url}: ${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))}`,
    );
  }
  if (!response.ok) throw new GeoFileError(`could not download ${url}: HTTP ${response.status}`);
  const size = Number(response.headers.get('content-length') ?? 0);
  if (size > GEO_FILE_MAX_BYTES)
    throw new GeoFileError(`${url} is larger than ${GEO_FILE_MAX_BYTES} bytes`);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new GeoFileError(
      `could not download ${url}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (bytes.length > GEO_FILE_MAX_BYTES)
    throw new GeoFileError(`${url} is larger than ${GEO_FILE_MAX_BYTES} bytes`);
  const header = response.headers.get('last-modified');
  const lastModified = header ? new Date(header) : undefined;
  return lastModified && !Number.isNaN(lastModified.getTime())
    ? { bytes, lastModified }
    : { bytes };
}

/** Reads a CSV or zip from a path or an http(s) address; a zip gives its one .csv entry. */
export async function readGeoSource(source: string): Promise<GeoSourceBytes> {
  const name = geoSourceName(source);
  let bytes: Uint8Array;
  let fileDate: Date;
  if (isUrl(source)) {
    const downloaded = await download(source);
    bytes = downloaded.bytes;
    fileDate = downloaded.lastModified ?? new Date();
  } else {
    let info;
    try {
      info = await stat(source);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new GeoFileError(
        code === 'ENOENT' ? `${source} does not exist` : `cannot read ${source} (${code})`,
      );
    }
    if (!info.isFile()) throw new GeoFileError(`${source} is not a file`);
    if (info.size > GEO_FILE_MAX_BYTES)
      throw new GeoFileError(`${source} is larger than ${GEO_FILE_MAX_BYTES} bytes`);
    bytes = await readFile(source);
    fileDate = info.mtime;
  }
  let csv = bytes;
  let entry: string | undefined;
  if (isZip(bytes)) ({ entry, csv } = unzipCsv(bytes, name));
  const date =
    releaseDateInName(name) ??
    (entry === undefined ? undefined : releaseDateInName(entry)) ??
    dayOf(fileDate);
  return { name, date, csv };
}

/**
 * Calls `onRecord` with each record of CSV text (RFC 4180: a quoted value may hold commas,
 * doubled quotes and line breaks; lines end in LF or CRLF) and the line it starts on. Blank
 * lines are skipped.
 */
export function parseCsv(text: string, onRecord: (fields: string[], line: number) => void): void {
  const length = text.length;
  let at = 0;
  let line = 1;
  while (at < length) {
    const recordLine = line;
    const fields: string[] = [];
    for (;;) {
      let value: string;
      if (text.charCodeAt(at) === 0x22) {
        value = '';
        let from = at + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) throw new GeoFileError(`line ${line}: a quoted value is never closed`);
          value += text.slice(from, quote);
          if (text.charCodeAt(quote + 1) !== 0x22) {
            at = quote + 1;
            break;
          }
          value += '"';
          from = quote + 2;
        }
        for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) line += 1;
      } else {
        let end = at;
        while (end < length) {
          const code = text.charCodeAt(end);
          if (code === 0x2c || code === 0x0a || code === 0x0d) break;
          end += 1;
        }
        value = text.slice(at, end);
        at = end;
      }
      fields.push(value);
      const next = text.charCodeAt(at);
      if (next === 0x2c) {
        at += 1;
        continue;
      }
      if (next === 0x0d && text.charCodeAt(at + 1) === 0x0a) at += 1;
      if (at < length && text.charCodeAt(at) !== 0x0a && text.charCodeAt(at) !== 0x0d)
        throw new GeoFileError(`line ${line}: a quoted value is followed by more text`);
      at += 1;
      line += 1;
      break;
    }
    if (fields.length > 1 || fields[0] !== '') onRecord(fields, recordLine);
  }
}

const ID = /^\d{1,16}$/;

function readId(value: string, column: string, line: number): number {
  const id = Number(value);
  if (!ID.test(value) || !Number.isSafeInteger(id))
    throw new GeoFileError(
      `line ${line}: ${column} must be a number (got "${value.slice(0, 40)}")`,
    );
  return id;
}

function describeFirstLine(fields: string[]): string {
  const text = fields.join(',');
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * Google's rows from the CSV's bytes (UTF-8, with or without a BOM). The first line must name
 * Google's columns (quoted or not); every row needs seven values, a numeric criteria ID not
 * seen before and a numeric or empty parent ID. Throws GeoFileError naming the line.
 */
export function parseGeoCsv(csv: Uint8Array, name: string): GeoFileRow[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(csv);
  } catch {
    throw new GeoFileError(`${name} is not UTF-8 text, so not Google's geo targets CSV`);
  }
  const rows: GeoFileRow[] = [];
  const seen = new Set<number>();
  let hasHeader = false;
  parseCsv(text, (fields, line) => {
    if (!hasHeader) {
      const header = fields.map((field) => field.trim());
      if (
        header.length !== GEO_FILE_COLUMNS.length ||
        GEO_FILE_COLUMNS.some((column, i) => header[i] !== column)
      )
        throw new GeoFileError(
          `${name} is not Google's geo targets CSV: its first line must name the columns ${GEO_FILE_COLUMNS.join(', ')} (found "${describeFirstLine(fields)}")`,
        );
      hasHeader = true;
      return;
    }
    if (fields.length !== GEO_FILE_COLUMNS.length)
      throw new GeoFileError(
        `line ${line}: ${fields.length} values where Google's file has ${GEO_FILE_COLUMNS.length}`,
      );
    const [id, targetName, canonicalName, parent, countryCode, targetType, status] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const criteriaId = readId(id, 'Criteria ID', line);
    if (seen.has(criteriaId))
      throw new GeoFileError(`line ${line}: criteria ID ${criteriaId} appears twice`);
    seen.add(criteriaId);
    rows.push({
      criteriaId,
      name: targetName,
      canonicalName,
      parentId: parent === '' ? null : readId(parent, 'Parent ID', line),
      countryCode,
      targetType,
      status,
    });
  });
  if (!hasHeader) throw new GeoFileError(`${name} is empty, so not Google's geo targets CSV`);
  if (rows.length === 0) throw new GeoFileError(`${name} holds no geo targets`);
  return rows;
}

/** Writes CSV into a Buffer that grows as needed (one string per row would be 5x slower). */
class CsvWriter {
  private buffer: Buffer;
  private at = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  /** Makes room for `chars` UTF-16 units of text written quoted (3 bytes each at most, doubled quotes). */
  reserve(chars: number): void {
    const need = this.at + chars * 6 + 64;
    if (need <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(need, this.buffer.length * 2));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  /** A number, or nothing for null (COPY reads an empty unquoted value as NULL). */
  number(value: number | null): void {
    if (value !== null) this.at += this.buffer.write(String(value), this.at, 'latin1');
  }

  /** A quoted value: COPY reads `""` as the empty string, not NULL. */
  text(value: string): void {
    this.buffer[this.at++] = 0x22;
    this.at += this.buffer.write(
      value.includes('"') ? value.replaceAll('"', '""') : value,
      this.at,
      'utf8',
    );
    this.buffer[this.at++] = 0x22;
  }

  byte(value: number): void {
    this.buffer[this.at++] = value;
  }

  done(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }
}

/**
 * The rows as the CSV `COPY geo_targets FROM STDIN (FORMAT csv)` reads: the table's columns
 * in its order, no header, an empty unquoted parent ID for none (NULL), and the search column,
 * the canonical name lowered by JavaScript as the contract's matchesGeoFilters lowers it.
 */
export function toCopyCsv(rows: readonly GeoFileRow[]): Uint8Array {
  const out = new CsvWriter(rows.length * 160);
  for (const row of rows) {
    const search = row.canonicalName.toLowerCase();
    out.reserve(
      row.name.length +
        row.canonicalName.length +
        row.countryCode.length +
        row.targetType.length +
        row.status.length +
        search.length,
    );
    out.number(row.criteriaId);
    out.byte(0x2c);
    out.text(row.name);
    out.byte(0x2c);
    out.text(row.canonicalName);
    out.byte(0x2c);
    out.number(row.parentId);
    out.byte(0x2c);
    out.text(row.countryCode);
    out.byte(0x2c);
    out.text(row.targetType);
    out.byte(0x2c);
    out.text(row.status);
    out.byte(0x2c);
    out.text(search);
    out.byte(0x0a);
  }
  return out.done();
}
