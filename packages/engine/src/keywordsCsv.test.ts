/**
 * The streaming keyword path (`writeKeywordsCsv`, `forEachKeywordLine` and the object API that
 * collects it) against the plain reference implementation (test/reference) on randomized feeds
 * and templates: the speed-up must not change a byte.
 */
import { describe, expect, it } from 'vitest';
import { pick, random } from '../test/helpers/random.ts';
import { feedRow } from '../test/helpers/rows.ts';
import {
  FEED_COLUMNS,
  forEachKeywordLine,
  generateCampaignStructure,
  restoreCampaignTemplate,
  writeKeywordsCsv,
  type AdGroupRef,
  type CampaignTemplate,
  type CampaignRow,
  type FeedRow,
  type FeedRows,
  type FormatCsvOptions,
  type GenerateCampaignStructureInput,
  type KeywordLine,
  type MatchType,
  MATCH_TYPES,
} from './index.ts';
import { HASH_BASE, hashText, polyHash } from './hash.ts';
import { GroupKeyMaker, NameCells } from './keywords/groupKeys.ts';
import { IntChunks } from './keywords/intLists.ts';
import { powerOf } from './keywords/plans.ts';
import { GroupLineSets, TextKeyTable } from './keywords/textTables.ts';
import {
  formatKeywordsCsvReference as formatKeywordsCsv,
  generateCampaignStructureReference,
} from '../test/reference/campaignStructure.ts';

const VALUES = [
  '',
  '',
  'Nike',
  'nike',
  'Air Max',
  'air  max',
  ' Puma ',
  'red',
  'Red!',
  'blue',
  'x',
  '42',
  'a,b',
  'say "hi"',
  '=SUM(1)',
  '-5',
  '+1',
  '@home',
  'tab\there',
  'Crème brûlée',
  'ΣΟΦΙΑ',
  '東京',
  'ＡＢＣ',
  '{keyword:x}',
  'one two three four five six',
  'seven eight nine ten eleven',
  'a'.repeat(30),
  'b'.repeat(45),
  'line\nbreak',
  '  ',
  '-Puma',
  '+nike +run',
  '- sale',
  't-shirt',
  'NIKE',
  'Cafe\u0301',
  'Café',
  'air\u00a0max',
  'a\u3000b\u3000c\u3000d\u3000e\u3000f',
  'run\u00adning\u200b',
  'men’s “air” – 😀 ™',
  'line\r\nbreak\u0000\u007f',
  'L'.repeat(130),
  '[nike]',
  '"air max"',
  '[crème brûlée ]',
  'adidas -',
  '. / :',
  'h & m',
];

const PIECES = [
  '{root}',
  '{mod}',
  '{var1}',
  '{var2}',
  '{var3}',
  '{const}',
  '{ROOT}',
  '{ Mod }',
  '{root}',
  '{mod}',
  '{mt}',
];
const LITERALS = [
  '',
  ' ',
  ' ',
  ' - ',
  'cheap ',
  ' shoes',
  ',',
  '"q"',
  '!',
  '  ',
  'Buy ',
  '-',
  ' +',
  '[',
  ']',
  ' . ',
];
const MATCH: MatchType[] = [...MATCH_TYPES];

function pattern(next: () => number, maxPieces: number): string {
  let s = pick(next, LITERALS);
  const n = 1 + Math.floor(next() * maxPieces);
  for (let i = 0; i < n; i++) s += pick(next, PIECES) + pick(next, LITERALS);
  return s;
}

export function randomInput(seed: number): {
  input: GenerateCampaignStructureInput;
  options: FormatCsvOptions;
} {
  const next = random(seed);
  // Few distinct values per column, so names and keywords repeat across rows.
  const pool = Array.from({ length: 2 + Math.floor(next() * 6) }, () => pick(next, VALUES));
  const value = (): string => (next() < 0.7 ? pick(next, pool) : pick(next, VALUES));
  const rows: FeedRow[] = Array.from({ length: Math.floor(next() * 60) }, (_, i) => ({
    id: `r${i % 50}`,
    root: value(),
    mod: value(),
    var1: value(),
    var2: next() < 0.3 ? String(Math.floor(next() * 5)) : value(),
    var3: value(),
    url: '',
  }));
  const campaign = next() < 0.15 ? 'Static campaign' : pattern(next, 2);
  let adGroup = next() < 0.1 ? 'Static group' : pattern(next, 2);
  if (next() < 0.6) adGroup += pick(next, [' {mt}', '{MT}', ' - {mt}']);
  const keywords = Array.from({ length: Math.floor(next() * 6) }, () => ({
    keyword: next() < 0.05 ? '   ' : next() < 0.1 ? 'static keyword' : pattern(next, 3),
    matchType: pick(next, MATCH),
    selected: next() < 0.9,
  }));
  const template = restoreCampaignTemplate({
    name: `Random ${seed}`,
    const: pick(next, ['Shoes', '', 'Big  Sale', 'Q"1']),
    campaign,
    adGroup,
    keywords,
    settings: {
      budget: { value: 5, selected: next() < 0.5 },
      location: { value: pick(next, ['2826', '{var1}']), selected: next() < 0.5 },
      isLocationCampaign: next() < 0.2,
      optionalSettings: [{ name: 'Networks', value: '{mod} net', selected: next() < 0.5 }],
      dropBlockingNegatives: next() < 0.5,
      keepKeywordInFirstAdGroup: next() < 0.5,
    },
  });
  const options: FormatCsvOptions = {
    chunkLines: pick(next, [1, 2, 3, 7, 8192]),
    neutraliseFormulas: next() < 0.3,
    newline: next() < 0.5 ? '\r\n' : '\n',
  };
  return { input: { template, rows }, options };
}

function run(
  write: typeof writeKeywordsCsv,
  input: GenerateCampaignStructureInput,
  options: FormatCsvOptions,
) {
  const keywords: string[] = [];
  const negatives: string[] = [];
  const campaigns: CampaignRow[] = [];
  const adGroups: AdGroupRef[] = [];
  const result = write(
    input,
    {
      keywords: (c) => keywords.push(c),
      negatives: (c) => negatives.push(c),
      campaigns: (c) => campaigns.push(c),
      adGroups: (g) => adGroups.push(g),
    },
    options,
  );
  return { keywords, negatives, campaigns, adGroups, result };
}

