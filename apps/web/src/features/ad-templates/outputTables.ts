/**
 * The ad outputs as the tabs show them, in the spec's column words (section 2): RSA Headline n
 * and its position, Description Line n and its position, Path 1, Path 2, Labels, Final URL and
 * Ad Type 'Responsive Search Ad'; Performance Max Campaign, Asset Group, Headline n, Long
 * Headline n, Description Line n, Path 1, Path 2, Business Name, Call To Action, Final URL.
 * The Google Ads Editor files use the engine's Editor tables instead.
 */
import {
  PMAX_MIN_DESCRIPTIONS,
  PMAX_MIN_HEADLINES,
  PMAX_MIN_LONG_HEADLINES,
  RSA_MIN_DESCRIPTIONS,
  RSA_MIN_HEADLINES,
  type PerformanceMaxAd,
  type RsaAd,
} from '@adloom/engine';
import type { ColumnSource } from '../output/packTable.ts';

/** The Ad Type shown for responsive search ads. */
export const RSA_OUTPUT_AD_TYPE = 'Responsive Search Ad';

function most(counts: Iterable<number>, least: number): number {
  let n = least;
  for (const c of counts) if (c > n) n = c;
  return n;
}

function positionCell(pos: number | undefined): string {
  return pos !== undefined && pos > 0 ? String(pos) : '';
}

/** RSAs in the spec's columns; as many headline and description columns as the ads use. */
export function rsaOutputColumns(ads: readonly RsaAd[]): ColumnSource {
  const h = most(
    ads.map((a) => a.headlines.length),
    RSA_MIN_HEADLINES,
  );
  const d = most(
    ads.map((a) => a.descriptions.length),
    RSA_MIN_DESCRIPTIONS,
  );
  const columns: [string, (ad: RsaAd) => string][] = [
    ['Campaign', (a) => a.campaign],
    ['Ad Group', (a) => a.adGroup],
  ];
  for (let i = 0; i < h; i++)
    columns.push(
      [`Headline ${i + 1}`, (a) => a.headlines[i] ?? ''],
      [`Headline ${i + 1} Position`, (a) => positionCell(a.headlinePositions[i])],
    );
  for (let i = 0; i < d; i++)
    columns.push(
      [`Description Line ${i + 1}`, (a) => a.descriptions[i] ?? ''],
      [`Description Line ${i + 1} Position`, (a) => positionCell(a.descriptionPositions[i])],
    );
  columns.push(
    ['Path 1', (a) => a.paths[0]],
    ['Path 2', (a) => a.paths[1]],
    ['Labels', (a) => a.labels.join(';')],
    ['Final URL', (a) => a.finalUrl],
    ['Ad Type', () => RSA_OUTPUT_AD_TYPE],
  );
  return columnsOf(ads, columns);
}

/** Performance Max ads in the spec's columns. */
export function performanceOutputColumns(ads: readonly PerformanceMaxAd[]): ColumnSource {
  const h = most(
    ads.map((a) => a.headlines.length),
    PMAX_MIN_HEADLINES,
  );
  const lh = most(
    ads.map((a) => a.longHeadlines.length),
    PMAX_MIN_LONG_HEADLINES,
  );
  const d = most(
    ads.map((a) => a.descriptions.length),
    PMAX_MIN_DESCRIPTIONS,
  );
  const numbered = (
    name: string,
    n: number,
    texts: (ad: PerformanceMaxAd) => readonly string[],
  ): [string, (ad: PerformanceMaxAd) => string][] =>
    Array.from({ length: n }, (_, i) => [`${name} ${i + 1}`, (a) => texts(a)[i] ?? '']);
  return columnsOf(ads, [
    ['Campaign', (a) => a.campaign],
    ['Asset Group', (a) => a.assetGroup],
    ...numbered('Headline', h, (a) => a.headlines),
    ...numbered('Long Headline', lh, (a) => a.longHeadlines),
    ...numbered('Description Line', d, (a) => a.descriptions),
    ['Path 1', (a) => a.paths[0]],
    ['Path 2', (a) => a.paths[1]],
    ['Business Name', (a) => a.businessName],
    ['Call To Action', (a) => a.callToAction],
    ['Final URL', (a) => a.finalUrl],
  ]);
}

/** Columns named with a reader of each ad, as a source for packColumns. */
function columnsOf<T>(ads: readonly T[], columns: [string, (ad: T) => string][]): ColumnSource {
  return {
    headers: columns.map(([header]) => header),
    rowCount: ads.length,
    readers: columns.map(
      ([, read]) =>
        (row: number) =>
          read(ads[row] as T),
    ),
  };
}
