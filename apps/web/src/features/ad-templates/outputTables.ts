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
  type Table,
} from '@adloom/engine';

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
export function rsaOutputTable(ads: readonly RsaAd[]): Table {
  const h = most(
    ads.map((a) => a.headlines.length),
    RSA_MIN_HEADLINES,
  );
  const d = most(
    ads.map((a) => a.descriptions.length),
    RSA_MIN_DESCRIPTIONS,
  );
  const headers = ['Campaign', 'Ad Group'];
  for (let i = 1; i <= h; i++) headers.push(`Headline ${i}`, `Headline ${i} Position`);
  for (let i = 1; i <= d; i++)
    headers.push(`Description Line ${i}`, `Description Line ${i} Position`);
  headers.push('Path 1', 'Path 2', 'Labels', 'Final URL', 'Ad Type');
  return {
    headers,
    rows: {
      *[Symbol.iterator]() {
        for (const a of ads) {
          const row = [a.campaign, a.adGroup];
          for (let i = 0; i < h; i++)
            row.push(a.headlines[i]?.text ?? '', positionCell(a.headlines[i]?.pos));
          for (let i = 0; i < d; i++)
            row.push(a.descriptions[i]?.text ?? '', positionCell(a.descriptions[i]?.pos));
          row.push(a.paths[0], a.paths[1], a.labels.join(';'), a.finalUrl, RSA_OUTPUT_AD_TYPE);
          yield row;
        }
      },
    },
  };
}

/** Performance Max ads in the spec's columns. */
export function performanceOutputTable(ads: readonly PerformanceMaxAd[]): Table {
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
  const numbered = (name: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${name} ${i + 1}`);
  const headers = [
    'Campaign',
    'Asset Group',
    ...numbered('Headline', h),
    ...numbered('Long Headline', lh),
    ...numbered('Description Line', d),
    'Path 1',
    'Path 2',
    'Business Name',
    'Call To Action',
    'Final URL',
  ];
  const fill = (xs: readonly string[], n: number) =>
    Array.from({ length: n }, (_, i) => xs[i] ?? '');
  return {
    headers,
    rows: {
      *[Symbol.iterator]() {
        for (const a of ads)
          yield [
            a.campaign,
            a.assetGroup,
            ...fill(a.headlines, h),
            ...fill(a.longHeadlines, lh),
            ...fill(a.descriptions, d),
            a.paths[0],
            a.paths[1],
            a.businessName,
            a.callToAction,
            a.finalUrl,
          ];
      },
    },
  };
}