describe('the streaming keyword path against the reference', () => {
  it('writes the same chunks, counts, issues, campaigns and ad groups on 400 random feeds and templates', () => {
    let lines = 0;
    let negatives = 0;
    let grouped = 0;
    let issues = 0;
    let notation = 0;
    let assetGroups = 0;
    const codes = new Set<string>();
    for (let seed = 1; seed <= 400; seed++) {
      const { input, options } = randomInput(seed);
      const structure = generateCampaignStructureReference(input);
      const fast = run(writeKeywordsCsv, input, options);
      const expected = {
        keywords: [...formatKeywordsCsv(structure.keywords, options)],
        negatives: [...formatKeywordsCsv(structure.negatives, options)],
        campaigns: structure.campaigns,
        adGroups: structure.adGroups,
        result: {
          keywordLines: structure.keywords.length,
          negativeLines: structure.negatives.length,
          issues: structure.issues,
        },
      };
      // Compare as JSON first (cheap), and show the difference with its seed when they differ.
      const want = JSON.stringify(expected);
      const collected = generateCampaignStructure(input);
      if (JSON.stringify(collected) !== JSON.stringify(structure))
        expect({ seed, ...collected }).toEqual({ seed, ...structure });
      // The same feed under a performance template: campaigns and asset groups, no lines.
      const performance = {
        template: {
          ...input.template,
          type: 'performance' as const,
          assetGroup: input.template.adGroup,
        },
        rows: input.rows,
      };
      const wantPerformance = generateCampaignStructureReference(performance);
      const gotPerformance = generateCampaignStructure(performance);
      if (JSON.stringify(gotPerformance) !== JSON.stringify(wantPerformance))
        expect({ seed, ...gotPerformance }).toEqual({ seed, ...wantPerformance });
      const performanceCsv = run(writeKeywordsCsv, performance, options);
      expect(performanceCsv.campaigns).toEqual(wantPerformance.campaigns);
      expect(performanceCsv.keywords).toEqual([...formatKeywordsCsv([], options)]);
      expect(performanceCsv.result.issues).toEqual(wantPerformance.issues);
      assetGroups += wantPerformance.assetGroups.length;
      if (JSON.stringify(fast) !== want) expect({ seed, ...fast }).toEqual({ seed, ...expected });
      // With an issue sink: the same issues, in the same order, none returned.
      const handed: unknown[] = [];
      const sunk = writeKeywordsCsv(
        input,
        { keywords: () => {}, negatives: () => {}, issue: (i) => handed.push(i) },
        options,
      );
      expect(sunk.issues).toEqual([]);
      if (JSON.stringify(handed) !== JSON.stringify(structure.issues))
        expect({ seed, handed }).toEqual({ seed, handed: structure.issues });
      // The same lines as fields, for each template type (performance takes the object path).
      const fields = { keywords: [] as KeywordLine[], negatives: [] as KeywordLine[] };
      const fieldCampaigns: CampaignRow[] = [];
      const fieldGroups: AdGroupRef[] = [];
      // Each group id names one (campaign, ad group) pair, and each pair has one id.
      const pairOfId = new Map<number, string>();
      const idOfPair = new Map<string, number>();
      const groupIdOf = new Map<string, number>();
      const line =
        (to: KeywordLine[]) =>
        (
          campaign: string,
          adGroup: string,
          keyword: string,
          matchType: MatchType,
          groupId?: number,
        ) => {
          to.push({ campaign, adGroup, keyword, matchType });
          if (groupId === undefined || groupId < 0) return;
          const pair = JSON.stringify([campaign, adGroup]);
          if (
            (pairOfId.get(groupId) ?? pair) !== pair ||
            (idOfPair.get(pair) ?? groupId) !== groupId
          )
            expect({ seed, groupId, pair }).toEqual({ seed, groupId, pair: pairOfId.get(groupId) });
          pairOfId.set(groupId, pair);
          idOfPair.set(pair, groupId);
        };
      const counted = forEachKeywordLine(input, {
        keywords: line(fields.keywords),
        negatives: line(fields.negatives),
        campaigns: (c) => fieldCampaigns.push(c),
        adGroups: (g, groupId) => {
          fieldGroups.push(g);
          if (groupId !== undefined)
            groupIdOf.set(JSON.stringify([g.campaign, g.adGroup]), groupId);
        },
      });
      const gotFields = {
        keywords: fields.keywords,
        negatives: fields.negatives,
        campaigns: fieldCampaigns,
        adGroups: fieldGroups,
        result: counted,
      };
      const wantFields = {
        keywords: structure.keywords,
        negatives: structure.negatives,
        campaigns: structure.campaigns,
        adGroups: structure.adGroups,
        result: expected.result,
      };
      if (JSON.stringify(gotFields) !== JSON.stringify(wantFields))
        expect({ seed, ...gotFields }).toEqual({ seed, ...wantFields });
      // An ad group carries the id its lines carry.
      for (const [pair, groupId] of groupIdOf)
        if (idOfPair.has(pair) && idOfPair.get(pair) !== groupId)
          expect({ seed, pair, groupId }).toEqual({ seed, pair, groupId: idOfPair.get(pair) });
      if (input.template.type !== 'performance') grouped += groupIdOf.size;
      lines += structure.keywords.length;
      negatives += structure.negatives.length;
      issues += structure.issues.length;
      notation += structure.issues.filter((i) => i.code === 'match-notation').length;
      for (const i of [...structure.issues, ...wantPerformance.issues]) codes.add(i.code);
    }
    // The random cases must exercise real output, not only empty feeds.
    expect(lines).toBeGreaterThan(2000);
    expect(negatives).toBeGreaterThan(500);
    expect(grouped).toBeGreaterThan(500);
    expect(issues).toBeGreaterThan(200);
    expect(notation).toBeGreaterThan(20);
    expect(assetGroups).toBeGreaterThan(500);
    // Every rule of names, merges and negatives is met on the way.
    for (const code of [
      'campaign-name-variant',
      'ad-group-name-variant',
      'asset-group-name-variant',
      'campaign-name-cleaned',
      'ad-group-name-cleaned',
      'campaign-name-too-long',
      'ad-group-name-too-long',
      'merged-row',
      'duplicate-row',
      'negatives-not-written',
      'campaign-negatives',
      'blocked-keyword',
      'blocking-negative-dropped',
      'other-spaces',
      'invisible-characters',
      'typographic-characters',
    ])
      expect(codes).toContain(code);
    // A generous timeout: the machine is shared; this is no speed check.
  }, 60_000);

  it('keeps duplicates apart across many rows that share names (repeated campaigns and groups)', () => {
    const template = restoreCampaignTemplate({
      name: 'Shared',
      campaign: '{root}',
      adGroup: '{mod} {mt}',
      keywords: [
        { keyword: '{mod} {var1}', matchType: 'Broad' },
        { keyword: '{mod} {var1}', matchType: 'Exact' },
        { keyword: '{var1}', matchType: 'Phrase' },
        { keyword: 'cheap {var1}', matchType: 'Negative Broad' },
      ],
    });
    const rows: FeedRow[] = Array.from({ length: 3000 }, (_, i) =>
      feedRow(`r${i}`, { root: `Brand ${i % 7}`, mod: `Mod ${i % 13}`, var1: `v${i % 17}` }),
    );
    const input = { template, rows };
    const structure = generateCampaignStructureReference(input);
    const fast = run(writeKeywordsCsv, input, {});
    expect(structure.keywords.length).toBeGreaterThan(1000);
    expect(structure.keywords.length).toBeLessThan(3 * rows.length);
    expect(fast.keywords).toEqual([...formatKeywordsCsv(structure.keywords)]);
    expect(fast.negatives).toEqual([...formatKeywordsCsv(structure.negatives)]);
  });
});

