import { describe, expect, it } from 'vitest';
import type { RsaAd } from '../ads/rsa.ts';
import { BuildStatus } from '../buildStatus.ts';
import { formatCsvLine, type Table } from '../csv.ts';
import {
  adGroupsTable,
  keywordsTable,
  responsiveSearchAdCells,
  responsiveSearchAdsTable,
} from '../export.ts';
import { IMAGES_NEEDED_FILE_TEXT } from '../notes.ts';
import { addLabel } from '../plan/label.ts';
import type { AdGroupRef, KeywordLine } from '../types.ts';
import {
  exportFileParts,
  type ExportContext,
  type ExportTable,
  type StreamedTableKind,
} from './exportFormat.ts';
import { editorFileStem, GOOGLE_ADS_EDITOR } from './googleAdsEditor.ts';

const KEYWORDS: Table = {
  headers: ['Campaign', 'Ad Group', 'Keyword', 'Criterion Type'],
  rows: [
    ['Shoes', 'Nike', 'nike shoes', 'Broad'],
    ['Shoes', 'Nike, Inc', '-50% sale', 'Exact'],
  ],
};
const CAMPAIGNS: Table = { headers: ['Campaign'], rows: [['Shoes']] };

const plain: ExportContext = { fileName: (stem, extension) => `${stem}.${extension}` };
const text = (parts: Iterable<string>) => [...parts].join('');
const table = (kind: ExportTable['kind'], read: Table, qualifier?: string): ExportTable => ({
  kind,
  read: () => read,
  ...(qualifier ? { qualifier } : {}),
});

describe('GOOGLE_ADS_EDITOR', () => {
  it('makes one CSV per table: BOM, the Editor header, CRLF lines, formulas kept', () => {
    const [file, ...rest] = GOOGLE_ADS_EDITOR.files([table('keywords', KEYWORDS)], plain);
    expect(rest).toEqual([]);
    expect(file!.name).toBe('keywords.csv');
    expect(text(exportFileParts(file!))).toBe(
      '\uFEFFCampaign,Ad Group,Keyword,Criterion Type\r\n' +
        'Shoes,Nike,nike shoes,Broad\r\n' +
        'Shoes,"Nike, Inc",-50% sale,Exact\r\n',
    );
  });

  it('names files by the host, qualifies a taken name, and adds the report and images note last', () => {
    const dated: ExportContext = {
      fileName: (stem, extension) => `Acme - ${stem} - 20261123.${extension}`,
      report: {
        stem: 'skipped and cleaned',
        read: () => ({ headers: ['Reason'], rows: [['=1']] }),
      },
      withNotes: true,
    };
    const files = GOOGLE_ADS_EDITOR.files(
      [
        table('campaigns', CAMPAIGNS, 'performance max'),
        table('asset-groups', CAMPAIGNS),
        table('campaigns', CAMPAIGNS, 'performance max'),
      ],
      dated,
    );
    expect(files.map((f) => f.name)).toEqual([
      'Acme - campaigns - 20261123.csv',
      'Acme - asset groups - 20261123.csv',
      'Acme - performance max campaigns - 20261123.csv',
      'Acme - skipped and cleaned - 20261123.csv',
      'Acme - performance max images needed - 20261123.txt',
    ]);
    expect(text(exportFileParts(files[3]!))).toBe("\uFEFFReason\r\n'=1\r\n");
    expect(text(exportFileParts(files[4]!))).toBe(IMAGES_NEEDED_FILE_TEXT);
    // Without notes asked for, no images note; without tables, nothing at all.
    expect(GOOGLE_ADS_EDITOR.files([table('asset-groups', CAMPAIGNS)], plain)).toHaveLength(1);
    expect(GOOGLE_ADS_EDITOR.files([], dated)).toEqual([]);
  });

  it('reads no table until a file text is asked for', () => {
    const unread = (): Table => {
      throw new Error('read');
    };
    const [file] = GOOGLE_ADS_EDITOR.files([{ kind: 'sitelinks', read: unread }], plain);
    expect(file!.name).toBe('sitelinks.csv');
    expect(() => text(file!.chunks())).toThrow('read');
  });

  it('gives the streamed tables their file stems', () => {
    expect(editorFileStem('responsive-search-ads')).toBe('responsive search ads');
    expect(editorFileStem('ad-groups')).toBe('ad groups');
  });
});

