import type { LookupAddress } from 'node:dns';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.ts';
import {
  checkFeedUrl,
  createFeedFetcher,
  isAllowedAddress,
  type FetchLimits,
  type Resolver,
} from '../src/services/safe-fetch.ts';
import {
  ATOM_FEED,
  BOMB_BYTES,
  RSS_FEED,
  startFeedStandIn,
  type FeedStandIn,
} from './feed-stand-in.ts';

const LIMITS: FetchLimits = {
  maxBytes: 1024 * 1024,
  connectTimeoutMs: 2_000,
  timeoutMs: 5_000,
  allowLoopback: true,
};

async function fetchText(
  url: string,
  limits: Partial<FetchLimits> = {},
  resolve?: Resolver,
): Promise<string> {
  const fetcher = createFeedFetcher({ ...LIMITS, ...limits }, resolve);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of fetcher.fetch(url, new AbortController().signal)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    await fetcher.close();
  }
}

/** The AppError a fetch fails with. */
async function fetchError(
  url: string,
  limits: Partial<FetchLimits> = {},
  resolve?: Resolver,
): Promise<AppError> {
  const error: unknown = await fetchText(url, limits, resolve).then(
    () => new Error('the fetch succeeded'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const answers =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('isAllowedAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['127.0.0.1', false],
    ['127.1.2.3', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['192.0.2.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['64:ff9b::a00:1', false],
    ['2002:a00:1::', false],
    ['2001:db8::1', false],
    ['not an address', false],
    // IPv6 forms that carry an IPv4 address count as that address (issue 37): IPv4-compatible
    // (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16); the library classes the first as public.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::10.0.0.1', false],
    ['::169.254.169.254', false],
    ['::8.8.8.8', true],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['64:ff9b::8.8.8.8', true],
    ['2002:7f00:1::1', false],
    ['2002:c0a8:101::', false],
    ['2002:808:808::1', true],
  ])('%s: %s', (address, expected) => {
    expect(isAllowedAddress(address, false)).toBe(expected);
  });

  it('lets loopback through only with the test allowance, and nothing else private', () => {
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::1', true)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', true)).toBe(false);
  });
});

describe('checkFeedUrl', () => {
  it.each([
    ['file:///etc/passwd', /must start with http:\/\/ or https:\/\/ \(not file:\)/],
    ['ftp://shop.example.com/feed.xml', /not ftp:/],
    ['javascript:alert(1)', /not javascript:/],
    ['shop.example.com/feed.xml', /not a valid URL/],
    ['http://user:secret@shop.example.com/feed.xml', /must not hold a user name or password/],
    ['https://user@shop.example.com/feed.xml', /must not hold a user name or password/],
  ])('refuses %s', (url, message) => {
    expect(() => checkFeedUrl(url)).toThrow(message);
    expect(() => checkFeedUrl(url)).toThrow(AppError);
  });

  it('accepts http and https', () => {
    expect(checkFeedUrl('https://shop.example.com/feed.xml?x=1').host).toBe('shop.example.com');
    expect(checkFeedUrl('HTTP://shop.example.com:8080/').protocol).toBe('http:');
  });
});

