import type { LookupAddress } from 'node:dns';
import { lookup as lookupDns } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Transform, pipeline, type Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, request } from 'undici';
import { AppError, formatBytes } from '../errors.ts';

/**
 * Fetching a URL a person typed (a shop's product feed) without letting it reach the server's
 * own network: only http(s), every address actually connected to public unicast (checked in the
 * connector, so redirects and DNS answers that change between lookups are covered), at most
 * MAX_REDIRECTS redirects, time limits, and a cap on the decoded bytes that also stops gzip bombs.
 */

/** Redirects followed before the URL is refused. */
export const MAX_REDIRECTS = 5;

/** The limits of one fetcher (config.xmlFeeds). */
export interface FetchLimits {
  /** Cap on the decoded body. */
  maxBytes: number;
  connectTimeoutMs: number;
  /** The whole fetch: redirects, headers and body. */
  timeoutMs: number;
  /** Loopback addresses may be connected to (tests only). */
  allowLoopback: boolean;
}

/** Every address a host name resolves to (the connector checks them all before connecting). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const resolveWithDns: Resolver = (hostname) =>
  lookupDns(hostname, { all: true, order: 'verbatim' });

/** Statuses that send the client elsewhere with a Location header. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const ACCEPT_HEADER =
  'application/xml, text/xml, application/rss+xml, application/atom+xml, */*;q=0.5';

/**
 * The IPv4 address an IPv6 address carries by one of the forms that reach IPv4 hosts:
 * IPv4-mapped (::ffff:0:0/96) and IPv4-compatible (::/96) in its last 32 bits, NAT64
 * (64:ff9b::/96, RFC 6052) in its last 32 bits, 6to4 (2002::/16, RFC 3056) in bits 16 to 48.
 * Null for any other IPv6 address.
 */
function carriedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeroUpTo = (n: number) => p.slice(0, n).every((part) => part === 0);
  if (zeroUpTo(5) && (p[5] === 0 || p[5] === 0xffff)) return fromWords(p[6]!, p[7]!);
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0))
    return fromWords(p[6]!, p[7]!);
  if (p[0] === 0x2002) return fromWords(p[1]!, p[2]!);
  return null;
}

/**
 * True when `address` (an IPv4 or IPv6 literal) may be connected to: public unicast only, plus
 * loopback when `allowLoopback`. An IPv6 address that carries an IPv4 address (mapped,
 * compatible, NAT64, 6to4) counts as that IPv4 address.
 */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const allowed = (range: string) => range === 'unicast' || (allowLoopback && range === 'loopback');
  if (parsed.kind() === 'ipv4') return allowed(parsed.range());
  const ipv6 = parsed as ipaddr.IPv6;
  // ::1 and :: are in ::/96 but are IPv6's own loopback and unspecified addresses.
  if (ipv6.range() === 'loopback' || ipv6.range() === 'unspecified') return allowed(ipv6.range());
  const ipv4 = carriedIpv4(ipv6);
  return allowed(ipv4 ? ipv4.range() : ipv6.range());
}

function refusedAddress(host: string): AppError {
  return new AppError(
    'url_refused',
    `The feed URL's server (${host}) is on a private, local or reserved network address, which Adloom does not fetch. Use the feed's public address.`,
  );
}

/**
 * The URL when the server may fetch it: http or https, with a host and no user name or password.
 * `what` names it in the message ('feed URL' or 'redirect').
 */
export function checkFeedUrl(raw: string | URL, what = 'feed URL'): URL {
  let url: URL;
  try {
    url = typeof raw === 'string' ? new URL(raw) : raw;
  } catch {
    throw new AppError('url_refused', `The ${what} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AppError(
      'url_refused',
      `The ${what} must start with http:// or https:// (not ${url.protocol}).`,
    );
  if (url.username || url.password)
    throw new AppError('url_refused', `The ${what} must not hold a user name or password.`);
  return url;
}

/**
 * The connector of the fetcher's Agent: a literal address is checked before connecting, a host
 * name through a lookup that checks every address it answers (net.connect connects only to
 * those), so nothing but an allowed address is ever connected to.
 */
export function createGuardedConnector(
  limits: Pick<FetchLimits, 'connectTimeoutMs' | 'allowLoopback'>,
  resolve: Resolver = resolveWithDns,
): buildConnector.connector {
  const isAllowed = (address: string) => isAllowedAddress(address, limits.allowLoopback);
  const lookup: LookupFunction = (hostname, options, callback) => {
    const family =
      options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    resolve(hostname).then(
      (answers) => {
        if (answers.length === 0 || answers.some((answer) => !isAllowed(answer.address))) {
          callback(refusedAddress(hostname), []);
          return;
        }
        const usable = answers.filter((answer) => family === 0 || answer.family === family);
        const first = usable[0];
        if (options.all) callback(null, usable);
        else if (first) callback(null, first.address, first.family);
        else
          callback(
            Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
            [],
          );
      },
      (error: Error) => callback(error, []),
    );
  };
  const connect = buildConnector({ timeout: limits.connectTimeoutMs, lookup });
  return (options, callback) => {
    const literal = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(literal) !== 0 && !isAllowed(literal)) {
      callback(refusedAddress(options.hostname), null);
      return;
    }
    connect(options, callback);
  };
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${value} ${value === 1 ? 'second' : 'seconds'}`;
}

/** A fetch error as the person should read it; `host` is the server being fetched. */
function describeFetchError(error: unknown, host: string, limits: FetchLimits): AppError {
  if (error instanceof AppError) return error;
  const code = error instanceof Error ? String((error as { code?: unknown }).code ?? '') : '';
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return new AppError(
      'feed_unreachable',
      `The shop's server (${host}) did not accept a connection within ${seconds(limits.connectTimeoutMs)}.`,
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new AppError('feed_unreachable', `The shop's server name (${host}) could not be found.`);
  if (code === 'ECONNREFUSED')
    return new AppError('feed_unreachable', `The shop's server (${host}) refused the connection.`);
  if (code.startsWith('Z_'))
    return new AppError(
      'feed_unreachable',
      `The shop's server (${host}) sent damaged compressed data (gzip or deflate).`,
    );
  if (/CERT|SSL|TLS/.test(code))
    return new AppError(
      'feed_unreachable',
      `The shop's server (${host}) has no valid HTTPS certificate.`,
    );
  return new AppError('feed_unreachable', `The shop's server (${host}) could not be reached.`);
}

