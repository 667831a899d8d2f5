import {
  campaignGroupsOf,
  collectTransferables,
  readPackedCell,
  takeLongStrings,
  type EngineJobContext,
  type PackedTable,
} from '../generation/jobs.ts';
import { testJobContext } from '../generation/testing/jobContext.ts';
import { describe, expect, it } from 'vitest';
import {
  adGroupsTable,
  generateCampaignStructure,
  keywordsTable,
  newCampaignTemplate,
  type CampaignTemplate,
  type FeedRow,
} from '@adloom/engine';
import { generateCampaignJob } from './campaignJobs.ts';

function row(id: string, root: string, mod: string, status = ''): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url: '', status };
}

function context(rows: FeedRow[], positions: number[]): EngineJobContext {
  return testJobContext(rows, { positions });
}

function lines(table: PackedTable): string[] {
  return Array.from({ length: table.rowCount }, (_, r) =>
    table.headers.map((_, c) => readPackedCell(table, r, c)).join(' | '),
  );
}

describe('generateCampaignJob', () => {
  it('packs keywords, negatives, campaigns and the issues with feed row numbers', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      campaign: '{root}',
      adGroup: '{root} {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad', selected: true },
        { keyword: '{root} {mod}', matchType: 'Exact', selected: true },
      ],
    };
    const rows = [row('a', 'Nike', 'Shoes'), row('b', 'Puma', '(new)')];
    const out = await generateCampaignJob({ template }, context(rows, [3, 7]));
    expect(lines(out.keywords)).toEqual([
      'Nike | Nike Broad | nike shoes | Broad',
      'Nike | Nike Exact | nike shoes | Exact',
      'Puma | Puma Broad | puma new | Broad',
      'Puma | Puma Exact | puma new | Exact',
    ]);
    expect(lines(out.negatives)).toEqual([
      'Nike | Nike Broad | nike shoes | Negative Exact',
      'Puma | Puma Broad | puma new | Negative Exact',
    ]);
    expect(out.campaigns.headers).toEqual(['Campaign', 'Campaign Type', 'Budget']);
    expect(lines(out.campaigns)[0]).toBe('Nike | Search | 0.01');
    // The cleaned keyword of the second selected row is feed row 8.
    expect(lines(out.issues)[0]).toMatch(/^8 \| Cleaned \| Removed/);
    expect(out.adGroupCount).toBe(4);
    expect(out.campaignCount).toBe(2);
    // No row paused: no status column; each line names its feed line (grid row number).
    expect(out.keywords.headers).not.toContain('Status');
    expect([...out.keywords.lines!]).toEqual([4, 4, 8, 8]);
    expect([...out.negatives.lines!]).toEqual([4, 8]);
    expect([...out.campaigns.lines!]).toEqual([4, 8]);
    // The ad groups table (Editor's ad groups file, as the command writes it), with feed lines.
    expect(out.adGroups.headers).toEqual(['Campaign', 'Ad Group']);
    expect(lines(out.adGroups)).toEqual([
      'Nike | Nike Broad',
      'Nike | Nike Exact',
      'Puma | Puma Broad',
      'Puma | Puma Exact',
    ]);
    expect([...out.adGroups.lines!]).toEqual([4, 4, 8, 8]);
  });

  it('sends items only paused rows make out Paused, with the status columns and their lines', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      campaign: '{root}',
      adGroup: '{root} {mod}',
      keywords: [{ keyword: '{root} {mod}', matchType: 'Exact', selected: true }],
    };
    const rows = [
      row('a', 'Nike', 'Shoes'),
      row('b', 'Nike', 'Boots', 'paused'),
      row('c', 'Puma', 'Socks', 'Out of stock'),
    ];
    const out = await generateCampaignJob({ template }, context(rows, [0, 4, 9]));
    expect(lines(out.keywords)).toEqual([
      'Nike | Nike Shoes | nike shoes | Exact | Enabled',
      'Nike | Nike Boots | nike boots | Exact | Paused',
      'Puma | Puma Socks | puma socks | Exact | Paused',
    ]);
    expect([...out.keywords.lines!]).toEqual([1, 5, 10]);
    expect(out.campaigns.headers).toContain('Campaign Status');
    const statusColumn = out.campaigns.headers.indexOf('Campaign Status');
    expect(
      Array.from({ length: out.campaigns.rowCount }, (_, r) => [
        readPackedCell(out.campaigns, r, 0),
        readPackedCell(out.campaigns, r, statusColumn),
      ]),
    ).toEqual([
      ['Nike', 'Enabled'],
      ['Puma', 'Paused'],
    ]);
    expect([...out.campaigns.lines!]).toEqual([1, 10]);
    expect(lines(out.adGroups)).toEqual([
      'Nike | Nike Shoes | Enabled',
      'Nike | Nike Boots | Paused',
      'Puma | Puma Socks | Paused',
    ]);
    expect(out.adGroups.headers).toEqual(['Campaign', 'Ad Group', 'Ad Group Status']);
    expect([...out.adGroups.lines!]).toEqual([1, 5, 10]);
  });

  it('writes each location on a row of its own after its campaign, counting campaigns apart', async () => {
    const base = newCampaignTemplate('t');
    const template: CampaignTemplate = {
      ...base,
      campaign: '{root}',
      adGroup: '{root}',
      keywords: [{ keyword: '{root}', matchType: 'Broad', selected: true }],
      settings: { ...base.settings, location: { value: '2826', selected: true } },
    };
    const out = await generateCampaignJob(
      { template },
      context([row('a', 'Nike', ''), row('b', 'Puma', '')], [0, 1]),
    );
    expect(out.campaigns.headers).toEqual(['Campaign', 'Campaign Type', 'Budget', 'Location ID']);
    expect(lines(out.campaigns)).toEqual([
      'Nike | Search | 0.01 | ',
      'Nike |  |  | 2826',
      'Puma | Search | 0.01 | ',
      'Puma |  |  | 2826',
    ]);
    expect(out.campaignCount).toBe(2);
  });

  it('lists cells starting with = + - @ under their grid row, the Editor lines kept as typed', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      campaign: '{root}',
      adGroup: '{root} {mod}',
      keywords: [{ keyword: '{root}', matchType: 'Broad', selected: true }],
    };
    const rows = [row('a', 'Nike', 'x'), row('b', '@home', '-20%'), row('c', 'Puma', '=1')];
    const out = await generateCampaignJob({ template }, context(rows, [1, 16, 52]));
    expect(lines(out.campaigns).map((l) => l.split(' | ')[0])).toContain('@home');
    const warnings = lines(out.issues).filter((l) => l.includes('spreadsheet'));
    expect(warnings.map((l) => l.split(' starts')[0])).toEqual([
      '17 | Warning | Root "@home"',
      '17 | Warning | Modifier "-20%"',
      '53 | Warning | Modifier "=1"',
    ]);
  });

  it('gives a Performance Max template asset groups and no keywords', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      type: 'performance',
      campaign: '{root} PMax',
      assetGroup: '{root} {mod}',
    };
    const out = await generateCampaignJob({ template }, context([row('a', 'Nike', 'Shoes')], [0]));
    expect(lines(out.assetGroups)).toEqual(['Nike PMax | Nike Shoes | Performance Max']);
    expect(out.keywords.rowCount).toBe(0);
    expect(out.adGroups.rowCount).toBe(0);
    expect(out.assetGroupCount).toBe(1);
  });

  it('keeps each ad group name once for both tables, with the engine lines cell for cell', async () => {
    const template: CampaignTemplate = {
      ...newCampaignTemplate('t'),
      campaign: '{root}',
      adGroup: '{root} {mod} {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad', selected: true },
        { keyword: '{mod}', matchType: 'Phrase', selected: true },
        { keyword: 'cheap {mod}', matchType: 'Negative Broad', selected: true },
      ],
    };
    // Rows 1 and 3 make the same ad groups.
    const rows = [
      row('a', 'Nike', 'Air'),
      row('b', 'Puma', 'Suede'),
      row('c', 'Nike', 'Air'),
      row('d', 'Asics', 'Gel'),
    ];
    const engineLines = (t: CampaignTemplate) => {
      const s = generateCampaignStructure({ template: t, rows });
      const text = (ls: typeof s.keywords) =>
        Array.from(keywordsTable(ls).rows, (cells) => [...cells].join(' | '));
      return {
        keywords: text(s.keywords),
        negatives: text(s.negatives),
        adGroups: Array.from(adGroupsTable(s.adGroups).rows, (cells) => [...cells].join(' | ')),
      };
    };
    const ctx = context(rows, [0, 1, 2, 3]);
    const out = await generateCampaignJob({ template }, ctx);
    const want = engineLines(template);
    expect(lines(out.keywords)).toEqual(want.keywords);
    expect(lines(out.negatives)).toEqual(want.negatives);
    expect(lines(out.adGroups)).toEqual(want.adGroups);
    expect(out.adGroups.columns[1]!.texts).toBe(out.keywords.columns[1]!.texts);
    // One list of ad group names: '' and the six groups, each once.
    const shared = out.keywords.columns[1]!;
    expect(out.negatives.columns[1]!.texts).toBe(shared.texts);
    expect(shared.offsets.length - 1).toBe(1 + 6);
    // A copy to the page keeps both tables readable.
    const copied = structuredClone(out);
    expect(lines(copied.negatives)).toEqual(want.negatives);
    // The ad groups kept for the ad jobs read as the engine's, once the output has gone to the
    // page (its arrays moved and changed in place on the way), and as a fresh campaignGroupsOf.
    const fields = (groups: Iterable<{ campaign: string; adGroup: string; id: string }>) =>
      Array.from(groups, (g) => [g.campaign, g.adGroup, g.id]);
    const wantGroups = fields(generateCampaignStructure({ template, rows }).adGroups);
    expect(wantGroups).toHaveLength(6);
    takeLongStrings(out, 1);
    collectTransferables(out).forEach((buffer) => structuredClone(buffer, { transfer: [buffer] }));
    expect(fields(ctx.campaignGroups(template).adGroups)).toEqual(wantGroups);
    expect(ctx.campaignGroups(template).adGroups.length).toBe(6);
    expect(fields(campaignGroupsOf(template, rows).adGroups)).toEqual(wantGroups);

    // Only a negative: its lines are campaign negatives (no ad group).
    const campaignOnly: CampaignTemplate = {
      ...template,
      keywords: [{ keyword: 'cheap {mod}', matchType: 'Negative Broad', selected: true }],
    };
    const flat = await generateCampaignJob({ template: campaignOnly }, ctx);
    const wantFlat = engineLines(campaignOnly);
    expect(wantFlat.negatives.length).toBeGreaterThan(0);
    expect(lines(flat.keywords)).toEqual(wantFlat.keywords);
    expect(lines(flat.negatives)).toEqual(wantFlat.negatives);
  });
});
