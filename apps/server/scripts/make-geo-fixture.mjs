#!/usr/bin/env node
// Makes the geo targets fixture the tests read, from Google's geo target files kept beside the
// repository (`<repo>/../shared/data/geo`, or the folder given as the first argument):
//   test/fixtures/geo/geotargets-raw-sample.csv  the 25-row sample of a Google release, byte for byte
//   test/fixtures/geo/geotargets-extract.csv     lines of the subset, byte for byte, in its order:
//     every Country, State and Region; Great Britain's counties; Germany's cities (Berlin 1003854
//     among them) and Australia's; every 10th city and every 50th postal code of the United States.
// Usage: node apps/server/scripts/make-geo-fixture.mjs [SOURCE_DIR]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = resolve(process.argv[2] ?? join(serverDir, '../../../shared/data/geo'));
const out = join(serverDir, 'test/fixtures/geo');
const MAX_BYTES = 1024 * 1024;

/** The cells of one line of Google's CSV (values quoted, `""` for a quote). */
function cells(line) {
  const values = [];
  const pattern = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (const match of line.matchAll(pattern)) {
    const value = match[1];
    values.push(value.startsWith('"') ? value.slice(1, -1).replaceAll('""', '"') : value);
    if (match[2] === '') break;
  }
  return values;
}

const seen = new Map();
/** Whether the extract keeps a row of this target type and country code. */
function keep(type, country) {
  const key = `${type}/${country}`;
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  if (type === 'Country' || type === 'State' || type === 'Region') return true;
  if (type === 'County') return country === 'GB';
  if (type === 'City')
    return country === 'DE' || country === 'AU' || (country === 'US' && n % 10 === 1);
  if (type === 'Postal Code') return country === 'US' && n % 50 === 1;
  return false;
}

const [header, ...lines] = readFileSync(join(source, 'geotargets-subset.csv'), 'utf8').split('\n');
const kept = lines.filter((line) => {
  if (line === '') return false;
  const row = cells(line);
  return keep(row[5], row[4]);
});
const extract = `${[header, ...kept].join('\n')}\n`;
if (Buffer.byteLength(extract) > MAX_BYTES)
  throw new Error(`The extract is ${Buffer.byteLength(extract)} bytes, over ${MAX_BYTES}`);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'geotargets-extract.csv'), extract);
writeFileSync(
  join(out, 'geotargets-raw-sample.csv'),
  readFileSync(join(source, 'geotargets-raw-sample.csv')),
);
console.log(`${kept.length} rows (${Buffer.byteLength(extract)} bytes) written to ${out}`);
