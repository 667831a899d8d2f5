import { TextDecoder } from 'node:util';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { FEED_MAX_ROWS } from '@adloom/contract';
import { statusOfAvailability } from '@adloom/engine';
import { AppError } from '../errors.ts';

/**
 * Reads a Google Merchant Center feed (RSS 2.0 `rss/channel/item` or Atom `feed/entry`, with
 * `g:` fields) as it arrives, into how many products carry each brand and category. Only the
 * counts and the current product are held, never the document.
 */

/** The Google Merchant Center namespace of the `g:` fields. */
export const GOOGLE_NAMESPACE = 'http://base.google.com/ns/1.0';

/** Bytes looked at for a byte order mark or the XML declaration's encoding. */
const SNIFF_BYTES = 1024;
/** Longest field text kept; a longer brand or category is cut here (its start is what counts). */
const FIELD_MAX_CHARS = 1000;
/**
 * Longest run of characters without `<` or `>` the parser sees; the rest of a longer run is
 * dropped before it. The parser holds a text whole until its next tag, so a decompression bomb
 * of spaces inside a feed held up to the size cap (200 MiB) per fetch. A product feed's texts
 * are far shorter, and a field keeps only FIELD_MAX_CHARS anyway.
 */
const RUN_MAX_CHARS = 1024 * 1024;

const FIELDS = ['brand', 'product_type', 'google_product_category', 'availability'] as const;
type Field = (typeof FIELDS)[number];

const NOT_A_FEED = 'The URL does not lead to a product feed (RSS or Atom)';

function notAFeed(why: string): AppError {
  return new AppError('xml_malformed', `${NOT_A_FEED}: ${why}.`);
}

/** Level `level` (1 = the first) of a `A > B > C` path, trimmed; undefined when it has none. */
function pathLevel(path: string, level: number): string | undefined {
  const part = path.split('>')[level - 1]?.trim();
  return part ? part : undefined;
}

function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The category of a product: level `level` of its first `g:product_type`, else the same level of
 * its `g:google_product_category` (a numeric id is taken whole), else '' (no category).
 */
export function categoryOf(fields: Partial<Record<Field, string>>, level: number): string {
  const productType =
    fields.product_type === undefined ? undefined : pathLevel(fields.product_type, level);
  if (productType !== undefined) return productType;
  const google = fields.google_product_category?.trim() ?? '';
  if (/^\d+$/.test(google)) return google;
  return pathLevel(google, level) ?? '';
}

/** Longest stretch of the answer's work between two turns of the event loop, in ms. */
const SLICE_MS = 8;

/** A pause to await often: it lets other work in once SLICE_MS have passed since the last. */
function slices(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await new Promise((done) => setImmediate(done));
    since = performance.now();
  };
}

/** Items sorted alone in one go; a longer list is merged in slices. */
const SORT_RUN = 4096;

/**
 * `items` sorted by UTF-16 code unit, as Array#sort sorts strings, pausing (`pause`) between
 * slices: runs of SORT_RUN sorted, then merged pairwise.
 */
async function sortedInSlices(items: string[], pause: () => Promise<void>): Promise<string[]> {
  if (items.length <= SORT_RUN) return items.sort();
  let runs: string[][] = [];
  for (let at = 0; at < items.length; at += SORT_RUN) {
    runs.push(items.slice(at, at + SORT_RUN).sort());
    await pause();
  }
  while (runs.length > 1) {
    const merged: string[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const a = runs[i]!;
      const b = runs[i + 1];
      if (b === undefined) {
        merged.push(a);
        continue;
      }
      const out = new Array<string>(a.length + b.length);
      let ia = 0;
      let ib = 0;
      for (let k = 0; k < out.length; k += 1) {
        out[k] = ib >= b.length || (ia < a.length && a[ia]! <= b[ib]!) ? a[ia++]! : b[ib++]!;
        if ((k & 4095) === 4095) await pause();
      }
      merged.push(out);
    }
    runs = merged;
  }
  return runs[0]!;
}

/** Counts by brand and category as JSON text, both sorted by code unit, made in slices. */
async function countsJson(
  counts: Map<string, Map<string, number>>,
  pause: () => Promise<void>,
): Promise<string> {
  const parts: string[] = [];
  for (const brand of await sortedInSlices([...counts.keys()], pause)) {
    const categories = counts.get(brand) ?? new Map<string, number>();
    const names = await sortedInSlices([...categories.keys()], pause);
    const fields = names.map((name) => `${JSON.stringify(name)}:${categories.get(name)}`);
    parts.push(`${JSON.stringify(brand)}:{${fields.join(',')}}`);
    await pause();
  }
  return `{${parts.join(',')}}`;
}