describe('writeKeywordsCsv duplicates made different ways', () => {
  it('sees one keyword whether it needed no cleaning, tidying or removing characters', () => {
    const template = restoreCampaignTemplate({
      name: 'Mixed',
      campaign: 'Shoes',
      adGroup: '{mod} {mt}',
      keywords: [
        { keyword: '{root} {var1}', matchType: 'Exact' },
        { keyword: 'cheap {root}', matchType: 'Negative Exact' },
      ],
    });
    const rows: FeedRow[] = ['Nike', 'NIKE  ', 'Nike!', 'nike', ' Nike', 'Nïke'].map((root, i) =>
      feedRow(`r${i}`, { root, mod: 'Run', var1: i % 2 ? 'AIR' : 'air' }),
    );
    const input = { template, rows };
    const structure = generateCampaignStructureReference(input);
    const fast = run(writeKeywordsCsv, input, {});
    expect(structure.keywords.map((l) => l.keyword)).toEqual(['nike air', 'nïke air']);
    expect(fast.keywords).toEqual([...formatKeywordsCsv(structure.keywords)]);
    expect(fast.negatives).toEqual([...formatKeywordsCsv(structure.negatives)]);
  });
});

describe('writeKeywordsCsv first row', () => {
  it('fills a first row whose values are empty as the reference does (its facts start as those of an empty value)', () => {
    const template = restoreCampaignTemplate({
      name: 'Empty start',
      campaign: 'Shoes {var1}',
      adGroup: '{root} {mod}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{mod} {var1}', matchType: 'Phrase' },
        { keyword: '{root} cheap', matchType: 'Negative Broad' },
      ],
    });
    const rows: FeedRow[] = [
      feedRow('r0', { root: '', mod: '', var1: '' }),
      feedRow('r1', { root: '', mod: 'Run', var1: '' }),
      feedRow('r2', { root: 'nike', mod: '', var1: 'red' }),
      feedRow('r3', { root: 'nike', mod: 'Run', var1: '' }),
    ];
    for (const list of [rows, rows.slice(1), rows.slice(2)]) {
      const input = { template, rows: list };
      const structure = generateCampaignStructureReference(input);
      const fast = run(writeKeywordsCsv, input, { chunkLines: 1 });
      expect(fast.keywords).toEqual([...formatKeywordsCsv(structure.keywords, { chunkLines: 1 })]);
      expect(fast.negatives).toEqual([
        ...formatKeywordsCsv(structure.negatives, { chunkLines: 1 }),
      ]);
      expect(fast.adGroups.map((g) => g.adGroup)).toEqual(structure.adGroups.map((g) => g.adGroup));
    }
  });
});

describe('writeKeywordsCsv Negative Exact lines', () => {
  it('orders Exact-made negatives after pattern negatives that equal them, as the reference does', () => {
    const template = restoreCampaignTemplate({
      name: 'Negatives',
      campaign: 'Shoes',
      adGroup: '{mod} {mt}',
      keywords: [
        { keyword: '{root} {var1}', matchType: 'Broad' },
        { keyword: '{root}', matchType: 'Exact' },
        { keyword: '{var1}', matchType: 'Negative Exact' },
      ],
    });
    const rows: FeedRow[] = ['nike', 'puma', 'nike', 'asics', '', 'puma'].map((root, i) =>
      feedRow(`r${i}`, {
        root,
        mod: i % 2 ? 'Run' : 'Walk',
        var1: i === 3 ? 'nike' : i === 5 ? '' : 'puma',
      }),
    );
    for (const list of [rows, [...rows].reverse()]) {
      const input = { template, rows: list };
      const structure = generateCampaignStructureReference(input);
      const fast = run(writeKeywordsCsv, input, { chunkLines: 2 });
      expect(structure.negatives.length).toBeGreaterThan(3);
      expect(fast.negatives).toEqual([
        ...formatKeywordsCsv(structure.negatives, { chunkLines: 2 }),
      ]);
      expect(fast.keywords).toEqual([...formatKeywordsCsv(structure.keywords, { chunkLines: 2 })]);
    }
  });
});

