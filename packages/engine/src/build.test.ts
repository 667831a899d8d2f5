import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateResponsiveSearchAds } from './ads/rsa.ts';
import { generateBuild, generateRunExtensions } from './build.ts';
import { writeKeywordsCsv } from './campaign.ts';
import { CsvBytes } from './csvBytes.ts';
import { responsiveSearchAdCells } from './export.ts';
import { importCsvRows, withRowIds } from './data.ts';
import { generateExtensions } from './extensions.ts';
import { convertLegacyAdTemplate } from './ads/legacyToRsa.ts';
import {
  restoreAdTemplate,
  restoreCampaignTemplate,
  restoreExtensionTemplate,
  restoreRsaTemplate,
} from './restore.ts';
import type { FeedRow } from './types.ts';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures');
const json = (name: string): unknown => JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));

describe('generateBuild', () => {
  it('makes what the generators make one by one, identical extensions once', () => {
    const imported = importCsvRows(readFileSync(path.join(fixtures, 'feed.csv'), 'utf8'));
    if (!imported.ok) throw new Error(imported.error);
    const rows = withRowIds(imported.rows, (i) => `row-${i + 1}`);
    const campaign = restoreCampaignTemplate(json('campaign.json'));
    const rsa = restoreRsaTemplate(json('rsa.json'));
    const callout = restoreExtensionTemplate(json('callout.json'));
    const today = '20261122';
    const chunks = { keywords: [] as string[], negatives: [] as string[] };
    const build = generateBuild(
      { rows, campaign, rsa, extensions: [callout, callout], today },
      { keywords: (c) => chunks.keywords.push(c), negatives: (c) => chunks.negatives.push(c) },
    );

    const want = { keywords: [] as string[], negatives: [] as string[] };
    const structure = writeKeywordsCsv(
      { template: campaign, rows },
      { keywords: (c) => want.keywords.push(c), negatives: (c) => want.negatives.push(c) },
    );
    expect(chunks).toEqual(want);
    expect(build.keywordLines).toBe(structure.keywordLines);
    // Without its header (an export format writes it), the same lines.
    const lines = { keywords: '', negatives: '' };
    generateBuild(
      { rows, campaign, extensions: [], today },
      {
        hasHeader: false,
        keywords: (c) => (lines.keywords += c),
        negatives: (c) => (lines.negatives += c),
      },
    );
    for (const kind of ['keywords', 'negatives'] as const) {
      const whole = want[kind].join('');
      expect(whole.startsWith('Campaign,Ad Group,Keyword,Criterion Type\r\n')).toBe(true);
      expect(lines[kind]).toBe(whole.slice(whole.indexOf('\n') + 1));
    }
    expect(lines.negatives).not.toBe('');
    const ads = generateResponsiveSearchAds({
      template: rsa,
      rows,
      adGroups: build.adGroups,
      today,
    });
    expect(build.rsaAds).toEqual(ads.ads);
    // With an ad sink the same ads stream out, in order, and none are kept.
    const streamed: unknown[] = [];
    const sunk = generateBuild(
      { rows, campaign, rsa, extensions: [callout, callout], today },
      { keywords: () => undefined, negatives: () => undefined, rsaAd: (ad) => streamed.push(ad) },
    );
    expect(streamed).toEqual(ads.ads);
    expect(sunk.rsaAds).toBeUndefined();
    expect(sunk.issues).toEqual(build.issues);
    const callouts = generateExtensions({ template: callout, rows, campaign });
    expect(callouts.extensions.length).toBeGreaterThan(0);
    expect(build.extensions.get('Callout')).toEqual(callouts.extensions);
    expect(build.issues).toEqual([
      ...structure.issues,
      ...ads.issues,
      ...callouts.issues,
      ...callouts.issues,
    ]);
  });

  it('converts a legacy expanded text ad template into RSAs, reported, beside the RSA template', () => {
    const imported = importCsvRows(readFileSync(path.join(fixtures, 'feed.csv'), 'utf8'));
    if (!imported.ok) throw new Error(imported.error);
    const rows = withRowIds(imported.rows, (i) => `row-${i + 1}`);
    const campaign = restoreCampaignTemplate(json('campaign.json'));
    const rsa = restoreRsaTemplate({ ...(json('rsa.json') as object), name: 'Shoes ETA' });
    const legacy = restoreAdTemplate(json('legacy-ad.json'));
    const today = '20261122';
    const build = generateBuild(
      { rows, campaign, rsa, legacy, extensions: [], today },
      { keywords: () => undefined, negatives: () => undefined },
    );
    const own = generateResponsiveSearchAds({
      template: rsa,
      rows,
      adGroups: build.adGroups,
      today,
    });
    const [converted] = convertLegacyAdTemplate(legacy, ['Shoes ETA']).templates;
    expect(converted!.name).toBe('Shoes ETA (1)');
    const fromLegacy = generateResponsiveSearchAds({
      template: converted!,
      rows,
      adGroups: build.adGroups,
      today,
    });
    expect(fromLegacy.ads.length).toBeGreaterThan(0);
    expect(build.rsaAds).toEqual([...own.ads, ...fromLegacy.ads]);
    expect(build).not.toHaveProperty('legacyAds');
    const reported = build.issues.filter((i) => i.code.startsWith('legacy-'));
    expect(reported.map((i) => [i.kind, i.code, i.rowNumber])).toEqual([
      ['cleaned', 'legacy-converted', 0],
      ['warning', 'legacy-gap', 0],
      ['warning', 'legacy-gap', 0],
    ]);
    expect(reported[0]!.message).toBe(
      'Legacy expanded text ad template "Shoes ETA" converted to the responsive search ad template "Shoes ETA (1)": Google stopped accepting expanded text ads in June 2022',
    );
  });

  it('hands each issue to the issue sink in output order, keeping none', () => {
    // The fixture feed and rows that make keyword and ad issues besides the legacy template's.
    const extra = [
      'Root,Modifier,Var 1,Var 2,Final URL,Notes',
      'Bad URL,Air,Red,,ftp://www.shoes.example/bad,',
      ',,,,,',
      'Nike,Air Max,Red,,https://www.shoes.example/nike/air-max,duplicate',
    ].join('\n');
    const rows = withRowIds(
      [readFileSync(path.join(fixtures, 'feed.csv'), 'utf8'), extra].flatMap((text) => {
        const imported = importCsvRows(text);
        if (!imported.ok) throw new Error(imported.error);
        return imported.rows;
      }),
      (i) => `row-${i + 1}`,
    );
    const input = {
      rows,
      campaign: restoreCampaignTemplate(json('campaign.json')),
      rsa: restoreRsaTemplate({ ...(json('rsa.json') as object), name: 'Shoes ETA' }),
      legacy: restoreAdTemplate(json('legacy-ad.json')),
      extensions: [restoreExtensionTemplate(json('callout.json'))],
      today: '20261122',
    };
    const kept = generateBuild(input, { keywords: () => undefined, negatives: () => undefined });
    const outputs = new Set(kept.issues.map((i) => i.output));
    expect(outputs.size).toBeGreaterThan(1);
    const handed: unknown[] = [];
    const sunk = generateBuild(input, {
      keywords: () => undefined,
      negatives: () => undefined,
      issue: (i) => handed.push(i),
    });
    expect(handed).toEqual(kept.issues);
    expect(sunk.issues).toEqual([]);
  });

  /** The bytes `write` puts into a CsvBytes with a buffer of `bufferBytes`. */
  const bytesOf = (bufferBytes: number, write: (csv: CsvBytes) => void): Uint8Array => {
    const out: number[] = [];
    const csv = new CsvBytes((b) => out.push(...b), bufferBytes);
    write(csv);
    csv.end();
    return Uint8Array.from(out);
  };

  /** The fixture feed's rows and more: quotes, commas, non-ASCII, empty cells, bad URLs. */
  const trickyRows = (): FeedRow[] => {
    const extra = [
      'Root,Modifier,Var 1,Var 2,Final URL,Notes',
      '"Say ""Hi""",Air,Red,,https://www.shoes.example/hi,',
      'Café Crème,Straße,Grün,,https://www.shoes.example/cafe,',
      'Emoji 😀,Sneaker,"Blue, Navy",,https://www.shoes.example/emoji,',
      'Spaced  Root ,Air,Red,,https://www.shoes.example/spaced,',
      'Empty,,Red,,https://www.shoes.example/empty,',
      'Bad URL,Air,Red,,ftp://www.shoes.example/bad,',
      'No URL,Air,Red,,,',
      'Nike,Air Max,Red,,https://www.shoes.example/nike/air-max,duplicate',
      '日本語,エア,赤,,https://www.shoes.example/ja,',
    ].join('\n');
    const rows = [readFileSync(path.join(fixtures, 'feed.csv'), 'utf8'), extra].flatMap((text) => {
      const imported = importCsvRows(text);
      if (!imported.ok) throw new Error(imported.error);
      return imported.rows;
    });
    return withRowIds(rows, (i) => `row-${i + 1}`);
  };

  it.each([64, 1 << 16])(
    "writes through rsaLines the bytes of the ads' lines, a buffer of %i bytes",
    (bufferBytes) => {
      const rows = trickyRows();
      const campaign = restoreCampaignTemplate(json('campaign.json'));
      const rsa = restoreRsaTemplate({ ...(json('rsa.json') as object), name: 'Shoes ETA' });
      const legacy = restoreAdTemplate(json('legacy-ad.json'));
      const today = '20261122';
      const input = { rows, campaign, rsa, legacy, extensions: [], today };
      const build = generateBuild(input, { keywords: () => undefined, negatives: () => undefined });
      const ads = build.rsaAds ?? [];
      expect(new Set(ads.map((a) => a.fallbackIndex))).toEqual(new Set([0, 1]));
      const cells: string[] = [];
      const want = bytesOf(bufferBytes, (csv) => {
        for (const ad of ads) csv.line(responsiveSearchAdCells(ad, cells));
      });
      const rowIds: string[] = [];
      let lines: ReturnType<typeof generateBuild> | undefined;
      const got = bytesOf(bufferBytes, (csv) => {
        lines = generateBuild(input, {
          keywords: () => undefined,
          negatives: () => undefined,
          rsaLines: { csv, ad: (rowId) => rowIds.push(rowId) },
        });
      });
      expect(new TextDecoder().decode(got)).toBe(new TextDecoder().decode(want));
      expect(got).toEqual(want);
      expect(rowIds).toEqual(ads.map((a) => a.rowId));
      expect(lines?.rsaAds).toBeUndefined();
      expect(lines?.issues).toEqual(build.issues);
      // Without a CSV the ads are still made and counted.
      let counted = 0;
      generateBuild(input, {
        keywords: () => undefined,
        negatives: () => undefined,
        rsaLines: { csv: undefined, ad: () => counted++ },
      });
      expect(counted).toBe(ads.length);
    },
  );
});