/** The parse of one feed: feed it text, then take the counts. */
class FeedCounter {
  private readonly parser: SaxesParser<{ xmlns: true }>;
  private readonly counts = new Map<string, Map<string, number>>();
  /** Per brand and category, how many of its products are out of stock (`g:availability`). */
  private readonly outOfStock = new Map<string, Map<string, number>>();
  /** Different (brand, category) pairs so far: each would be a feed row. */
  private pairs = 0;
  /** 'item' in an RSS feed, 'entry' in an Atom feed, once the root element is known. */
  private itemName: string | undefined;
  private depth = 0;
  /** Depth of the product being read, or -1 outside one. */
  private itemDepth = -1;
  private fields: Partial<Record<Field, string>> = {};
  private field: Field | undefined;
  /** Depth of the field being read. */
  private fieldDepth = -1;
  private fieldText = '';
  /** Characters since the last `<` or `>` (across writes). */
  private run = 0;

  constructor(private readonly categoryLevel: number) {
    this.parser = new SaxesParser({
      xmlns: true,
      // Shops often use `g:` (or other prefixes) without declaring them: read them as declared.
      resolvePrefix: (prefix: string) =>
        prefix === 'g' ? GOOGLE_NAMESPACE : `urn:adloom:undeclared:${prefix}`,
    });
    this.parser.on('error', (error) => {
      const { line, column } = this.parser;
      const reason = error.message.replace(/^\d+:\d+: /, '');
      throw new AppError(
        'xml_malformed',
        `The feed is not well-formed XML: line ${line}, column ${column}: ${reason}`,
        { line, column },
      );
    });
    this.parser.on('opentag', (tag) => this.open(tag));
    this.parser.on('closetag', () => this.close());
    this.parser.on('text', (text) => this.addText(text));
    this.parser.on('cdata', (text) => this.addText(text));
  }

  write(text: string): void {
    this.parser.write(this.bounded(text));
  }

  /** `text` with every run without `<` or `>` cut to RUN_MAX_CHARS (see there). */
  private bounded(text: string): string {
    const lastMarkup = Math.max(text.lastIndexOf('<'), text.lastIndexOf('>'));
    // The usual case: no run can pass the limit in this text.
    if (this.run + text.length <= RUN_MAX_CHARS) {
      this.run = lastMarkup < 0 ? this.run + text.length : text.length - lastMarkup - 1;
      return text;
    }
    const kept: string[] = [];
    const markup = /[<>]/g;
    let copyFrom = 0;
    let runFrom = 0;
    for (;;) {
      const found = markup.exec(text);
      const runEnd = found === null ? text.length : found.index;
      const runLength = runEnd - runFrom;
      if (this.run + runLength > RUN_MAX_CHARS) {
        kept.push(text.slice(copyFrom, runFrom + Math.max(0, RUN_MAX_CHARS - this.run)));
        copyFrom = runEnd;
        this.run = RUN_MAX_CHARS;
      } else this.run += runLength;
      if (found === null) break;
      this.run = 0;
      runFrom = runEnd + 1;
    }
    kept.push(text.slice(copyFrom));
    return kept.join('');
  }

  /**
   * The counts as the JSON text of BrandCategories, brands and categories sorted by code unit.
   * Made in slices that let other requests in (see slices): for 249,000 pairs, sorting and
   * JSON.stringify of the answer held the event loop for about 0.7 s in one go.
   */
  async finishJson(withAvailability = false): Promise<string> {
    this.parser.close();
    const pause = slices();
    const counts = await countsJson(this.counts, pause);
    if (!withAvailability) return counts;
    return `{"counts":${counts},"outOfStock":${await countsJson(this.outOfStock, pause)}}`;
  }

  private open(tag: SaxesTagNS): void {
    this.depth += 1;
    if (this.itemName === undefined) {
      if (tag.local === 'rss') this.itemName = 'item';
      else if (tag.local === 'feed') this.itemName = 'entry';
      else if (tag.local.toLowerCase() === 'html') throw notAFeed('it is a web page (HTML)');
      else throw notAFeed(`its root element is <${tag.name}>`);
      return;
    }
    const isGoogleField = tag.uri === GOOGLE_NAMESPACE || tag.prefix === 'g';
    if (this.itemDepth < 0) {
      if (!isGoogleField && tag.local === this.itemName) {
        this.itemDepth = this.depth;
        this.fields = {};
      }
      return;
    }
    const field = FIELDS.find((name) => name === tag.local);
    if (
      isGoogleField &&
      field !== undefined &&
      this.fields[field] === undefined &&
      this.field === undefined
    ) {
      this.field = field;
      this.fieldDepth = this.depth;
      this.fieldText = '';
    }
  }

  private close(): void {
    if (this.field !== undefined && this.depth === this.fieldDepth) {
      this.fields[this.field] = this.fieldText;
      this.field = undefined;
    } else if (this.depth === this.itemDepth) {
      this.countItem();
      this.itemDepth = -1;
    }
    this.depth -= 1;
  }

