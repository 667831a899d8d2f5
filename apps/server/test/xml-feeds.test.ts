import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, XML_FEEDS_TOOL } from '@adloom/contract';
import { DEFAULT_XML_FETCH_MAX_BYTES, readXmlFeeds, type XmlFeedsConfig } from '../src/config.ts';
import {
  RSS_FEED_LEVEL_1,
  bigFeedItem,
  bigFeedItems,
  startFeedStandIn,
  type FeedStandIn,
} from './feed-stand-in.ts';
import { TEST_PASSWORD, startTestApp, type TestApp } from './helpers.ts';

const MARKER = '+agency';
const MB = 1024 * 1024;

function xmlFeeds(overrides: Partial<XmlFeedsConfig> = {}): XmlFeedsConfig {
  return {
    emailMarker: MARKER,
    maxBytes: DEFAULT_XML_FETCH_MAX_BYTES,
    connectTimeoutMs: 5_000,
    timeoutMs: 60_000,
    fetchesPerUser: 2,
    allowLoopback: true,
    isLoopbackSettingIgnored: false,
    ...overrides,
  };
}

const agencyEmail = () => `buyer${MARKER}-${randomUUID()}@example.com`;

describe('POST /api/app/fetch-xml', () => {
  let standIn: FeedStandIn;
  let t: TestApp;
  let token: string;
  const fetchXml = (body: unknown, as = token, app = t) =>
    app.request('POST', API.app.fetchXml, { token: as, body });

  beforeAll(async () => {
    standIn = await startFeedStandIn();
    t = await startTestApp({ xmlFeeds: xmlFeeds() });
    token = (await t.signUp(agencyEmail(), { verified: true })).token;
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });

  describe('who has the tools', () => {
    it('lists the tool in every user answer of an agency user, and only theirs', async () => {
      const email = `Someone${MARKER.toUpperCase()}-${randomUUID()}@example.com`;
      const agency = await t.signUp(email, { verified: true });
      expect(agency.user.tools).toEqual([XML_FEEDS_TOOL]);
      const me = await t.request('GET', API.users.me, { token: agency.token });
      expect(me.body.user.tools).toEqual([XML_FEEDS_TOOL]);
      const login = await t.request('POST', API.users.login, {
        body: { email, password: TEST_PASSWORD },
      });
      expect(login.body.user.tools).toEqual([XML_FEEDS_TOOL]);

      const other = await t.signUp();
      expect(other.user).not.toHaveProperty('tools');
      const otherMe = await t.request('GET', API.users.me, { token: other.token });
      expect(otherMe.body.user).not.toHaveProperty('tools');
    });

    it('refuses a user without the marker with 403 and the error shape, before any fetch', async () => {
      const other = await t.signUp();
      const before = standIn.hits('/rss.xml');
      const response = await fetchXml({ url: standIn.url('/rss.xml') }, other.token);
      expect(response.status).toBe(403);
      expect(response.body.error).toEqual({
        code: 'forbidden',
        message: 'The XML feed tools are not available to this account.',
      });
      expect(standIn.hits('/rss.xml')).toBe(before);
    });

    it('gives nobody the tools when no marker is set', async () => {
      const plain = await startTestApp({ xmlFeeds: xmlFeeds({ emailMarker: undefined }) });
      try {
        const agency = await plain.signUp(agencyEmail(), { verified: true });
        expect(agency.user).not.toHaveProperty('tools');
        const response = await fetchXml({ url: standIn.url('/rss.xml') }, agency.token, plain);
        expect(response.status).toBe(403);
      } finally {
        await plain.close();
      }
    });

    it('needs a session', async () => {
      const response = await t.request('POST', API.app.fetchXml, {
        body: { url: standIn.url('/rss.xml') },
      });
      expect(response.status).toBe(401);
    });
  });

  describe('a good feed', () => {
    it('answers brands, then categories, with their counts: RSS, Atom, gzip, deflate', async () => {
      for (const path of ['/rss.xml', '/rss-gzip.xml', '/rss-deflate.xml']) {
        const response = await fetchXml({ url: standIn.url(path) });
        expect(response.status).toBe(200);
        expect(response.body).toEqual(RSS_FEED_LEVEL_1);
      }
      const atom = await fetchXml({ url: standIn.url('/atom.xml'), categoryLevel: 2 });
      expect(atom.status).toBe(200);
      expect(atom.body).toEqual({ Lumen: { Lighting: 2 }, Sitwell: { Furniture: 1 } });
    });

    it("answers the out-of-stock products' counts beside the counts when asked, the spec's answer otherwise", async () => {
      const withStock = await fetchXml({ url: standIn.url('/stock.xml'), withAvailability: true });
      expect(withStock.status).toBe(200);
      expect(withStock.body).toEqual({
        counts: { Acme: { Shoes: 2, Socks: 2 }, Lumen: { Lamps: 1 } },
        outOfStock: { Acme: { Shoes: 2, Socks: 1 } },
      });
      const plain = await fetchXml({ url: standIn.url('/stock.xml') });
      expect(plain.body).toEqual({ Acme: { Shoes: 2, Socks: 2 }, Lumen: { Lamps: 1 } });
      const bad = await fetchXml({ url: standIn.url('/stock.xml'), withAvailability: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('validation_failed');
    });

    it('validates the body', async () => {
      const missing = await fetchXml({});
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('validation_failed');
      const level = await fetchXml({ url: standIn.url('/rss.xml'), categoryLevel: 0 });
      expect(level.status).toBe(400);
      expect(level.body.errors[0].path).toBe('categoryLevel');
    });
  });

  describe('URLs the server will not fetch', () => {
    it.each([
      ['file:///etc/passwd', /http:\/\/ or https:\/\//],
      ['ftp://shop.example.com/feed.xml', /http:\/\/ or https:\/\//],
      ['http://user:pass@shop.example.com/feed.xml', /user name or password/],
      ['http://10.0.0.1/feed.xml', /private, local or reserved/],
      ['http://169.254.169.254/latest/meta-data/', /private, local or reserved/],
    ])('%s: 400 url_refused', async (url, message) => {
      const response = await fetchXml({ url });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('url_refused');
      expect(response.body.error.message).toMatch(message);
    });

    it('refuses redirects to private addresses and more than 5 redirects', async () => {
      for (const target of ['http://10.0.0.1/feed.xml', 'http://169.254.169.254/']) {
        const response = await fetchXml({
          url: standIn.url(`/redirect?to=${encodeURIComponent(target)}`),
        });
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('url_refused');
      }
      expect((await fetchXml({ url: standIn.url('/hops/5') })).status).toBe(200);
      const tooMany = await fetchXml({ url: standIn.url('/hops/6') });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.message).toMatch(/redirects more than 5 times/);
    });

    it('outside NODE_ENV=test ignores FETCH_ALLOW_LOOPBACK, warns, and refuses loopback by name or address', async () => {
      const lines: string[] = [];
      const settings = readXmlFeeds({
        NODE_ENV: 'development',
        FETCH_ALLOW_LOOPBACK: 'true',
        XML_TOOLS_EMAIL_MARKER: MARKER,
      });
      const strict = await startTestApp(
        { xmlFeeds: settings },
        { logStream: { write: (line) => lines.push(line) } },
      );
      try {
        expect(lines.join('')).toContain('FETCH_ALLOW_LOOPBACK=true is ignored');
        const agency = await strict.signUp(agencyEmail(), { verified: true });
        const before = standIn.hits('/rss.xml');
        for (const url of [
          `http://localhost:${standIn.port}/rss.xml`,
          standIn.url('/rss.xml'),
          `http://[::1]:${standIn.port}/rss.xml`,
        ]) {
          const response = await fetchXml({ url }, agency.token, strict);
          expect(response.status).toBe(400);
          expect(response.body.error.code).toBe('url_refused');
        }
        expect(standIn.hits('/rss.xml')).toBe(before);
      } finally {
        await strict.close();
      }
    });
  });

  describe('feeds that fail', () => {
    it('names the line and column of malformed XML', async () => {
      const response = await fetchXml({ url: standIn.url('/malformed.xml') });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('xml_malformed');
      expect(response.body.error.details).toEqual({ line: 4, column: 36 });
      expect(response.body.error.message).toMatch(/line 4, column 36/);
    });

    it.each([
      ['/page.html', /a web page \(HTML\)/],
      ['/data.json', /it is not XML/],
      ['/sitemap.xml', /its root element is <urlset>/],
    ])('%s is not a product feed: 422', async (path, why) => {
      const response = await fetchXml({ url: standIn.url(path) });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('xml_malformed');
      expect(response.body.error.message).toMatch(/not lead to a product feed \(RSS or Atom\)/);
      expect(response.body.error.message).toMatch(why);
    });

    it("names the shop's error status", async () => {
      const response = await fetchXml({ url: standIn.url('/missing.xml') });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('feed_unreachable');
      expect(response.body.error.message).toMatch(/answered HTTP 404/);
    });

    describe('with tight limits', () => {
      let tight: TestApp;
      let tightToken: string;
      beforeAll(async () => {
        tight = await startTestApp({
          xmlFeeds: xmlFeeds({ timeoutMs: 1_000, maxBytes: 4 * MB }),
        });
        tightToken = (await tight.signUp(agencyEmail(), { verified: true })).token;
      });
      afterAll(async () => {
        await tight?.close();
      });

      it('gives up on a slow feed', async () => {
        const response = await fetchXml({ url: standIn.url('/slow.xml') }, tightToken, tight);
        expect(response.status).toBe(422);
        expect(response.body.error).toEqual({
          code: 'feed_unreachable',
          message: 'The feed did not arrive within 1 second.',
        });
      });

      it('stops a gzip bomb and a feed over the cap with 413', async () => {
        // The cap alone (the default time limit): on a busy machine 6 MB may take over a second.
        const capped = await startTestApp({ xmlFeeds: xmlFeeds({ maxBytes: 4 * MB }) });
        try {
          const { token } = await capped.signUp(agencyEmail(), { verified: true });
          for (const path of ['/bomb.xml', '/big.xml?bytes=6000000']) {
            const response = await fetchXml({ url: standIn.url(path) }, token, capped);
            expect(response.status).toBe(413);
            expect(response.body.error.code).toBe('feed_too_large');
            expect(response.body.error.message).toMatch(/larger than 4 MiB/);
          }
        } finally {
          await capped.close();
        }
      });
    });
  });

  it('lets a user run 2 fetches at once: a third is 429, other users go on', async () => {
    const slowBefore = standIn.hits('/slow.xml');
    const running = [
      fetchXml({ url: standIn.url('/slow.xml') }),
      fetchXml({ url: standIn.url('/slow.xml') }),
    ];
    await expect.poll(() => standIn.hits('/slow.xml') - slowBefore).toBe(2);

    const third = await fetchXml({ url: standIn.url('/rss.xml') });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('fetch_busy');
    expect(third.body.error.message).toMatch(/already have 2 feeds downloading/);

    const other = await t.signUp(agencyEmail(), { verified: true });
    expect((await fetchXml({ url: standIn.url('/rss.xml') }, other.token)).status).toBe(200);

    standIn.releaseSlow();
    for (const response of await Promise.all(running)) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({});
    }
    expect((await fetchXml({ url: standIn.url('/rss.xml') })).status).toBe(200);
  });

  it('reads a 100 MB feed while the server keeps answering', { timeout: 180_000 }, async () => {
    const bytes = 100 * MB;
    const expected: Record<string, Record<string, number>> = {};
    for (let i = 0; i < bigFeedItems(bytes); i += 1) {
      const { brand, category } = bigFeedItem(i);
      const categories = (expected[brand] ??= {});
      categories[category] = (categories[category] ?? 0) + 1;
    }

    let isDone = false;
    const feed = fetchXml({ url: standIn.url(`/big.xml?bytes=${bytes}`) }).finally(() => {
      isDone = true;
    });
    const healthTimes: number[] = [];
    while (!isDone) {
      const started = performance.now();
      const health = await t.request('GET', API.health);
      healthTimes.push(performance.now() - started);
      expect(health.status).toBe(200);
      await new Promise((done) => setTimeout(done, 50));
    }
    const response = await feed;
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected);
    expect(healthTimes.length).toBeGreaterThan(5);
    // The parse runs chunk by chunk between other work: no answer waits for the whole feed.
    expect(Math.max(...healthTimes)).toBeLessThan(1_000);
  });
});