describe('writeKeywordsCsv issue sink', () => {
  it('hands each row issue over before later rows are read, the blocking reports after every row issue', () => {
    const template = restoreCampaignTemplate({
      name: 'Blocked',
      campaign: 'Shoes',
      adGroup: '{root} {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{root} {mod}', matchType: 'Exact' },
        { keyword: '{root} {mod}', matchType: 'Negative Exact' },
      ],
    });
    // Each row's Exact keyword is blocked by its Negative Exact; rows 1 and 4 also lose a
    // character their keywords reject.
    const mods = ['m0', 'm1!', 'm2', 'm3', 'm4!', 'm5'];
    const rows = mods.map((mod, i) => feedRow(`r${i}`, { root: `shoe${i}`, mod }));
    const events: string[] = [];
    const handed: unknown[] = [];
    const result = writeKeywordsCsv(
      { template, rows },
      {
        keywords: (c) => events.push(`k ${c}`),
        negatives: () => {},
        issue: (i) => {
          handed.push(i);
          events.push(`i ${i.code} ${i.rowNumber}`);
        },
      },
      { chunkLines: 1 },
    );
    const reference = generateCampaignStructureReference({ template, rows });
    expect(result.issues).toEqual([]);
    expect(handed).toEqual(reference.issues);
    const codes = reference.issues.map((i) => i.code);
    expect(codes.filter((c) => c === 'blocked-keyword')).toHaveLength(rows.length);
    // Row 2's issue is handed over before the last row's keywords are written.
    const rowIssue = events.findIndex((e) => e.startsWith('i ') && e.endsWith(' 2'));
    expect(rowIssue).toBeGreaterThanOrEqual(0);
    expect(rowIssue).toBeLessThan(events.findIndex((e) => e.includes('shoe5 m5')));
    // Without the sink: the same issues, returned.
    const returned = writeKeywordsCsv(
      { template, rows },
      { keywords: () => {}, negatives: () => {} },
      { chunkLines: 1 },
    );
    expect(returned.issues).toEqual(reference.issues);
  });
});

describe('writeKeywordsCsv blocking checks of big ad groups', () => {
  /**
   * Rows in a few big ad groups ({mod}), with template negatives of both match types that block
   * some of their group's keywords (of their own row or of others) and not others. `sorted`: the
   * rows of a group come together, else the groups interleave (each row another group).
   */
  function bigGroups(seed: number, sorted: boolean, drop: boolean): GenerateCampaignStructureInput {
    const next = random(seed);
    const words = ['nike', 'puma', 'air', 'max', 'red', 'run', 'cheap', 'shoe', 'trail'];
    const phrase = (n: number): string =>
      Array.from({ length: n }, () => pick(next, words)).join(' ');
    const mods = ['alpha', 'beta', 'gamma'];
    // Values shared by a few rows only, so that few keywords are blocked (each is reported).
    const rows: FeedRow[] = Array.from({ length: 300 }, (_, i) =>
      feedRow(`r${i}`, {
        root: `${pick(next, words)} ${i % 7}`,
        mod: sorted ? (mods[Math.floor((3 * i) / 300)] as string) : pick(next, mods),
        var1: next() < 0.1 ? phrase(1 + Math.floor(next() * 2)) : `v${i}`,
        var2: next() < 0.2 ? pick(next, words) : `w${i}`,
        var3: next() < 0.3 ? `${pick(next, words)} ${i % 7} ${pick(next, words)}` : `x${i}`,
      }),
    );
    const template = restoreCampaignTemplate({
      name: 'Big groups',
      campaign: 'Shoes',
      adGroup: '{mod}',
      keywords: [
        { keyword: '{root} {var1}', matchType: 'Broad' },
        { keyword: '{root} {var1}', matchType: 'Exact' },
        { keyword: '{root} {var2}', matchType: 'Phrase' },
        { keyword: '{var2} cheap', matchType: 'Negative Broad' },
        { keyword: '{var1}', matchType: 'Negative Broad' },
        { keyword: '{var2} {var1}', matchType: 'Negative Broad' },
        { keyword: '{var3}', matchType: 'Negative Exact' },
        { keyword: '{root} {var2}', matchType: 'Negative Exact' },
      ],
      settings: { dropBlockingNegatives: drop },
    });
    return { template, rows };
  }

  it('writes and reports as the reference, finds in the same order, with drop on and off, groups interleaved or together', () => {
    for (const sorted of [false, true]) {
      for (const drop of [false, true]) {
        {
          const seed = 1;
          const input = bigGroups(seed, sorted, drop);
          const structure = generateCampaignStructureReference(input);
          const options: FormatCsvOptions = { chunkLines: 64 };
          const fast = run(writeKeywordsCsv, input, options);
          const label = { sorted, drop, seed };
          expect({ ...label, negatives: fast.negatives }).toEqual({
            ...label,
            negatives: [...formatKeywordsCsv(structure.negatives, options)],
          });
          expect({ ...label, keywords: fast.keywords }).toEqual({
            ...label,
            keywords: [...formatKeywordsCsv(structure.keywords, options)],
          });
          expect({ ...label, issues: fast.result.issues }).toEqual({
            ...label,
            issues: structure.issues,
          });
          // Each match type of negative both blocks and is written.
          const code = drop ? 'blocking-negative-dropped' : 'blocked-keyword';
          const finds = structure.issues.filter((i) => i.code === code);
          for (const mt of ['Negative Broad', 'Negative Exact'] as const) {
            expect(finds.some((i) => i.message.includes(`${mt} "`))).toBe(true);
            expect(structure.negatives.some((l) => l.matchType === mt)).toBe(true);
          }
          // Big groups: more than a hundred keywords each.
          expect(structure.keywords.length).toBeGreaterThan(3 * 200);
        }
      }
    }
    // A generous timeout: the machine is shared; this is no speed check.
  }, 60_000);
});