  private addText(text: string): void {
    if (this.field !== undefined && this.fieldText.length < FIELD_MAX_CHARS)
      this.fieldText += text.slice(0, FIELD_MAX_CHARS - this.fieldText.length);
  }

  private countItem(): void {
    const brand = cleanText(this.fields.brand ?? '');
    const category = cleanText(categoryOf(this.fields, this.categoryLevel));
    let categories = this.counts.get(brand);
    if (categories === undefined) {
      categories = new Map();
      this.counts.set(brand, categories);
    }
    const count = categories.get(category) ?? 0;
    if (count === 0) {
      if (this.pairs === FEED_MAX_ROWS)
        throw new AppError(
          'feed_too_large',
          `The feed has more than ${FEED_MAX_ROWS.toLocaleString('en-US')} different brand and category pairs, more than a feed holds.`,
        );
      this.pairs += 1;
    }
    categories.set(category, count + 1);
    // Out of stock (Merchant Center's availability, rowStatus.ts): counted apart, so a pair all of
    // whose products are out of stock makes a paused row.
    if (statusOfAvailability(cleanText(this.fields.availability ?? '')) === 'paused') {
      let out = this.outOfStock.get(brand);
      if (out === undefined) {
        out = new Map();
        this.outOfStock.set(brand, out);
      }
      out.set(category, (out.get(category) ?? 0) + 1);
    }
  }
}

/**
 * What windows-1252 (also what ISO-8859-1 declares, as in browsers) puts at 0x80-0x9F; Node's
 * TextDecoder gives C1 controls there (nodejs/node#60888), so its text is mapped once more (as
 * apps/web's CSV import does).
 */
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const C1_CONTROLS = /[\u0080-\u009F]/g;

/** Decodes the next bytes (streaming), or the rest when called without any. */
type Decode = (bytes?: Buffer) => string;

/** The decoder for a feed that starts with `head`: its byte order mark, else its declaration. */
function decoderFor(head: Buffer): Decode {
  const decoder = textDecoderFor(head);
  const decode: Decode = (bytes) =>
    bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
  if (decoder.encoding !== 'windows-1252') return decode;
  return (bytes) =>
    decode(bytes).replace(C1_CONTROLS, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] as string);
}

function textDecoderFor(head: Buffer): TextDecoder {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be');
  const declared = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(
    head.toString('latin1'),
  )?.[1];
  if (declared === undefined) return new TextDecoder('utf-8');
  try {
    return new TextDecoder(declared);
  } catch {
    throw new AppError(
      'xml_malformed',
      `The feed's encoding "${declared}" is not one Adloom can read (UTF-8 works everywhere).`,
    );
  }
}

/** Refuses a body that is plainly not XML (JSON, text, an HTML page) before parsing it. */
function checkLooksLikeXml(start: string): void {
  if (!start.startsWith('<')) throw notAFeed('it is not XML');
  if (/^<!doctype\s+html|^<html[\s>]/i.test(start)) throw notAFeed('it is a web page (HTML)');
}

/**
 * How many products of the feed whose bytes arrive as `chunks` carry each brand and category
 * (`categoryLevel` of `g:product_type`, see categoryOf), as the JSON text of BrandCategories
 * (the answer is sent as it is). A body that is not well-formed XML is 422 xml_malformed naming
 * the line and column; one that is not a feed, 422 saying so. `withAvailability`: the JSON text
 * of XmlFeedAnswer instead (the counts, and the out-of-stock products' counts beside them).
 */
export async function readBrandCategories(
  chunks: AsyncIterable<Buffer>,
  categoryLevel: number,
  withAvailability = false,
): Promise<string> {
  const counter = new FeedCounter(categoryLevel);
  let decode: Decode | undefined;
  const head: Buffer[] = [];
  let headBytes = 0;
  let isChecked = false;
  const feed = (text: string) => {
    if (!isChecked) {
      const start = text.trimStart();
      if (start === '') return;
      checkLooksLikeXml(start);
      isChecked = true;
    }
    counter.write(text);
  };
  const startDecoding = (): Decode => {
    const bytes = Buffer.concat(head);
    const chosen = decoderFor(bytes);
    feed(chosen(bytes));
    return chosen;
  };
  for await (const chunk of chunks) {
    if (decode !== undefined) {
      feed(decode(chunk));
      // Let other requests in between chunks: without it a buffered body is parsed in one go
      // (/api/health took ~150 ms instead of ~5 ms while a 100 MB feed streamed).
      await new Promise((done) => setImmediate(done));
      continue;
    }
    head.push(chunk);
    headBytes += chunk.length;
    if (headBytes >= SNIFF_BYTES) decode = startDecoding();
  }
  feed((decode ?? startDecoding())());
  if (!isChecked) throw new AppError('xml_malformed', 'The feed is empty.');
  return counter.finishJson(withAvailability);
}
