import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where the web app's build puts its prerendered pages (apps/web/scripts/prerender.mjs). */
const PAGES_DIR = 'pages';

/** An inline script: a script element without a src attribute. */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The web app's prerendered pages, read once at start. */
export interface PrerenderedPages {
  /** Each prerendered page's path and its file (relative to the web app's folder). */
  files: Map<string, string>;
  /** The CSP sources ('sha256-…') of the pages' inline scripts. */
  scriptHashes: string[];
}

/**
 * Reads `pages/NAME.html` of the built web app: each answers `/NAME` (`index.html` answers `/`)
 * in place of the app's empty index.html. None when the build made none.
 */
export function readPrerenderedPages(webDist: string): PrerenderedPages {
  const dir = join(webDist, PAGES_DIR);
  const files = new Map<string, string>();
  const scriptHashes = new Set<string>();
  const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.html')) : [];
  for (const name of names) {
    const page = name.slice(0, -'.html'.length);
    files.set(page === 'index' ? '/' : `/${page}`, `${PAGES_DIR}/${name}`);
    for (const [, script] of readFileSync(join(dir, name), 'utf8').matchAll(INLINE_SCRIPT))
      scriptHashes.add(`'sha256-${createHash('sha256').update(script!).digest('base64')}'`);
  }
  return { files, scriptHashes: [...scriptHashes] };
}
