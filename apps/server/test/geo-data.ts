import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The geo targets the tests read: an extract committed in the repository (test/fixtures/geo). */
const FIXTURE_DIR = fileURLToPath(new URL('fixtures/geo', import.meta.url));

/** Rows of `geotargets-extract.csv` per target type (its README says how it was made). */
export const EXTRACT_ROWS_PER_TYPE = {
  Country: 219,
  State: 275,
  Region: 1_165,
  County: 93,
  City: 5_137,
  'Postal Code': 668,
} as const;

/** Rows of `geotargets-extract.csv`. */
export const EXTRACT_ROWS = Object.values(EXTRACT_ROWS_PER_TYPE).reduce((a, b) => a + b, 0);

/** Path of one of the test fixture's geo target files. */
export function geoFixtureFile(
  name: 'geotargets-raw-sample.csv' | 'geotargets-extract.csv',
): string {
  return resolve(FIXTURE_DIR, name);
}