describe('writeKeywordsCsv closing {mt} groups', () => {
  it('writes the negatives of a group no later row names (nor its siblings) before the feed ends', () => {
    const template = restoreCampaignTemplate({
      name: 'Match types',
      campaign: 'Shoes',
      adGroup: '{root} {mt}',
      keywords: [
        { keyword: '{root} {mod}', matchType: 'Broad' },
        { keyword: '{root} {mod}', matchType: 'Exact' },
        { keyword: '{root} cheap', matchType: 'Negative Broad' },
        { keyword: '{root} {mod}', matchType: 'Negative Exact' },
      ],
    });
    // Row 2 names row 0's groups again (they stay open until then); the others are the last
    // rows to name theirs.
    const rows: FeedRow[] = ['nike', 'puma', 'nike', 'asics', 'adidas', 'vans', 'puma'].map(
      (root, i) => feedRow(`r${i}`, { root, mod: `m${i}` }),
    );
    // Keyword and negative chunks (one line each) in the order they come.
    const events: string[] = [];
    writeKeywordsCsv(
      { template, rows },
      { keywords: (c) => events.push(`k ${c}`), negatives: (c) => events.push(`n ${c}`) },
      { chunkLines: 1 },
    );
    const structure = generateCampaignStructureReference({ template, rows });
    const negatives = events.filter((e) => e.startsWith('n ')).map((e) => e.slice(2));
    expect(negatives).toEqual([...formatKeywordsCsv(structure.negatives, { chunkLines: 1 })]);
    // Row 0's groups' negatives come once row 2 is read, and before the last row's keywords.
    const firstNegative = events.findIndex((e) => e.startsWith('n ') && e.includes('nike cheap'));
    expect(firstNegative).toBeGreaterThan(events.findIndex((e) => e.includes('nike m2')));
    expect(firstNegative).toBeLessThan(events.findIndex((e) => e.includes('puma m6')));
  });

  it('keeps a group open for a later row that names it under another match type, as the reference', () => {
    const template = restoreCampaignTemplate({
      name: 'Match types',
      campaign: 'Shoes',
      adGroup: '{root} {mt} {mod}',
      keywords: [
        { keyword: '{var1}', matchType: 'Broad' },
        { keyword: '{root} {mod}', matchType: 'Exact' },
        { keyword: '{root}', matchType: 'Phrase' },
        { keyword: '{var1}', matchType: 'Negative Broad' },
        { keyword: '{root} {mod}', matchType: 'Negative Exact' },
      ],
    });
    // Row 0's Broad group "a Exact Broad x" is row 2's Exact group; rows 1 and 3 have no Broad
    // keyword (empty var1), so their Exact keywords go to a Broad group another row made.
    const values = [
      { root: 'a Exact', mod: 'x', var1: 'one' },
      { root: 'b', mod: 'y', var1: '' },
      { root: 'a', mod: 'Broad x', var1: 'two' },
      { root: 'b', mod: 'y', var1: 'three' },
      { root: 'b', mod: 'y', var1: '' },
      { root: 'a exact', mod: 'X', var1: 'one' },
    ];
    const rows = values.map((v, i) => feedRow(`r${i}`, v));
    for (const list of [rows, [...rows].reverse(), [rows[1], rows[0], rows[4], rows[2], rows[3]]]) {
      const input = { template, rows: list as FeedRow[] };
      const structure = generateCampaignStructureReference(input);
      const fast = run(writeKeywordsCsv, input, { chunkLines: 3 });
      expect(fast.negatives).toEqual([
        ...formatKeywordsCsv(structure.negatives, { chunkLines: 3 }),
      ]);
      expect(fast.keywords).toEqual([...formatKeywordsCsv(structure.keywords, { chunkLines: 3 })]);
      expect(fast.result.issues).toEqual(structure.issues);
    }
  });
});

describe('GroupKeyMaker', () => {
  const template = restoreCampaignTemplate({
    name: 'Keys',
    campaign: 'Shoes {var1}',
    adGroup: '{root} {mod}',
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Exact' },
      { keyword: '{root} cheap', matchType: 'Negative Broad' },
    ],
  });
  const values = [
    { root: 'nike', mod: 'air', var1: 'uk' },
    { root: 'NIKE', mod: 'Air', var1: 'UK' },
    { root: '', mod: '', var1: 'uk' },
    { root: 'x'.repeat(200), mod: 'y'.repeat(100), var1: 'uk' },
    { root: 'Café', mod: 'crème', var1: 'fr' },
    { root: 'nike', mod: 'air', var1: 'de' },
    { root: 'café', mod: 'CRÈME', var1: 'fr' },
    { root: 'puma', mod: 'suede', var1: 'uk' },
  ];
  const rows = values.map((v, i) => feedRow(`r${i}`, v));
  const keyed = (ranges: Array<[number, number]>) => {
    const out = { keys: new Int32Array(rows.length), named: new Uint8Array(rows.length) };
    for (const [from, to] of ranges) new GroupKeyMaker(template).fill(rows, from, to, out);
    return out;
  };

  it('keys rows alike in any ranges: one key a campaign and ad group, none for a skipped name', () => {
    const whole = keyed([[0, rows.length]]);
    expect(
      keyed([
        [5, 8],
        [0, 3],
        [3, 5],
      ]),
    ).toEqual(whole);
    expect([...whole.named]).toEqual([1, 1, 0, 0, 1, 1, 1, 1]);
    expect(whole.keys[1]).toBe(whole.keys[0]);
    expect(whole.keys[6]).toBe(whole.keys[4]);
    expect(new Set([0, 4, 5, 7].map((r) => whole.keys[r])).size).toBe(4);
    expect(GroupKeyMaker.usesGroupKeys(template)).toBe(true);
    expect(GroupKeyMaker.usesGroupKeys({ ...template, adGroup: '{root} {mt}' })).toBe(false);
  });

  it('gives the keyword step the keys it makes itself: the same chunks in the same order', () => {
    const events = (groupKeys?: ReturnType<typeof keyed>) => {
      const seen: string[] = [];
      writeKeywordsCsv(
        { template, rows, groupKeys },
        { keywords: (c) => seen.push(`k ${c}`), negatives: (c) => seen.push(`n ${c}`) },
        { chunkLines: 1 },
      );
      return seen;
    };
    const made = events();
    expect(made.some((e) => e.startsWith('n '))).toBe(true);
    expect(
      events(
        keyed([
          [4, 8],
          [0, 4],
        ]),
      ),
    ).toEqual(made);
  });
});

/**
 * `rows` in a store that, as the command line's packed rows, gives an ASCII row's cells as bytes
 * (`FeedRows.asciiCells`), at an offset in a larger buffer. `made` lists the rows made with `at`.
 */