/**
 * How much decoded feed may wait for the parser. undici parses a response in llhttp and pauses
 * it when the body's reader is full; resuming copies what is left of the socket's read into the
 * parser again. A feed sent in small pieces (a slow shop server, a chunked proxy) paused it once
 * per piece: time grew with the square of the feed (12 MB in 250-byte pieces: 44 s instead of
 * 1 s). With room for a few socket reads it pauses once per this many bytes.
 */
const DECODED_BUFFER_BYTES = 1024 * 1024;

/** Counts the decoded bytes and fails as soon as they pass the cap. */
function byteCap(maxBytes: number): Transform {
  let total = 0;
  return new Transform({
    highWaterMark: DECODED_BUFFER_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
}

function tooLarge(maxBytes: number): AppError {
  return new AppError(
    'feed_too_large',
    `The feed is larger than ${formatBytes(maxBytes)} (once decompressed), the most Adloom reads.`,
  );
}

/** The decoders of a Content-Encoding header, in the order to apply them; identity needs none. */
function decodersFor(contentEncoding: string | string[] | undefined, host: string): Transform[] {
  const names = [contentEncoding ?? '']
    .flat()
    .join(',')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  return names.reverse().map((name) => {
    if (name === 'gzip' || name === 'x-gzip') return createGunzip();
    if (name === 'deflate') return createInflate();
    throw new AppError(
      'feed_unreachable',
      `The shop's server (${host}) sent the feed encoded as "${name}", which Adloom cannot read (gzip and deflate work).`,
    );
  });
}

/** Fetches people's feed URLs through one guarded Agent. */
export interface FeedFetcher {
  /**
   * The decoded body of `url` as it arrives, after at most MAX_REDIRECTS redirects. Every
   * failure is an AppError (url_refused, feed_unreachable, feed_too_large); `signal` ends the
   * fetch early (the person went away).
   */
  fetch(url: string, signal: AbortSignal): AsyncGenerator<Buffer>;
  close(): Promise<void>;
}

/** A fetcher with these limits; `resolve` replaces DNS (tests). */
export function createFeedFetcher(limits: FetchLimits, resolve?: Resolver): FeedFetcher {
  const agent = new Agent({
    connect: createGuardedConnector(limits, resolve),
    // The whole-fetch timer below is the real limit; these only keep undici's longer defaults out.
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
    connections: 64,
  });

  /** Follows redirects to the final answer; its body is still to be read. */
  async function open(start: URL, signal: AbortSignal) {
    let url = start;
    for (let redirects = 0; ; redirects += 1) {
      const response = await request(url, {
        dispatcher: agent,
        signal,
        headers: {
          accept: ACCEPT_HEADER,
          'accept-encoding': 'gzip, deflate',
          'user-agent': 'Adloom feed reader',
        },
      });
      const { statusCode, headers } = response;
      if (REDIRECT_STATUSES.has(statusCode) && headers.location !== undefined) {
        await response.body.dump();
        if (redirects === MAX_REDIRECTS)
          throw new AppError(
            'url_refused',
            `The feed URL redirects more than ${MAX_REDIRECTS} times; Adloom stops there.`,
          );
        url = checkFeedUrl(new URL(String(headers.location), url), 'redirect');
        continue;
      }
      if (statusCode < 200 || statusCode > 299) {
        await response.body.dump();
        throw new AppError(
          'feed_unreachable',
          `The shop's server (${url.hostname}) answered HTTP ${statusCode} instead of the feed.`,
        );
      }
      return { url, response };
    }
  }

  return {
    async *fetch(rawUrl, callerSignal) {
      let host = '';
      const timeout = AbortSignal.timeout(limits.timeoutMs);
      const signal = AbortSignal.any([callerSignal, timeout]);
      // The answer's body, destroyed however the fetch ends (the decoders end with it).
      let body: Readable | undefined;
      try {
        const start = checkFeedUrl(rawUrl);
        host = start.hostname;
        const { url, response } = await open(start, signal);
        body = response.body;
        host = url.hostname;
        const decoders = decodersFor(response.headers['content-encoding'], host);
        const declaredLength = Number(response.headers['content-length']);
        if (decoders.length === 0 && declaredLength > limits.maxBytes)
          throw tooLarge(limits.maxBytes);
        const decoded = byteCap(limits.maxBytes);
        pipeline([response.body, ...decoders, decoded], () => {});
        for await (const chunk of decoded) yield chunk as Buffer;
      } catch (error) {
        if (timeout.aborted)
          throw new AppError(
            'feed_unreachable',
            `The feed did not arrive within ${seconds(limits.timeoutMs)}.`,
          );
        if (callerSignal.aborted) throw new AppError('bad_request', 'The request was cancelled.');
        throw describeFetchError(error, host, limits);
      } finally {
        // Destroying a body not read to its end emits undici's AbortError; with no listener
        // that error would be uncaught and end the process.
        body?.on('error', () => {}).destroy();
      }
    },
    close: () => agent.close(),
  };
}
