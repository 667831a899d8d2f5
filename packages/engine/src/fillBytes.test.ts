import { describe, expect, it } from 'vitest';
import {
  forEachResponsiveSearchAd,
  writeResponsiveSearchAdLines,
  type GenerateResponsiveSearchAdsInput,
} from './ads/rsa.ts';
import { CsvBytes } from './csvBytes.ts';
import { responsiveSearchAdCells } from './export.ts';
import { patternBytesOf, RowValueBytes } from './fillBytes.ts';
import { compilePattern, type PlaceholderValues } from './text.ts';
import type { FeedRow, RsaTemplate } from './types.ts';

/** The bytes `write` puts into a CsvBytes with a buffer of `bufferBytes`. */
const bytesOf = (write: (csv: CsvBytes) => void, bufferBytes = 1 << 16): string => {
  const out: number[] = [];
  const csv = new CsvBytes((b) => out.push(...b), bufferBytes);
  write(csv);
  csv.end();
  return new TextDecoder().decode(Uint8Array.from(out));
};

const row = (id: string, root: string, mod: string, var1: string): FeedRow => ({
  id,
  root,
  mod,
  var1,
  var2: '',
  var3: '',
  url: `https://x.example/${id}`,
});

describe('filled texts written from their pieces', () => {
  it.each([
    ['{root} Deals', 'nike 0', 'nike 0 Deals'],
    ['Shop {root} in {var1}.', 'Café', 'Shop Café in red.'],
    ['{root}{mod}', 'a', 'ashoes'],
  ])('writes %j for %j as the cell of its text', (source, root, text) => {
    const pattern = compilePattern(source);
    const plan = patternBytesOf(pattern);
    expect(plan).toBeDefined();
    const values: PlaceholderValues = { row: row('1', root, 'shoes', 'red') };
    const got = bytesOf((csv) => {
      expect(new RowValueBytes().writeCell(csv, plan!, values, 1)).toBe(true);
    });
    expect(got).toBe(bytesOf((csv) => csv.cell(text)));
  });

  it('leaves to the whole text the patterns and values whose cell needs more than joining', () => {
    // Quotes, commas and surrogates in the pattern: never joined.
    for (const source of ['{root}, now', 'Say "{root}"', '{root} 😀', 'Fixed'])
      expect(patternBytesOf(compilePattern(source))).toBeUndefined();
    const plan = patternBytesOf(compilePattern('{root} Deals'));
    for (const root of ['a, b', 'say "hi"', 'run 😀']) {
      const values: PlaceholderValues = { row: row('1', root, '', '') };
      expect(bytesOf((csv) => new RowValueBytes().writeCell(csv, plan!, values, 1))).toBe('');
    }
  });

  it('encodes a value again for the next row', () => {
    const plan = patternBytesOf(compilePattern('{root} Deals'))!;
    const writer = new RowValueBytes();
    const got = bytesOf((csv) => {
      writer.writeCell(csv, plan, { row: row('1', 'one', '', '') }, 1);
      writer.writeCell(csv, plan, { row: row('2', 'two', '', '') }, 1);
      writer.writeCell(csv, plan, { row: row('3', 'three', '', '') }, 2);
    });
    expect(got).toBe('one Dealsone Dealsthree Deals');
  });

  /** The line writer's bytes and issues, checked against the ads' cells as CsvBytes writes them. */
  const sameLines = (template: RsaTemplate, rows: FeedRow[]): { csv: string; issues: string } => {
    const input: GenerateResponsiveSearchAdsInput = {
      template,
      rows,
      adGroups: rows.map((r) => ({ campaign: `C ${r.mod}`, adGroup: `G ${r.root}`, id: r.id })),
      today: '20261126',
    };
    const cells: string[] = [];
    let wantIssues: unknown;
    const want = bytesOf((csv) => {
      wantIssues = forEachResponsiveSearchAd(input, (ad) =>
        csv.line(responsiveSearchAdCells(ad, cells)),
      );
    });
    for (const bufferBytes of [64, 1 << 16]) {
      let gotIssues: unknown;
      const got = bytesOf((csv) => {
        gotIssues = writeResponsiveSearchAdLines(input, { csv, ad: () => undefined });
      }, bufferBytes);
      expect(got).toBe(want);
      expect(gotIssues).toEqual(wantIssues);
    }
    return { csv: want, issues: JSON.stringify(wantIssues) };
  };

  it('writes the lines the ads make, for awkward templates and rows', () => {
    const pin = (text: string, pos = 0) => ({ text, pos });
    const template: RsaTemplate = {
      name: 'Awkward',
      templates: [
        {
          headlines: [
            pin('{root}', 1),
            pin('{mod} Sale'),
            pin('{var1} {mod}', 2),
            pin('Shop {root}'),
            pin('Crème {root} été'),
            pin('{root}, now'),
            pin('{ROOT}  Deals '),
            pin('Über {mod}'),
            pin('{mod}'),
          ],
          descriptions: [
            pin('Shop {root} {mod} in {var1}. Free delivery and returns.'),
            pin('Say "{root}" — {mod} in {var1}, today.'),
          ],
          paths: ['{var1}', 'deals'],
          labels: ['x'],
        },
        {
          // Path 2 without path 1: never served.
          headlines: [pin('{root} A'), pin('{root} B'), pin('{root} C')],
          descriptions: [pin('{mod} one'), pin('{mod} two')],
          paths: ['', '{var1}'],
          labels: [],
        },
        {
          headlines: [pin('{root} A'), pin('{root} B'), pin('{root} C')],
          descriptions: [pin('{mod} one'), pin('{mod} two')],
          paths: ['{var1}', ''],
          labels: [],
        },
      ],
    };
    const rows = [
      row('1', 'nike 0', 'running shoes', 'red'),
      row('2', 'Café Crème', 'Straße', 'grün'),
      row('3', 'a, b', 'air', 'blue'),
      row('4', 'say "hi"', 'air', 'blue'),
      row('5', 'run 😀', 'air', 'blue'),
      row('6', 'x'.repeat(40), 'air', 'blue'),
      row('7', '日本語', 'エア', '赤'),
      row('8', 'dup', 'dup', 'dup'),
      row('9', ' padded  root ', 'air', 'blue'),
      row('10', 'Nike', 'Sale', 'red'),
    ];
    const { csv, issues } = sameLines(template, rows);
    expect(csv.split('\r\n').length).toBeGreaterThan(5);
    // Both served fallbacks, and a failure that quotes a filled text.
    expect(csv).toContain('nike 0 running shoes');
    expect(csv).toContain('dup A');
    expect(issues).toContain('characters (max 30): \\"xxxx');
  });

  it('reports a text repeated after substitution as the ads do', () => {
    const pin = (text: string) => ({ text, pos: 0 });
    const template: RsaTemplate = {
      name: 'Repeats',
      templates: [
        {
          headlines: [pin('{root}'), pin('{mod} Sale'), pin('{mod}'), pin('Fixed')],
          descriptions: [pin('{mod} one'), pin('{var1} two')],
          paths: ['{var1}', ''],
          labels: [],
        },
      ],
    };
    const rows = [row('1', 'Dup', 'dup', 'x'), row('2', 'a', 'b', 'c'), row('3', 'é', 'É', 'c')];
    const { csv, issues } = sameLines(template, rows);
    expect(csv).toContain('b Sale');
    expect(issues).toContain('Headline 3 \\"dup\\" repeats headline 1');
    expect(issues).toContain('Headline 3 \\"É\\" repeats headline 1');
  });
});