function byteStore(rows: FeedRow[]): FeedRows & { made: number[] } {
  const made: number[] = [];
  return {
    made,
    length: rows.length,
    at(index) {
      made.push(index);
      return rows[index];
    },
    asciiCells(index, bounds) {
      const row = rows[index];
      const text = row ? FEED_COLUMNS.map((c) => row[c]).join('') : '';
      if (!row || [...text].some((c) => c.charCodeAt(0) >= 128)) return undefined;
      const offset = 5 + index;
      const bytes = new Uint8Array(offset + text.length + 3).fill(88);
      for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
      let at = offset;
      FEED_COLUMNS.forEach((c, i) => {
        bounds[i] = at;
        at += (row[c] ?? '').length;
      });
      bounds[FEED_COLUMNS.length] = at;
      return bytes;
    },
  };
}

describe('GroupKeyMaker from the bytes of ASCII rows', () => {
  const keysOf = (template: CampaignTemplate, rows: FeedRows) => {
    const out = { keys: new Int32Array(rows.length), named: new Uint8Array(rows.length) };
    new GroupKeyMaker(template).fill(rows, 0, rows.length, out);
    return out;
  };
  const template = restoreCampaignTemplate({
    name: 'Bytes',
    const: 'Shoes',
    campaign: '{const} {var1}',
    adGroup: '{root} - {mod}',
    keywords: [{ keyword: '{root} {mod}', matchType: 'Exact' }],
  });

  it('keys names that differ only in case or spacing as one group, without making tidy rows', () => {
    const rows = [
      feedRow('0', { root: 'nike', mod: 'air max', var1: 'uk' }),
      feedRow('1', { root: 'NIKE', mod: 'Air MAX', var1: 'UK' }),
      feedRow('2', { root: 'nike ', mod: 'air max', var1: 'uk' }),
      feedRow('3', { root: 'Nike', mod: 'air\tmax', var1: 'uk' }),
      feedRow('4', { root: 'nike', mod: 'air max', var1: 'uk', var2: 'Straße' }),
      feedRow('5', { root: 'nike', mod: 'air max', var1: 'de' }),
      feedRow('6', { root: 'nike', mod: 'airmax', var1: 'uk' }),
      feedRow('7', { root: 'nike -', mod: 'air max', var1: 'uk' }),
      feedRow('8', { root: 'x'.repeat(200), mod: 'y'.repeat(100), var1: 'uk' }),
      feedRow('9', { root: '', mod: '', var1: 'uk' }),
      feedRow('10', { root: 'nike', mod: 'air max', var1: ' uk' }),
      feedRow('11', { root: 'nike', mod: 'air  max', var1: 'uk' }),
    ];
    const store = byteStore(rows);
    const fromBytes = keysOf(template, store);
    expect(fromBytes).toEqual(keysOf(template, rows));
    // Only rows whose names need cleaning, or that are not ASCII, are made.
    expect(store.made).toEqual([2, 3, 4, 8, 9, 10, 11]);
    const { keys, named } = fromBytes;
    // Row 9's names are 'Shoes uk' and '-'.
    expect([...named]).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1]);
    for (const r of [1, 2, 3, 4, 10, 11]) expect(keys[r], `row ${r}`).toBe(keys[0]);
    expect(new Set([0, 5, 6, 7].map((r) => keys[r])).size).toBe(4);
  });

  it('keys fixed names, {const} and {url} as rows made would', () => {
    const rows = [
      feedRow('0', { root: 'a', url: 'https://x.example/a' }),
      feedRow('1', { root: 'A', url: 'HTTPS://X.example/A' }),
      feedRow('2', { root: 'b', url: '' }),
      feedRow('3', { root: 'b', url: 'https://x.example/é' }),
    ];
    const templates = [
      { campaign: 'Static  Campaign', adGroup: '{url}' },
      { campaign: '{const}', adGroup: '{root} {url}' },
      { campaign: '{const}', adGroup: '{root}', const: ' Big  Sale' },
      { campaign: '{const} {root}', adGroup: '{root}', const: '' },
      { campaign: '   ', adGroup: '{root}' },
    ];
    for (const t of templates) {
      const made = restoreCampaignTemplate({ ...template, ...t });
      const store = byteStore(rows);
      expect(keysOf(made, store), JSON.stringify(t)).toEqual(keysOf(made, rows));
    }
    const store = byteStore(rows);
    const { keys } = keysOf(restoreCampaignTemplate({ ...template, ...templates[0] }), store);
    expect(keys[1]).toBe(keys[0]);
    expect(store.made).toEqual([2, 3]);
  });

  it("keys a {mt} template's groups per match type as rows made would", () => {
    const mtTemplate = restoreCampaignTemplate({ ...template, adGroup: '{root} {mt}' });
    const rows = [
      feedRow('0', { root: 'Nike', var1: 'uk' }),
      feedRow('1', { root: 'nike', var1: 'UK' }),
      feedRow('2', { root: 'nike  ', var1: 'uk' }),
      feedRow('3', { root: 'x'.repeat(250), var1: 'uk' }),
    ];
    const hashes = (source: FeedRows, mts: number[]) => {
      const maker = new GroupKeyMaker(mtTemplate);
      return rows.map((_, r) => {
        maker.measureAt(source, r);
        return [maker.campaignHash(), ...mts.map((mt) => maker.groupHash(mt))];
      });
    };
    const store = byteStore(rows);
    const fromBytes = hashes(store, [0, 1, 2]);
    expect(fromBytes).toEqual(hashes(rows, [0, 1, 2]));
    // Row 2 needs tidying; row 3's groups are too long (its campaign is keyed from its bytes).
    expect(store.made).toEqual([2, 3]);
    expect(new Set(fromBytes[0]?.slice(1)).size).toBe(3);
    expect(fromBytes[1]).toEqual(fromBytes[0]);
    expect(fromBytes[2]).toEqual(fromBytes[0]);
    expect(fromBytes[3]).toEqual([fromBytes[0]?.[0], undefined, undefined, undefined]);
    // With {mt} as none the group name is made the general way.
    expect(hashes(byteStore(rows), [-1, 2])).toEqual(hashes(rows, [-1, 2]));
  });

  it("tells two rows' names alike from their cells only when that is sure", () => {
    const cells = (campaign: string, adGroup: string, constant = 'Shoes') =>
      new NameCells({ campaign, adGroup, const: constant });
    const rows = [
      feedRow('0', { root: 'Nike', mod: 'Air  Max', var1: 'UK', var2: 'a' }),
      feedRow('1', { root: 'nIKE', mod: 'aIR  mAX', var1: 'uk', var2: 'b' }),
      feedRow('2', { root: 'nike', mod: 'air max', var1: 'uk' }),
      feedRow('3', { root: 'Nike', mod: 'Air  Max', var1: 'UK', var3: 'é' }),
      feedRow('4', { root: 'Nike', mod: 'Air  Max', var1: 'UK[' }),
      feedRow('5', { root: 'Nike', mod: 'Air  Max', var1: 'UK{' }),
    ];
    const store = byteStore(rows);
    const plain = cells('{const} {var1}', '{root} {mod}');
    expect(plain.same(store, 0, 1)).toBe(true);
    // Other cells, a non-ASCII row, '[' and '{' (not letters a case apart): not known.
    for (const b of [2, 3, 4, 5]) expect(plain.same(store, 0, b), `row ${b}`).toBe(false);
    expect(plain.same(store, 4, 5)).toBe(false);
    expect(plain.same(rows, 0, 1)).toBe(false);
    expect(cells('{var2}', '{root}').same(store, 0, 1)).toBe(false);
    // A non-ASCII frame or {const}: 'J' and 'j' before a combining caron are not one name.
    expect(cells('{const}', '{root}\u030c').same(store, 0, 1)).toBe(false);
    expect(cells('{const}', '{root}', 'Schuhe ü').same(store, 0, 1)).toBe(false);
    expect(cells('{var1}', '{root}', 'Schuhe ü').same(store, 0, 1)).toBe(true);
  });

  it('makes the same keys and lines as rows made on 150 random feeds, three templates each', () => {
    let fromBytes = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const { input, options } = randomInput(seed);
      const rows = input.rows as FeedRow[];
      // The random template, and two whose names are tidy when their cells are (and which write
      // no location: a row's location is read from the made row, see GroupKeyMaker).
      const settings = { ...input.template.settings, isLocationCampaign: false };
      settings.location = { value: '', selected: false };
      const tidy = (adGroup: string) =>
        restoreCampaignTemplate({ ...input.template, campaign: 'C {var2}', adGroup, settings });
      for (const t of [input.template, tidy('{root} {mod}'), tidy('{mt}: {root}')]) {
        const store = byteStore(rows);
        expect(keysOf(t, store), `seed ${seed}`).toEqual(keysOf(t, rows));
        fromBytes += rows.length - new Set(store.made).size;
        const given = { ...input, template: t };
        expect(run(writeKeywordsCsv, { ...given, rows: byteStore(rows) }, options)).toEqual(
          run(writeKeywordsCsv, given, options),
        );
      }
    }
    expect(fromBytes).toBeGreaterThan(500);
  }, 60_000);
});