describe('generateRunExtensions across templates (issue 36)', () => {
  it('keeps each callout text once in a place and at most 20, across the templates of a type', () => {
    const rows: FeedRow[] = [
      {
        id: 'a',
        root: 'nike',
        mod: '',
        var1: '',
        var2: '',
        var3: '',
        url: 'https://www.shop.com/a',
      },
    ];
    const campaign = restoreCampaignTemplate({
      name: 'C',
      campaign: 'Shoes',
      adGroup: '{root}',
      keywords: [{ keyword: '{root}', matchType: 'Broad', selected: true }],
    });
    const callouts = (texts: string[]) =>
      restoreExtensionTemplate({
        name: 'K',
        extensionType: 'Callout',
        attachTo: 'campaign',
        templates: texts.map((t) => ({ 'Callout text': t })),
      });
    // Each template makes one callout a row (its first valid fallback): 25 templates.
    const templates = [
      callouts(['Free Delivery']),
      callouts(['free delivery']),
      ...Array.from({ length: 23 }, (_, i) => callouts([`Offer ${i + 1}`])),
    ];
    const issues: string[] = [];
    const made = generateRunExtensions({ rows, campaign, extensions: templates }, (list) => {
      for (const i of list) issues.push(`${i.code} ${i.rowNumber}: ${i.message}`);
    });
    const texts = made.get('Callout')?.map((e) => e.values['Callout text']);
    expect(texts).toHaveLength(20);
    expect(texts?.slice(0, 2)).toEqual(['Free Delivery', 'Offer 1']);
    expect(issues).toEqual([
      'repeated-asset-text 1: Campaign "Shoes": 1 callout with the callout text "Free Delivery" left out (Google takes each callout text once in a place, ignoring case)',
      'too-many-assets 1: Campaign "Shoes": 4 callouts more left out (Google takes at most 20 callouts in a place)',
    ]);
  });
});
