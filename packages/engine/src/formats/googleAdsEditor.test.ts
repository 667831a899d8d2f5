import { describe, expect, it } from 'vitest';
import type { Table } from '../csv.ts';
import { IMAGES_NEEDED_FILE_TEXT } from '../notes.ts';
import { exportFileParts, type ExportContext, type ExportTable } from './exportFormat.ts';
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
