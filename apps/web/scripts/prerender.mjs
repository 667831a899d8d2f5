#!/usr/bin/env node
// After `vite build`: draws the public pages people open first (src/prerender.tsx names them) into
// dist/pages/NAME.html (index.html for /), from dist/index.html with the page's markup in #root,
// its title, the inline script that hides the page from someone with a stored session
// before the first paint, and the app's entry module started after that paint. The server answers those paths with them (apps/server/src/http/web-pages.ts).
// Usage: node scripts/prerender.mjs [DIST_DIR]   (default: apps/web/dist)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(web, 'dist'));
const ROOT_ELEMENT = '<div id="root"></div>';
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;

/**
 * An inline script that starts the app's entry module once the drawn page has been painted
 * (after the next frame, or after a second where no frame comes, as in a background tab): its
 * files still download from the start (modulepreload), but running them waits for the paint.
 */
function afterFirstPaint(src) {
  return (
    `(function(){var done=false;function go(){if(done)return;done=true;` +
    `var s=document.createElement('script');s.type='module';s.crossOrigin='';` +
    `s.src=${JSON.stringify(src)};document.head.appendChild(s)}` +
    `requestAnimationFrame(function(){setTimeout(go)});setTimeout(go,1000)})()`
  );
}

/** Puts `value` in place of the one `search` of `html`, or fails loudly when it is not there. */
function replaceOnce(html, search, value) {
  if (!html.includes(search)) throw new Error(`dist/index.html has no ${search}`);
  return html.replace(search, () => value);
}

// Inside the web app's folder, so that Node finds the packages the bundle leaves out.
const ssrDir = mkdtempSync(path.join(web, '.prerender-'));
try {
  await build({
    root: web,
    logLevel: 'warn',
    build: {
      ssr: 'src/prerender.tsx',
      outDir: ssrDir,
      emptyOutDir: true,
      sourcemap: false,
      copyPublicDir: false,
    },
  });
  const { PRERENDERED_PATHS, STORED_SESSION_SCRIPT, prerenderPage } = await import(
    pathToFileURL(path.join(ssrDir, 'prerender.js')).href
  );
  const emptyPage = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = ENTRY_SCRIPT.exec(emptyPage);
  if (!entry) throw new Error('dist/index.html has no entry module script');
  const shell = replaceOnce(emptyPage, entry[0], `<script>${afterFirstPaint(entry[1])}</script>`);
  mkdirSync(path.join(dist, 'pages'), { recursive: true });
  for (const page of PRERENDERED_PATHS) {
    const { markup, title } = await prerenderPage(page);
    let html = replaceOnce(
      shell,
      ROOT_ELEMENT,
      `<div id="root" data-prerendered="${page}">${markup}</div>`,
    );
    html = replaceOnce(html, '<title>Adloom</title>', `<title>${title}</title>`);
    html = replaceOnce(html, '</title>', `</title>\n    <script>${STORED_SESSION_SCRIPT}</script>`);
    const name = page === '/' ? 'index' : page.slice(1);
    writeFileSync(path.join(dist, 'pages', `${name}.html`), html);
  }
  process.stdout.write(`Prerendered ${PRERENDERED_PATHS.join(', ')} into ${dist}/pages.\n`);
} finally {
  rmSync(ssrDir, { recursive: true, force: true });
}
