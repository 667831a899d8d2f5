/**
 * A shop's web server on loopback, serving product feeds good and bad for the XML feed tests and
 * the XML benchmark: RSS and Atom feeds, gzip and deflate, a generated feed of any size (streamed,
 * never held whole), a slow one, redirects, a gzip bomb, malformed XML, an HTML page and JSON.
 *
 * Run alone (prints its base URL as one JSON line): node --import tsx apps/server/test/feed-stand-in.ts
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { deflateSync, gzipSync } from 'node:zlib';

const G = 'http://base.google.com/ns/1.0';

/** The good RSS 2.0 feed, and the counts it must give at category level 1. */
export const RSS_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:g="${G}">
  <channel>
    <title>Shop</title>
    <link>https://shop.example.com</link>
    <item>
      <g:id>1</g:id>
      <title>Trail shoe</title>
      <g:brand>Acme</g:brand>
      <g:product_type>Shoes &gt; Running &gt; Trail</g:product_type>
      <g:product_type>Sale</g:product_type>
      <g:google_product_category>187</g:google_product_category>
    </item>
    <item>
      <g:id>2</g:id>
      <g:brand><![CDATA[ Ben & Jerry's ]]></g:brand>
      <g:product_type>Food &gt; Ice cream</g:product_type>
    </item>
    <item>
      <g:id>3</g:id>
      <g:brand>Acme</g:brand>
      <g:google_product_category>Apparel &amp; Accessories &gt; Shoes</g:google_product_category>
    </item>
    <item>
      <g:id>4</g:id>
      <g:brand>Acme</g:brand>
      <g:product_type>  Shoes  &gt; Road </g:product_type>
    </item>
    <item>
      <g:id>5</g:id>
      <g:google_product_category>1604</g:google_product_category>
    </item>
    <item>
      <g:id>6</g:id>
      <g:brand>Caf&#233; Noir</g:brand>
    </item>
  </channel>
</rss>
`;

/** What RSS_FEED gives at category level 1. */
export const RSS_FEED_LEVEL_1 = {
  '': { '1604': 1 },
  Acme: { 'Apparel & Accessories': 1, Shoes: 2 },
  "Ben & Jerry's": { Food: 1 },
  'Café Noir': { '': 1 },
};

/**
 * A feed with Merchant Center availability (issue 35): Acme shoes all out of stock (one spelled
 * `out of stock`, one `out_of_stock`), Acme socks one of two, Lumen's lamp on preorder.
 */
export const STOCK_FEED = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:g="${G}">
  <channel>
    <item><g:brand>Acme</g:brand><g:product_type>Shoes</g:product_type><g:availability>out_of_stock</g:availability></item>
    <item><g:brand>Acme</g:brand><g:product_type>Shoes</g:product_type><g:availability>Out of Stock</g:availability></item>
    <item><g:brand>Acme</g:brand><g:product_type>Socks</g:product_type><g:availability>in_stock</g:availability></item>
    <item><g:brand>Acme</g:brand><g:product_type>Socks</g:product_type><g:availability>out_of_stock</g:availability></item>
    <item><g:brand>Lumen</g:brand><g:product_type>Lamps</g:product_type><g:availability>preorder</g:availability></item>
  </channel>
</rss>
`;

/** The good Atom feed (Atom as the default namespace, the `g:` fields in Google's). */
export const ATOM_FEED = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="${G}">
  <title>Shop</title>
  <entry>
    <title>Lamp</title>
    <g:brand>Lumen</g:brand>
    <g:product_type>Home &gt; Lighting &gt; Lamps</g:product_type>
  </entry>
  <entry>
    <title>Bulb</title>
    <g:brand>Lumen</g:brand>
    <g:product_type>Home &gt; Lighting</g:product_type>
  </entry>
  <entry>
    <title>Chair</title>
    <g:brand>Sitwell</g:brand>
    <g:product_type>Home &gt; Furniture</g:product_type>
  </entry>
</feed>
`;

/** An RSS feed using `g:` without declaring it, as some shops do. */
export const UNDECLARED_PREFIX_FEED = `<rss version="2.0"><channel>
<item><g:brand>Acme</g:brand><g:product_type>Tools</g:product_type></item>
</channel></rss>`;

/** A feed broken on line 4, column 36 (the end of a closing tag that does not match). */
export const MALFORMED_FEED = `<?xml version="1.0"?>
<rss xmlns:g="${G}"><channel>
<item><g:brand>Acme</g:brand></item>
<item><g:brand>Acme</g:brand></itme>
</channel></rss>`;

const HTML_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset=utf-8><title>Shop</title></head>
<body><p>Welcome<br>to the shop</body></html>`;

const SITEMAP = `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://shop.example.com/</loc></url></urlset>`;

// ---- The generated feed: items of one fixed length, so any size has a known item count ----

const BIG_HEAD = `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="${G}"><channel><title>Big shop</title>\n`;
const BIG_TAIL = '</channel></rss>\n';
/** Brands and first-level categories of the generated feed cycle through this many each. */
const BIG_BRANDS = 40;
const BIG_CATEGORIES = 12;

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** Brand and first-level category of item `i` of the generated feed. */
export function bigFeedItem(i: number): { brand: string; category: string } {
  return {
    brand: `Brand ${pad(i % BIG_BRANDS, 2)}`,
    category: `Category ${pad(i % BIG_CATEGORIES, 2)}`,
  };
}

function bigFeedItemXml(i: number): string {
  const { brand, category } = bigFeedItem(i);
  const id = pad(i, 9);
  return (
    `<item><g:id>${id}</g:id><title>Product ${id} in ${category}</title>` +
    `<link>https://shop.example.com/products/${id}</link>` +
    `<description><![CDATA[A fine product <b>${id}</b> by ${brand}, in stock & ready to ship.]]></description>` +
    `<g:brand>${brand}</g:brand><g:product_type>${category} &gt; Sub ${pad(i % 7, 2)} &gt; Leaf</g:product_type>` +
    `<g:google_product_category>5322</g:google_product_category><g:price>19.99 USD</g:price>` +
    `<g:availability>in stock</g:availability><g:condition>new</g:condition></item>\n`
  );
}

const BIG_ITEM_BYTES = Buffer.byteLength(bigFeedItemXml(0));

/** Items of the generated feed of (about) `bytes` bytes. */
export function bigFeedItems(bytes: number): number {
  return Math.max(0, Math.floor((bytes - BIG_HEAD.length - BIG_TAIL.length) / BIG_ITEM_BYTES));
}

/**
 * Writes the generated feed of `bytes` bytes, minding back-pressure; with `piece`, in writes of
 * that many bytes each, one per turn of the event loop, as a slow shop server or a chunked proxy
 * sends it.
 */
async function writeBigFeed(response: ServerResponse, bytes: number, piece = 0): Promise<void> {
  const items = bigFeedItems(bytes);
  const write = async (data: Buffer) => {
    if (!response.write(data)) await new Promise((done) => response.once('drain', done));
  };
  const send = async (text: string) => {
    const data = Buffer.from(text);
    if (piece <= 0) return write(data);
    for (let at = 0; at < data.length && !response.destroyed; at += piece) {
      await write(data.subarray(at, at + piece));
      await new Promise((done) => setImmediate(done));
    }
  };
  await send(BIG_HEAD);
  const perChunk = Math.ceil((64 * 1024) / BIG_ITEM_BYTES);
  for (let i = 0; i < items && !response.destroyed;) {
    let chunk = '';
    for (const end = Math.min(items, i + perChunk); i < end; i += 1) chunk += bigFeedItemXml(i);
    await send(chunk);
  }
  response.end(BIG_TAIL);
}

// ---- The gzip bomb: a few bytes of gzip per MiB of spaces inside a feed ----

const BOMB_HEAD = gzipSync(`<?xml version="1.0"?>\n<rss xmlns:g="${G}"><channel>`);
const BOMB_MEMBER = gzipSync(Buffer.alloc(16 * 1024 * 1024, ' '));
/** Decoded size of the bomb: 16 GiB of spaces (about 16 MB of gzip). */
const BOMB_MEMBERS = 1024;
/** Compressed size of the whole bomb. */
export const BOMB_BYTES = BOMB_HEAD.length + BOMB_MEMBERS * BOMB_MEMBER.length;

/** The stand-in's state tests look at. */
export interface FeedStandIn {
  /** `http://127.0.0.1:<port><path>`. */
  url(path: string): string;
  port: number;
  /** Requests received per path (without the query). */
  hits(path: string): number;
  /** Compressed bytes of the gzip bomb written so far. */
  bombBytesWritten(): number;
  /** Lets every stalled /slow.xml answer finish. */
  releaseSlow(): void;
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1 and a free port. */
export async function startFeedStandIn(): Promise<FeedStandIn> {
  const hits = new Map<string, number>();
  let bombBytes = 0;
  let releaseSlow = () => {};
  let slowReleased = new Promise<void>((done) => (releaseSlow = done));

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const send = (status: number, type: string, body: string | Buffer, headers = {}) => {
      response.writeHead(status, { 'content-type': type, ...headers });
      response.end(body);
    };
    const xml = 'application/xml; charset=utf-8';
    const hops = /^\/hops\/(\d+)$/.exec(url.pathname);
    if (hops) {
      const left = Number(hops[1]);
      if (left === 0) send(200, xml, RSS_FEED);
      else send(302, 'text/plain', '', { location: `/hops/${left - 1}` });
      return;
    }
    switch (url.pathname) {
      case '/rss.xml':
        return send(200, xml, RSS_FEED);
      case '/stock.xml':
        return send(200, xml, STOCK_FEED);
      case '/atom.xml':
        return send(200, 'application/atom+xml', ATOM_FEED);
      case '/undeclared.xml':
        return send(200, xml, UNDECLARED_PREFIX_FEED);
      case '/rss-gzip.xml':
        return send(200, xml, gzipSync(RSS_FEED), { 'content-encoding': 'gzip' });
      case '/rss-deflate.xml':
        return send(200, xml, deflateSync(RSS_FEED), { 'content-encoding': 'deflate' });
      case '/broken-gzip.xml':
        return send(
          200,
          xml,
          Buffer.concat([gzipSync(RSS_FEED).subarray(0, 40), Buffer.alloc(64, 7)]),
          {
            'content-encoding': 'gzip',
          },
        );
      case '/rss-brotli.xml':
        return send(200, xml, RSS_FEED, { 'content-encoding': 'br' });
      case '/latin1.xml':
        return send(
          200,
          'application/xml',
          Buffer.from(
            `<?xml version="1.0" encoding="ISO-8859-1"?>\n<rss xmlns:g="${G}"><channel><item><g:brand>Bébé</g:brand></item></channel></rss>`,
            'latin1',
          ),
        );
      case '/malformed.xml':
        return send(200, xml, MALFORMED_FEED);
      case '/page.html':
        return send(200, 'text/html; charset=utf-8', HTML_PAGE);
      case '/data.json':
        return send(200, 'application/json', '{"products": []}');
      case '/sitemap.xml':
        return send(200, xml, SITEMAP);
      case '/empty.xml':
        return send(200, xml, '');
      case '/missing.xml':
        return send(404, 'text/plain', 'Not found');
      case '/redirect':
        return send(302, 'text/plain', '', { location: url.searchParams.get('to') ?? '/' });
      case '/big.xml': {
        const bytes = Number(url.searchParams.get('bytes') ?? 100 * 1024 * 1024);
        response.writeHead(200, { 'content-type': xml });
        void writeBigFeed(response, bytes, Number(url.searchParams.get('piece') ?? 0));
        return;
      }
      case '/declared-large.xml':
        // Announces 5 MiB, sends a small start and waits: only the Content-Length tells.
        response.writeHead(200, { 'content-type': xml, 'content-length': String(5 * 1024 * 1024) });
        response.write(`<rss xmlns:g="${G}"><channel>`);
        void slowReleased.then(() => response.destroy());
        return;
      case '/slow.xml':
        response.writeHead(200, { 'content-type': xml });
        response.write(`<rss xmlns:g="${G}"><channel>`);
        void slowReleased.then(() => response.end('</channel></rss>'));
        return;
      case '/bomb.xml': {
        response.writeHead(200, { 'content-type': xml, 'content-encoding': 'gzip' });
        response.write(BOMB_HEAD);
        bombBytes += BOMB_HEAD.length;
        void (async () => {
          for (let i = 0; i < BOMB_MEMBERS && !response.destroyed; i += 1) {
            bombBytes += BOMB_MEMBER.length;
            if (!response.write(BOMB_MEMBER))
              await new Promise((done) => response.once('drain', done));
          }
          response.end();
        })();
        return;
      }
      default:
        return send(404, 'text/plain', 'Not found');
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    bombBytesWritten: () => bombBytes,
    releaseSlow() {
      releaseSlow();
      slowReleased = new Promise<void>((done) => (releaseSlow = done));
    },
    async close() {
      releaseSlow();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const standIn = await startFeedStandIn();
  process.stdout.write(`${JSON.stringify({ baseUrl: standIn.url('') })}\n`);
  process.once('SIGTERM', () => void standIn.close().then(() => process.exit(0)));
}
