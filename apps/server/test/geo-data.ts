import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folder of Google's geo target files for tests: `<repo>/../shared/data/geo` (never committed). */
export const GEO_DATA_DIR = resolve(
  fileURLToPath(new URL('../../..', import.meta.url)),
  '../shared/data/geo',
);

/** Path of one of the geo data files; throws naming the folder when it is missing. */
export function geoDataFile(name: 'geotargets-raw-sample.csv' | 'geotargets-subset.csv'): string {
  const path = resolve(GEO_DATA_DIR, name);
  if (!existsSync(path))
    throw new Error(
      `${path} is missing: the geo tests read Google's files from <repo>/../shared/data/geo (see its README.md); they are never committed.`,
    );
  return path;
}