describe('GOOGLE_ADS_EDITOR.stream', () => {
  const LINES: KeywordLine[] = [
    { campaign: 'Shoes', adGroup: 'Nike', keyword: 'nike shoes', matchType: 'Broad' },
    { campaign: 'Shoes', adGroup: 'Nike, Inc', keyword: '-50% sale', matchType: 'Exact' },
    { campaign: 'Shoes', adGroup: '', keyword: 'cheap', matchType: 'Negative Phrase' },
  ];
  const GROUPS: AdGroupRef[] = [
    { campaign: 'Shoes', adGroup: 'Nike', key: '', id: '1' },
    { campaign: 'Shoes "Q4"', adGroup: 'Puma', key: '', id: '2' },
  ];
  const ad = (adGroup: string, labels: string[]): RsaAd => ({
    campaign: 'Shoes',
    adGroup,
    rowId: '1',
    fallbackIndex: 0,
    headlines: ['Nike', 'Free Delivery', 'Shop Now'],
    headlinePositions: [1, 0, 0],
    descriptions: ['Shop nike, today.', 'Fast'],
    descriptionPositions: [0, 0],
    paths: ['nike', ''],
    labels,
    finalUrl: 'https://a.example/1',
  });
  // Some items made by an active row, the others paused.
  const status = new BuildStatus();
  status.add('g', 'shoes', 'nike');
  const LABEL = 'Acme "North", EU';
  const labelled: ExportContext = { ...plain, clientLabel: LABEL };

  /** The whole table's file text, as `files` writes it. */
  const wholeFile = (kind: StreamedTableKind, read: Table, context: ExportContext) => {
    const [file] = GOOGLE_ADS_EDITOR.files([table(kind, read)], context);
    return { name: file!.name, bom: file!.bom, text: text(file!.chunks()) };
  };

  for (const withStatus of [false, true]) {
    const s = withStatus ? status : undefined;
    const streamOf = (kind: StreamedTableKind, context: ExportContext) =>
      GOOGLE_ADS_EDITOR.stream({ kind, ...(s ? { status: s } : {}) }, context);

    it(`writes streamed keywords, negatives and ad groups as the whole tables (status: ${withStatus})`, () => {
      for (const context of [plain, labelled]) {
        for (const kind of ['keywords', 'negatives'] as const) {
          const whole = wholeFile(kind, keywordsTable(LINES, s), context);
          const stream = streamOf(kind, context);
          // The generator's CSV text of the lines (no Labels), cut anywhere, a line break too.
          const made = Array.from(keywordsTable(LINES, s).rows, (r) => formatCsvLine(r)).join('');
          const cuts = [0, 5, made.indexOf('\r') + 1, made.length - 3, made.length];
          let streamed = stream.header;
          for (let i = 1; i < cuts.length; i++)
            streamed += stream.text(made.slice(cuts[i - 1], cuts[i]));
          streamed += stream.end();
          expect({ name: stream.name, bom: stream.bom, text: streamed }).toEqual(whole);
          expect(stream.header).toBe(formatCsvLine(stream.headers));
          expect(stream.itemLabel).toBeUndefined();
        }
        const whole = wholeFile('ad-groups', adGroupsTable(GROUPS, s), context);
        const stream = streamOf('ad-groups', context);
        let streamed = stream.header;
        for (const row of adGroupsTable(GROUPS, s).rows)
          streamed += formatCsvLine(stream.row([...row]));
        expect({ name: stream.name, bom: stream.bom, text: streamed }).toEqual(whole);
      }
      // Keywords take the label in a column of their own; campaign negatives take none.
      expect(streamOf('keywords', labelled).headers.at(-1)).toBe('Labels');
      expect(streamOf('keywords', labelled).addsCells).toBe(true);
      expect(streamOf('negatives', labelled).headers).toEqual(streamOf('negatives', plain).headers);
      expect(streamOf('negatives', labelled).addsCells).toBe(false);
    });

    it(`has the ads carry the label in their own Labels column (status: ${withStatus})`, () => {
      const ads = [ad('Nike', ['sale']), ad('Puma', [])];
      const whole = wholeFile('responsive-search-ads', responsiveSearchAdsTable(ads, s), labelled);
      const stream = streamOf('responsive-search-ads', labelled);
      expect(stream.itemLabel).toBe(LABEL);
      expect(stream.addsCells).toBe(false);
      // The generator labels its ads; each row is its cells, the status cell last.
      let streamed = stream.header;
      for (const a of ads) {
        const cells = responsiveSearchAdCells({
          ...a,
          labels: addLabel(a.labels.join(';'), LABEL).split(';'),
        });
        if (s) cells.push(s.groupPaused(a.campaign, a.adGroup) ? 'Paused' : 'Enabled');
        streamed += formatCsvLine(stream.row(cells));
      }
      expect({ name: stream.name, bom: stream.bom, text: streamed }).toEqual(whole);
      expect(streamOf('responsive-search-ads', plain).itemLabel).toBeUndefined();
    });
  }

  it('names streamed files by the host', () => {
    const dated: ExportContext = { fileName: (stem, extension) => `Acme - ${stem}.${extension}` };
    expect(GOOGLE_ADS_EDITOR.stream({ kind: 'ad-groups' }, dated).name).toBe(
      'Acme - ad groups.csv',
    );
  });
});
