#!/usr/bin/env node
// After `vite build`: writes a brotli (.br, best quality) and a gzip (.gz) copy beside every text
// file of dist/ of a kilobyte or more, which the server sends as they are to a browser that
// accepts them (@fastify/static's preCompressed): the best compression, paid once at build.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const TEXT = /\.(?:html|js|mjs|css|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 1024;

let before = 0;
let after = 0;
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (TEXT.test(entry.name) && statSync(file).size >= MIN_BYTES) {
      const bytes = readFileSync(file);
      const br = brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      });
      writeFileSync(`${file}.br`, br);
      writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      before += bytes.length;
      after += br.length;
    }
  }
};
walk(dist);
process.stdout.write(
  `Compressed the web app's text files: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB with brotli (gzip beside).\n`,
);
