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
import {
  TablePacker,
  Uint32Builder,
  encodeRecord,
  fieldColumn,
  type ColumnSource,
  type PackedTable,
} from '../generation/jobs.ts';

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

/**
 * Packs RSAs in the spec's columns as they are made (see forEachResponsiveSearchAd), so no ad
 * needs to outlive its `add`: the same cells as packColumns(rsaOutputColumns(ads)). The ad groups
 * of one feed row share its ad's texts, so all but Campaign and Ad Group are packed once per
 * such source (`PackedTable.sources`), as one record of fields (`PackedTable.records`): one value
 * per ad instead of one per column. Room is made for `maxHeadlines` and `maxDescriptions`
 * (the most any fallback has); the columns beyond the most any ad used are left out at the end.
 */
export class RsaOutputPacker {
  private readonly names = new TablePacker(['Campaign', 'Ad Group']);
  private readonly texts = new TablePacker(['Record']);
  private readonly headers: string[];
  private readonly record: string[] = [''];
  private readonly sources = new Uint32Builder();
  private sourceCount = 0;
  private readonly nameRow = ['', ''];
  private readonly row: string[];
  private usedHeadlines = RSA_MIN_HEADLINES;
  private usedDescriptions = RSA_MIN_DESCRIPTIONS;
  /** The last ad whose texts were packed. */
  private last: RsaAd | undefined;
  private lastLabels: readonly string[] | undefined;
  private lastLabelsText = '';

  constructor(
    private readonly maxHeadlines: number,
    private readonly maxDescriptions: number,
  ) {
    this.maxHeadlines = Math.max(maxHeadlines, RSA_MIN_HEADLINES);
    this.maxDescriptions = Math.max(maxDescriptions, RSA_MIN_DESCRIPTIONS);
    const headers: string[] = [];
    for (let i = 0; i < this.maxHeadlines; i++)
      headers.push(`Headline ${i + 1}`, `Headline ${i + 1} Position`);
    for (let i = 0; i < this.maxDescriptions; i++)
      headers.push(`Description Line ${i + 1}`, `Description Line ${i + 1} Position`);
    headers.push('Path 1', 'Path 2', 'Labels', 'Final URL', 'Ad Type');
    this.headers = headers;
    this.row = headers.map(() => '');
  }

  add(ad: RsaAd): void {
    this.nameRow[0] = ad.campaign;
    this.nameRow[1] = ad.adGroup;
    this.names.addRow(this.nameRow);
    const last = this.last;
    if (
      last === undefined ||
      ad.headlines !== last.headlines ||
      ad.headlinePositions !== last.headlinePositions ||
      ad.descriptions !== last.descriptions ||
      ad.descriptionPositions !== last.descriptionPositions ||
      ad.paths !== last.paths ||
      ad.labels !== last.labels ||
      ad.finalUrl !== last.finalUrl
    ) {
      this.addTexts(ad);
      this.last = ad;
      this.sourceCount += 1;
    }
    this.sources.push(this.sourceCount - 1);
  }

  private addTexts(ad: RsaAd): void {
    const row = this.row;
    let c = 0;
    for (let i = 0; i < this.maxHeadlines; i++) {
      row[c++] = ad.headlines[i] ?? '';
      row[c++] = positionCell(ad.headlinePositions[i]);
    }
    for (let i = 0; i < this.maxDescriptions; i++) {
      row[c++] = ad.descriptions[i] ?? '';
      row[c++] = positionCell(ad.descriptionPositions[i]);
    }
    row[c++] = ad.paths[0];
    row[c++] = ad.paths[1];
    if (ad.labels !== this.lastLabels) {
      this.lastLabels = ad.labels;
      this.lastLabelsText = ad.labels.join(';');
    }
    row[c++] = this.lastLabelsText;
    row[c++] = ad.finalUrl;
    row[c] = RSA_OUTPUT_AD_TYPE;
    if (ad.headlines.length > this.usedHeadlines) this.usedHeadlines = ad.headlines.length;
    if (ad.descriptions.length > this.usedDescriptions)
      this.usedDescriptions = ad.descriptions.length;
    this.record[0] = encodeRecord(row);
    this.texts.addRow(this.record);
  }

  finish(): PackedTable {
    const names = this.names.finish();
    const texts = this.texts.finish();
    const unused = (header: string): boolean => {
      const m = /^(Headline|Description Line) (\d+)/.exec(header);
      if (!m) return false;
      const n = Number(m[2]);
      return m[1] === 'Headline' ? n > this.usedHeadlines : n > this.usedDescriptions;
    };
    const fields = this.headers.map((h, i) => i).filter((i) => !unused(this.headers[i] ?? ''));
    return {
      headers: [...names.headers, ...fields.map((i) => this.headers[i] as string)],
      rowCount: names.rowCount,
      columns: [...names.columns, ...fields.map((i) => fieldColumn(i, true))],
      sources: this.sources.finish(),
      records: texts.columns[0],
    };
  }
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