describe('IntChunks', () => {
  it('reads back every value pushed, across chunks', () => {
    const list = new IntChunks();
    for (let i = 0; i < 200_000; i++) list.push(i * 7 - 3);
    expect(list.length).toBe(200_000);
    for (const i of [0, 1, 65_535, 65_536, 131_072, 199_999]) expect(list.at(i)).toBe(i * 7 - 3);
  });
});

describe('TextKeyTable', () => {
  it('tells texts apart when every hash collides, by making the first text again', () => {
    const texts = ['a', 'b', 'a', 'c', 'b', 'd', 'a'];
    let remade = 0;
    const table = new TextKeyTable((row) => {
      remade++;
      return texts[row] as string;
    }, 2);
    const ids = texts.map((t, row) => table.findOrAdd(7, 1, 2, t, row, 0));
    expect(ids).toEqual([0, 1, 0, 2, 1, 3, 0]);
    expect(table.size).toBe(4);
    expect(remade).toBeGreaterThan(0);
    expect(table.find(7, 1, 2, 'c', 99, 0)).toBe(2);
    expect(table.find(7, 1, 2, 'e', 99, 0)).toBe(-1);
    // Another key (a, b) is another set.
    expect(table.find(7, 1, 3, 'a', 99, 0)).toBe(-1);
  });

  it('tells apart texts of one row made by different patterns when their hashes collide', () => {
    const made = [
      ['x', 'y', 'x'],
      ['y', 'z', 'x'],
    ];
    const table = new TextKeyTable((row, pattern) => made[row]?.[pattern] as string, 2);
    const ids: number[] = [];
    for (let row = 0; row < made.length; row++)
      for (let pattern = 0; pattern < 3; pattern++)
        ids.push(table.findOrAdd(1, 0, 0, made[row]?.[pattern] as string, row, pattern));
    expect(ids).toEqual([0, 1, 0, 1, 2, 0]);
  });

  it('finds every entry left after removals that break probe runs, and gives removed numbers to new entries', () => {
    const texts = Array.from({ length: 40 }, (_, n) => `k${n}`);
    // Few distinct hashes, some next to each other: long probe runs that wrap around the slots.
    const hashOf = (n: number): number => (n % 5) * 3 + (n % 2 ? -1 : 0);
    const table = new TextKeyTable((row) => texts[row] as string, 2, 0, undefined, true);
    const model = new Map<number, number>();
    const next = random(19);
    const add = (n: number): void => {
      const e = table.findOrAdd(hashOf(n), 0, 0, texts[n] as string, n, 0);
      if (table.added) {
        expect([...model.values()]).not.toContain(e);
        model.set(n, e);
      } else expect(e).toBe(model.get(n));
    };
    for (let round = 0; round < 200; round++) {
      const n = Math.floor(next() * texts.length);
      const e = model.get(n);
      if (e !== undefined && next() < 0.5) {
        table.remove(e);
        model.delete(n);
      } else add(n);
      for (let m = 0; m < texts.length; m++)
        expect(table.find(hashOf(m), 0, 0, texts[m] as string, -1, 0)).toBe(model.get(m) ?? -1);
    }
    // Numbers of removed entries are used again before new ones.
    expect(table.size).toBeLessThan(texts.length + 1);
  });

  it('forgets an entry for look-ups but keeps its number and text, also in broken probe runs', () => {
    const texts = Array.from({ length: 30 }, (_, n) => `k${n}`);
    const hashOf = (n: number): number => (n % 4) * 2;
    const table = new TextKeyTable((row) => texts[row] as string, 2);
    const ids = texts.map((t, n) => table.findOrAdd(hashOf(n), 0, 0, t, n, 0));
    for (let n = 0; n < texts.length; n += 3) table.forget(ids[n] as number, hashOf(n));
    // Forgetting twice is harmless.
    table.forget(ids[0] as number, hashOf(0));
    for (let n = 0; n < texts.length; n++) {
      const found = table.find(hashOf(n), 0, 0, texts[n] as string, -1, 0);
      expect(found).toBe(n % 3 === 0 ? -1 : ids[n]);
      expect(table.textOf(ids[n] as number)).toBe(texts[n]);
      expect(table.rowOf(ids[n] as number)).toBe(n);
    }
    // A forgotten text comes back as a new entry; numbers are not given again.
    expect(table.findOrAdd(hashOf(3), 0, 0, 'k3', 3, 0)).toBe(texts.length);
  });

  it('numbers an entry added unlooked among the others, without finding it', () => {
    const texts = ['a', 'b', 'c'];
    const table = new TextKeyTable((row) => texts[row] as string, 2);
    expect(table.findOrAdd(5, 0, 0, 'a', 0, 0)).toBe(0);
    expect(table.addUnlooked(0, 0, 1, 0)).toBe(1);
    expect(table.added).toBe(true);
    expect(table.findOrAdd(5, 0, 0, 'c', 2, 0)).toBe(2);
    expect(table.find(5, 0, 0, 'b', -1, 0)).toBe(-1);
    expect(table.textOf(1)).toBe('b');
    expect(table.rowOf(1)).toBe(1);
    expect(table.size).toBe(3);
  });

  it('hashes equal texts equally and different seeds differently', () => {
    expect(hashText('nike shoes', 3, 1)).toBe(hashText('nike ' + 'shoes', 3, 1));
    expect(hashText('nike shoes', 3, 1)).not.toBe(hashText('nike shoes', 4, 1));
    expect(hashText('nike shoes', 3, 1)).not.toBe(hashText('nike shoes', 3, 2));
  });
});

