import { describe, expect, it } from 'vitest';
import { formatCsvText, parseCsv } from './csv.ts';
import {
  criterionType,
  keywordNotation,
  keywordsTable,
  performanceMaxAdsTable,
  responsiveSearchAdCells,
  responsiveSearchAdsTable,
  RSA_HEADERS,
} from './export.ts';
import { rsaLinePlan, writeRsaLine } from './ads/rsaLine.ts';
import { CsvBytes } from './csvBytes.ts';
import type { RsaAd } from './ads/rsa.ts';

describe('Editor export', () => {
  it('writes keywords with Criterion Type, campaign negatives without ad group', () => {
    const text = formatCsvText(
      keywordsTable([
        { campaign: 'C, 1', adGroup: 'G', keyword: 'nike air', matchType: 'Exact' },
        { campaign: 'C, 1', adGroup: '', keyword: 'free', matchType: 'Negative Broad' },
      ]),
    );
    expect(text).toBe(
      'Campaign,Ad Group,Keyword,Criterion Type\r\n"C, 1",G,nike air,Exact\r\n"C, 1",,free,Campaign Negative Broad\r\n',
    );
  });

  it.each([
    ['Broad', 'k'],
    ['Phrase', '"k"'],
    ['Exact', '[k]'],
    ['Negative Broad', '-k'],
    ['Negative Exact', '-[k]'],
  ] as const)('%s notation', (mt, out) => {
    expect(keywordNotation('k', mt)).toBe(out);
    expect(criterionType({ campaign: 'c', adGroup: 'g', keyword: 'k', matchType: mt })).toBe(mt);
  });

  it('writes RSA columns with positions, 15 headlines and 4 descriptions', () => {
    const t = responsiveSearchAdsTable([
      {
        campaign: 'C',
        adGroup: 'G',
        rowId: 'r',
        fallbackIndex: 0,
        headlines: ['H1', 'H2'],
        headlinePositions: [1, 0],
        descriptions: ['D1'],
        descriptionPositions: [2],
        paths: ['p1', ''],
        labels: ['a', 'b'],
        finalUrl: 'https://x.com',
      },
    ]);
    const [header, row] = parseCsv(formatCsvText(t));
    expect(header?.slice(0, 4)).toEqual(['Campaign', 'Ad Group', 'Ad type', 'Headline 1']);
    expect(header).toContain('Headline 15');
    expect(header).toContain('Headline 15 position');
    expect(header).toContain('Description 4 position');
    expect(header?.slice(-4)).toEqual(['Path 1', 'Path 2', 'Final URL', 'Labels']);
    const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
    expect(cell('Ad type')).toBe('Responsive search ad');
    expect(cell('Headline 1 position')).toBe('1');
    expect(cell('Headline 2 position')).toBe('');
    expect(cell('Description 1 position')).toBe('2');
    expect(cell('Labels')).toBe('a;b');
  });

  it('gives the same cells in a reused array as in a new one, whatever it held', () => {
    const ad = (i: number): RsaAd => ({
      campaign: `C${i}`,
      adGroup: `G${i}`,
      rowId: `r${i}`,
      fallbackIndex: 0,
      headlines: [`H${i}`, 'Fixed', 'Other'],
      headlinePositions: [1, 0, 3],
      descriptions: ['D1', `D${i}`],
      descriptionPositions: [0, 2],
      paths: [`p${i}`, ''],
      labels: i % 2 === 0 ? [] : ['a', 'b'],
      finalUrl: `https://x.com/${i}`,
    });
    // A reused array may hold a longer line's cells, or anything else, before.
    const into = Array.from({ length: 80 }, (_, i) => `stale ${i}`);
    for (let i = 0; i < 3; i++) {
      const fresh = responsiveSearchAdCells(ad(i));
      expect(fresh).toHaveLength(RSA_HEADERS.length);
      expect(responsiveSearchAdCells(ad(i), into)).toBe(into);
      expect(into).toEqual(fresh);
    }
    expect(into[RSA_HEADERS.indexOf('Headline 3 position')]).toBe('3');
    expect(into[RSA_HEADERS.indexOf('Labels')]).toBe('');
  });

  it.each([16, 1 << 16])(
    'writes an RSA line from its plan as CsvBytes writes its cells (buffer of %i bytes)',
    (bufferBytes) => {
      const texts = ['H "one"', 'a, b', ' spaced ', 'café 😀', '', 'x'.repeat(40), 'é'.repeat(20)];
      const ad = (i: number, n: number): RsaAd => ({
        campaign: i % 2 === 0 ? 'C, one' : 'C',
        adGroup: `G "${i}"`,
        rowId: `r${i}`,
        fallbackIndex: 0,
        headlines: Array.from({ length: n }, (_, k) => texts[(i + k) % texts.length] as string),
        headlinePositions: Array.from({ length: n }, (_, k) => k % 4),
        descriptions: [texts[i % texts.length] as string, 'Fixed, "quoted"'],
        descriptionPositions: [2, 0],
        paths: [`p${i}`, i % 2 === 0 ? '' : 'deals'],
        labels: i % 2 === 0 ? [] : ['a,b', 'c'],
        finalUrl: `https://x.com/${i}`,
      });
      const run = (write: (csv: CsvBytes) => void): number[] => {
        const out: number[] = [];
        const csv = new CsvBytes((b) => out.push(...b), bufferBytes);
        write(csv);
        csv.end();
        return out;
      };
      // 3, 15 and 16 headlines (the 16th is not written), every other text fixed in the plan.
      for (const n of [3, 15, 16]) {
        for (let i = 0; i < 6; i++) {
          const a = ad(i, n);
          const fixedOrNot = (list: readonly string[]): (string | undefined)[] =>
            list.map((t, k) => ((i + k) % 2 === 0 ? t : undefined));
          const plan = rsaLinePlan({
            headlines: fixedOrNot(a.headlines),
            headlinePositions: a.headlinePositions,
            descriptions: fixedOrNot(a.descriptions),
            descriptionPositions: a.descriptionPositions,
            paths: fixedOrNot(a.paths),
            labels: a.labels,
          });
          const want = run((csv) => csv.line(responsiveSearchAdCells(a)));
          // Twice: the second line must not lean on the first.
          expect(run((csv) => writeRsaLine(csv, plan, a))).toEqual(want);
          expect(
            run((csv) => {
              writeRsaLine(csv, plan, a);
              writeRsaLine(csv, plan, a);
            }),
          ).toEqual([...want, ...want]);
        }
      }
    },
  );

  it('writes asset group columns', () => {
    const t = performanceMaxAdsTable([]);
    expect(t.headers.slice(0, 3)).toEqual(['Campaign', 'Asset Group', 'Headline 1']);
    expect(t.headers).toContain('Long headline 5');
    expect(t.headers).toContain('Business name');
    expect(t.headers).toContain('Call to action');
  });
});

describe('the reference keyword CSV writer', () => {
  it('matches the generic CSV output', async () => {
    const { formatKeywordsCsvReference: formatKeywordsCsv } =
      await import('../test/reference/campaignStructure.ts');
    const lines = [
      { campaign: 'C "1"', adGroup: 'G', keyword: 'a "b"', matchType: 'Exact' as const },
      { campaign: 'C "1"', adGroup: 'G', keyword: '-x', matchType: 'Broad' as const },
      { campaign: 'C', adGroup: '', keyword: 'free', matchType: 'Negative Exact' as const },
    ];
    for (const neutraliseFormulas of [false, true]) {
      expect([...formatKeywordsCsv(lines, { neutraliseFormulas, chunkLines: 2 })].join('')).toBe(
        formatCsvText(keywordsTable(lines), { neutraliseFormulas }),
      );
    }
  });
});
