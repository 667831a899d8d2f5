import { describe, expect, it } from 'vitest';
import {
  generateResponsiveSearchAds,
  restoreRsaTemplate,
  type FeedRow,
  type RsaTemplate,
} from '@adloom/engine';
import { packColumns, unpackTable } from '../generation/jobs.ts';
import { RsaOutputPacker, rsaOutputColumns } from './outputTables.ts';

function row(id: string, root: string, mod: string): FeedRow {
  return { id, root, mod, var1: 'red', var2: '', var3: '', url: `https://shop.example/${id}` };
}

function cells(table: ReturnType<typeof packColumns>): string[][] {
  return [table.headers, ...Array.from(unpackTable(table).rows, (r) => [...r])];
}

describe('RsaOutputPacker', () => {
  it('packs ads as they come into the same table as packColumns(rsaOutputColumns(ads))', () => {
    // Fallbacks of 8 and 4 headlines, pins, and a row whose repeated headline gets it no ad.
    const template: RsaTemplate = restoreRsaTemplate({
      name: 'T',
      templates: [
        {
          headlines: [
            { text: 'Buy {root} {mod} now today', pos: 1 },
            '{root}',
            '{mod}',
            'Sale',
            'Deals',
            'New in',
            { text: 'Shop', pos: 2 },
            'Top picks',
          ],
          descriptions: ['Shop {root} {mod}.', { text: 'Free delivery.', pos: 1 }, 'Sale on.'],
          paths: ['{mod}', 'sale'],
          labels: ['a', 'yyyymmdd-v1'],
        },
        { headlines: ['{root}', 'Sale', 'Deals', 'Shop'], descriptions: ['d', 'e'], paths: [] },
      ],
    });
    const rows = [
      row('a', 'Nike', 'Air'),
      row('b', 'Sale', 'Boots'), // {root} repeats the static 'Sale' in both fallbacks: no ad
      row('c', 'Emporio Armani Collection', 'X'), // second fallback
    ];
    const adGroups = rows.flatMap((r) => [
      { campaign: `C ${r.root}`, adGroup: `${r.root} Broad`, id: r.id },
      { campaign: `C ${r.root}`, adGroup: `${r.root} Exact`, id: r.id },
    ]);
    const { ads } = generateResponsiveSearchAds({ template, rows, adGroups, today: '20261124' });
    expect(ads.map((a) => [a.rowId, a.headlines.length])).toEqual([
      ['a', 8],
      ['a', 8],
      ['c', 4],
      ['c', 4],
    ]);
    const packer = new RsaOutputPacker(8, 3);
    for (const ad of ads) packer.add(ad);
    const streamed = cells(packer.finish());
    expect(streamed).toEqual(cells(packColumns(rsaOutputColumns(ads))));
    expect(streamed[0]).toContain('Headline 8 Position');
    expect(streamed[1]![streamed[0]!.indexOf('Headline 7 Position')]).toBe('2');
    // Only the second fallback's ads: the columns no ad uses are left out.
    const short = new RsaOutputPacker(8, 3);
    for (const ad of ads.slice(2)) short.add(ad);
    const shortCells = cells(short.finish());
    expect(shortCells).toEqual(cells(packColumns(rsaOutputColumns(ads.slice(2)))));
    expect(shortCells[0]).not.toContain('Headline 5');
  });
});
