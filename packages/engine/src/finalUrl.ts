/**
 * The one final URL rule: every place that writes a Final URL (responsive search ads, Performance
 * Max ads, sitelinks; the web app and the command line through them) asks `findFinalUrlProblem`.
 * Google's destination requirements (GOOGLE-ADS.md "Final URLs"; docs/decisions.md "One final URL
 * rule"): an absolute http or https address as a browser parses it (WHATWG URL), of a public host
 * name with a dot (no user info, no `localhost`, no IP address), with no space or invisible
 * character anywhere, of at most 2,048 characters. A URL that breaks the rule is never repaired:
 * its item is not written and its row is reported.
 */
import { FINAL_URL_MAX_CHARS } from './limits.ts';

/** What the engine reads of a parsed URL (the WHATWG URL of every browser, worker and Node). */
interface ParsedUrl {
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly hostname: string;
}

/** The platform's WHATWG URL parser (the engine is compiled without DOM types). */
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => ParsedUrl }).URL;

/**
 * Characters a URL never holds as typed: white space of every kind, controls, and the invisible
 * ones (zero-width characters, bidi marks, soft hyphen, word joiner, BOM, variation selectors:
 * Unicode's default-ignorable code points).
 */
const UNSEEN = /[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** Names of the characters a report mentions most. */
const CHARACTER_NAMES: Readonly<Record<string, string>> = {
  ' ': 'space',
  '\t': 'tab',
  '\n': 'line break',
  '\r': 'line break',
  '\u00a0': 'no-break space',
  '\u00ad': 'soft hyphen',
  '\u200b': 'zero-width space',
  '\u200c': 'zero-width non-joiner',
  '\u200d': 'zero-width joiner',
  '\u200e': 'left-to-right mark',
  '\u200f': 'right-to-left mark',
  '\u2060': 'word joiner',
  '\u3000': 'ideographic space',
  '\ufeff': 'byte order mark',
};

/** "zero-width space (U+200B)", or "U+2009" for a character without a name here. */
export function describeCharacter(ch: string): string {
  const code = `U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`;
  const name = CHARACTER_NAMES[ch];
  return name === undefined ? code : `${name} (${code})`;
}

/** An IPv4 address as the WHATWG parser writes it (it turns `0x7f.1` into `127.0.0.1`). */
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A host name of labels joined by dots: at least two, none empty (a final dot is allowed). */
const DOTTED_HOST = /^[^.]+(\.[^.]+)+\.?$/;

/**
 * Why a final URL (trimmed, not empty) will not pass Google Ads, as the end of a sentence that
 * starts with the URL ('has a space (U+0020)'); undefined when it is fine.
 */
export function findFinalUrlProblem(url: string): string | undefined {
  if (url.length > FINAL_URL_MAX_CHARS)
    return `has ${url.length} characters (max ${FINAL_URL_MAX_CHARS})`;
  const unseen = UNSEEN.exec(url);
  if (unseen) return `has a ${describeCharacter(unseen[0])}, which a web address cannot hold`;
  if (!/^https?:\/\/[^/?#\\]/i.test(url)) return 'is not an http:// or https:// address';
  if (url.includes('\\')) return 'has a backslash (\\), which a web address cannot hold';
  let parsed: ParsedUrl;
  try {
    parsed = new WhatwgUrl(url);
  } catch {
    return 'is not a valid web address';
  }
  if (parsed.username !== '' || parsed.password !== '')
    return 'has a user name or password before its host (user:password@), which Google refuses';
  const host = parsed.hostname;
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.')
    return 'points at localhost, which no one else can reach';
  if (host.startsWith('[') || IPV4.test(host))
    return 'has an IP address for its host (Google needs a domain name such as www.example.com)';
  if (!DOTTED_HOST.test(host))
    return 'has no domain name with a dot for its host (such as www.example.com)';
  return undefined;
}