describe('the feed fetcher', () => {
  let standIn: FeedStandIn;
  beforeAll(async () => {
    standIn = await startFeedStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });

  it('reads a feed, plain, gzip or deflate', async () => {
    expect(await fetchText(standIn.url('/rss.xml'))).toBe(RSS_FEED);
    expect(await fetchText(standIn.url('/atom.xml'))).toBe(ATOM_FEED);
    expect(await fetchText(standIn.url('/rss-gzip.xml'))).toBe(RSS_FEED);
    expect(await fetchText(standIn.url('/rss-deflate.xml'))).toBe(RSS_FEED);
  });

  it('refuses an encoding it cannot decode', async () => {
    const error = await fetchError(standIn.url('/rss-brotli.xml'));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/encoded as "br"/);
  });

  it('never connects to loopback without the test allowance, by address or by name', async () => {
    const before = standIn.hits('/rss.xml');
    for (const url of [
      standIn.url('/rss.xml'),
      `http://localhost:${standIn.port}/rss.xml`,
      `http://[::ffff:127.0.0.1]:${standIn.port}/rss.xml`,
      `http://[::127.0.0.1]:${standIn.port}/rss.xml`,
      `http://[64:ff9b::127.0.0.1]:${standIn.port}/rss.xml`,
      `http://[2002:7f00:1::]:${standIn.port}/rss.xml`,
    ]) {
      const error = await fetchError(url, { allowLoopback: false });
      expect(error.code).toBe('url_refused');
      expect(error.message).toMatch(/private, local or reserved network address/);
    }
    expect(standIn.hits('/rss.xml')).toBe(before);
  });

  it('connects to the address the name resolves to, after checking every answer', async () => {
    const shop = `http://shop.test:${standIn.port}/rss.xml`;
    expect(await fetchText(shop, {}, answers('127.0.0.1'))).toBe(RSS_FEED);

    const before = standIn.hits('/rss.xml');
    for (const resolve of [
      answers('10.0.0.1'),
      answers('169.254.169.254'),
      answers('::ffff:10.0.0.1'),
      answers('::a00:1'),
      answers('2002:a00:1::'),
      // One private answer among public ones refuses the name.
      answers('93.184.216.34', '192.168.0.10'),
      answers('127.0.0.1', '10.0.0.1'),
    ]) {
      const error = await fetchError(shop, {}, resolve);
      expect(error.code).toBe('url_refused');
      expect(error.message).toContain('(shop.test)');
    }
    expect(standIn.hits('/rss.xml')).toBe(before);
  });

  it('says when the name cannot be found', async () => {
    const error = await fetchError(`http://nowhere.test:${standIn.port}/`, {}, async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    });
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe("The shop's server name (nowhere.test) could not be found.");
  });

  it('checks every redirect: private addresses and other schemes are refused', async () => {
    for (const target of [
      'http://10.0.0.1/feed.xml',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/feed.xml',
    ]) {
      const error = await fetchError(standIn.url(`/redirect?to=${encodeURIComponent(target)}`));
      expect(error.code).toBe('url_refused');
      expect(error.message).toMatch(/private, local or reserved network address/);
    }
    const toFile = await fetchError(
      standIn.url(`/redirect?to=${encodeURIComponent('file:///etc/passwd')}`),
    );
    expect(toFile.code).toBe('url_refused');
    expect(toFile.message).toMatch(/^The redirect must start with http/);
  });

  it('follows up to 5 redirects and refuses a sixth', async () => {
    expect(await fetchText(standIn.url('/hops/5'))).toBe(RSS_FEED);
    const error = await fetchError(standIn.url('/hops/6'));
    expect(error.code).toBe('url_refused');
    expect(error.message).toMatch(/redirects more than 5 times/);
  });

  it('says when the compressed data is damaged', async () => {
    const error = await fetchError(standIn.url('/broken-gzip.xml'));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe(
      "The shop's server (127.0.0.1) sent damaged compressed data (gzip or deflate).",
    );
  });

  it('says when nothing listens on the port', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const error = await fetchError(`http://127.0.0.1:${port}/feed.xml`);
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe("The shop's server (127.0.0.1) refused the connection.");
  });

  it('names the status of an error answer', async () => {
    const error = await fetchError(standIn.url('/missing.xml'));
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toMatch(/answered HTTP 404/);
  });

  it('stops at the cap on decoded bytes', async () => {
    const error = await fetchError(standIn.url('/big.xml?bytes=3000000'), {
      maxBytes: 1024 * 1024,
    });
    expect(error.code).toBe('feed_too_large');
    expect(error.message).toMatch(/larger than 1 MiB/);
  });

  it('refuses a body announced larger than the cap without waiting for it', async () => {
    const error = await fetchError(standIn.url('/declared-large.xml'), {
      maxBytes: 1024 * 1024,
      timeoutMs: 2_000,
    });
    expect(error.code).toBe('feed_too_large');
  });

  it('stops a gzip bomb as soon as the decoded bytes pass the cap', async () => {
    const started = performance.now();
    const error = await fetchError(standIn.url('/bomb.xml'), { maxBytes: 4 * 1024 * 1024 });
    expect(error.code).toBe('feed_too_large');
    expect(performance.now() - started).toBeLessThan(3_000);
    // 16 GiB of spaces in 16 MB of gzip: only the first part was ever sent.
    expect(standIn.bombBytesWritten()).toBeLessThan(BOMB_BYTES / 2);
  });

  it('gives up on a feed slower than the time limit', async () => {
    const error = await fetchError(standIn.url('/slow.xml'), { timeoutMs: 300 });
    expect(error.code).toBe('feed_unreachable');
    expect(error.message).toBe('The feed did not arrive within 0.3 seconds.');
  });

  it('gives up on a server that does not finish connecting (here: silent after TCP, over https)', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const { port } = silent.address() as AddressInfo;
      const error = await fetchError(`https://127.0.0.1:${port}/feed.xml`, {
        connectTimeoutMs: 300,
      });
      expect(error.code).toBe('feed_unreachable');
      expect(error.message).toBe(
        "The shop's server (127.0.0.1) did not accept a connection within 0.3 seconds.",
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => silent.close(done));
    }
  });

  it('stops when the caller goes away', async () => {
    const fetcher = createFeedFetcher(LIMITS);
    const controller = new AbortController();
    const chunks = fetcher.fetch(standIn.url('/slow.xml'), controller.signal);
    const first = await chunks.next();
    expect(first.done).toBe(false);
    controller.abort();
    await expect(chunks.next()).rejects.toThrow('The request was cancelled.');
    await fetcher.close();
  });
});