describe('GroupLineSets', () => {
  it('keeps each group a set in the order of its lines, whatever it holds in its place', () => {
    // Texts by (row, pattern); every line's hash is one of two, so hashes collide often.
    const textOf = (row: number, pattern: number): string => `t${(row * 7 + pattern * 3) % 11}`;
    const hashOf = (text: string): number => text.length % 2;
    for (const inline of [1, 2, 3, 4]) {
      const next = random(40 + inline);
      const sets = new GroupLineSets(textOf, 4, 0, true, true, inline);
      /** Per open group its lines (match type and text) and their rows and patterns, in order. */
      const model = new Map<number, Array<[string, number, number]>>();
      let group = 0;
      for (let step = 0; step < 600; step++) {
        if (next() < 0.05) {
          // Drop an open group; its number is not used again.
          const open = [...model.keys()];
          const g = open[Math.floor(next() * open.length)];
          if (g !== undefined) {
            sets.drop(g);
            model.delete(g);
          }
          continue;
        }
        if (next() < 0.1) group++;
        const g = group - Math.floor(next() * 3);
        if (g < 0 || (g !== group && !model.has(g))) continue;
        const row = Math.floor(next() * 20);
        const pattern = Math.floor(next() * 3);
        const mt = Math.floor(next() * 2);
        const text = textOf(row, pattern);
        const lines = model.get(g) ?? [];
        const isNew = !lines.some(([key]) => key === `${mt} ${text}`);
        expect(sets.add(g, hashOf(text), mt, text, row, pattern)).toBe(isNew);
        if (isNew) lines.push([`${mt} ${text}`, row, pattern]);
        model.set(g, lines);
        const listed: Array<[number, number]> = [];
        sets.forEachLine(g, (r, p) => listed.push([r, p]));
        expect(listed).toEqual(lines.map(([, r, p]) => [r, p]));
      }
      expect(model.size).toBeGreaterThan(0);
    }
  });
});

describe('powerOf', () => {
  it('is HASH_BASE ** n as the hash composes it, within the table and past it', () => {
    for (const n of [0, 1, 2, 200, 255, 256, 257, 1000]) {
      let pow = 1;
      for (let i = 0; i < n; i++) pow = Math.imul(pow, HASH_BASE);
      expect(powerOf(n)).toBe(pow);
      // hash('a' + x) = hash('a') * HASH_BASE ** |x| + hash(x)
      const x = 'b'.repeat(n);
      expect((Math.imul(polyHash('a'), powerOf(n)) + polyHash(x)) | 0).toBe(polyHash(`a${x}`));
    }
  });
});

describe('writeKeywordsCsv with long cells', () => {
  it('matches the reference when a value is longer than 255 characters', () => {
    const long = `Word ${'x'.repeat(300)} End`;
    const input: GenerateCampaignStructureInput = {
      template: restoreCampaignTemplate({
        name: 'T',
        type: 'search',
        campaign: '{var1} campaign',
        adGroup: '{root}',
        keywords: [
          { keyword: '{root} {mod}', matchType: 'Broad' },
          { keyword: '{mod}', matchType: 'Exact' },
          { keyword: '{mod} cheap', matchType: 'Negative Broad' },
        ],
      }),
      rows: [
        feedRow('1', { root: 'Nike', mod: long, var1: long.slice(0, 280) }),
        feedRow('2', { root: long, mod: 'Shoes', var1: 'A' }),
        feedRow('3', { root: 'Nike', mod: 'Shoes', var1: 'A' }),
      ],
    };
    const structure = generateCampaignStructureReference(input);
    const fast = run(writeKeywordsCsv, input, {});
    expect(fast.keywords).toEqual([...formatKeywordsCsv(structure.keywords)]);
    expect(fast.negatives).toEqual([...formatKeywordsCsv(structure.negatives)]);
    expect(fast.result.issues).toEqual(structure.issues);
  });
});
