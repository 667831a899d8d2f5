/**
 * `campaignParts` and the run's sections: a campaign template run over each part's rows (every
 * campaign's rows in one part), the parts' outputs merged section by section (the template's own
 * issues once, then per section the parts' items by the feed row that made each, an item naming
 * no row keeping its place after the one before it), equals one run over the whole feed, line for
 * line and issue for issue. Random feeds (campaigns interleaved or in runs, empty
 * names, case variants, many rows into few ad groups) and templates (`{mt}` ad groups with cross
 * negatives, negatives that block keywords, dropped or kept, keywords kept in their first group).
 */
import { describe, expect, it } from 'vitest';
import { pick, random } from '../test/helpers/random.ts';
import { feedRow } from '../test/helpers/rows.ts';
import { campaignParts } from './campaignParts.ts';
import { forEachKeywordLine } from './campaign.ts';
import { restoreCampaignTemplate } from './restore.ts';
import type { CampaignTemplate, FeedRow } from './types.ts';

const ROOTS = ['Nike', 'nike', 'Puma', 'PUMA ', 'Asics  Gel', '', 'Café', 'Cafe\u0301', '東京'];
const MODS = ['Shoes', 'shoes', 'Boots', '', 'Red!', 'a "b"', 'x'.repeat(90)];

function randomRows(next: () => number): FeedRow[] {
  const n = 1 + Math.floor(next() * 60);
  const inRuns = next() < 0.5;
  let root = pick(next, ROOTS);
  return Array.from({ length: n }, (_, i) => {
    if (!inRuns || next() < 0.2) root = pick(next, ROOTS);
    return feedRow(`r${i}`, {
      root,
      mod: pick(next, MODS),
      var1: pick(next, ['', 'blue', 'Shoes', 'cheap']),
      var2: pick(next, ['', 'x', 'y']),
    });
  });
}

function randomTemplate(next: () => number): CampaignTemplate {
  const adGroup = pick(next, ['{mod} {mt}', '{mod}', 'All', '{var2}', '{root} {mod} {mt}']);
  return restoreCampaignTemplate({
    name: 'Random',
    const: 'Shoes',
    campaign: pick(next, ['{root}', '{const}, {root}', '{root} {var2}']),
    adGroup,
    keywords: [
      { keyword: '{root} {mod}', matchType: 'Broad' },
      { keyword: '{root} {mod}', matchType: 'Exact' },
      { keyword: '{mod} {var1}', matchType: pick(next, ['Phrase', 'Exact', 'Broad']) },
      ...(next() < 0.6 ? [{ keyword: '{var1}', matchType: 'Negative Exact' }] : []),
      ...(next() < 0.5 ? [{ keyword: 'cheap {mod}', matchType: 'Negative Broad' }] : []),
      ...(next() < 0.3 ? [{ keyword: '{mod}', matchType: 'Negative Phrase' }] : []),
    ],
    settings: {
      dropBlockingNegatives: next() < 0.5,
      keepKeywordInFirstAdGroup: next() < 0.3,
    },
  });
}

/** Everything a run hands over, each item with the feed row that made it (-1: none). */
interface Run {
  streams: Record<'keywords' | 'negatives' | 'campaigns' | 'adGroups' | 'issues', string[]>;
  keys: Record<string, number[]>;
  /** Per stream, its length at each section call. */
  marks: Record<string, number[]>;
}

type StreamName = keyof Run['streams'];

/** Runs `template` over the rows of the feed numbered `feedRows` (in order). */
function run(template: CampaignTemplate, feed: FeedRow[], feedRows: number[]): Run {
  const rows = feedRows.map((r) => feed[r] as FeedRow);
  const feedIndexOfId = new Map(feed.map((row, i) => [row.id, i]));
  const streams: Run['streams'] = {
    keywords: [],
    negatives: [],
    campaigns: [],
    adGroups: [],
    issues: [],
  };
  const keys: Run['keys'] = {};
  const marks: Run['marks'] = {};
  for (const name of Object.keys(streams)) [keys[name], marks[name]] = [[], []];
  const add = (name: StreamName, text: string, key: number): void => {
    streams[name].push(text);
    keys[name]!.push(key);
  };
  const ofLocal = (row: number | undefined): number =>
    row === undefined || row < 0 ? -1 : (feedRows[row] as number);
  const findRows: number[] = [];
  const result = forEachKeywordLine(
    { template, rows, rowLabel: (n) => `row ${(feedRows[n - 1] ?? -2) + 1}` },
    {
      keywords: (...l) => add('keywords', l.slice(0, 4).join('|'), ofLocal(l[5])),
      negatives: (...l) => add('negatives', l.slice(0, 4).join('|'), ofLocal(l[5])),
      campaigns: (c) => add('campaigns', JSON.stringify(c), feedIndexOfId.get(c.rowId) ?? -1),
      adGroups: (g) => add('adGroups', JSON.stringify(g), feedIndexOfId.get(g.id) ?? -1),
      findRow: (row) => findRows.push(ofLocal(row)),
      section: (issues) => {
        for (const name of Object.keys(streams) as StreamName[])
          marks[name]!.push(name === 'issues' ? issues : streams[name].length);
      },
    },
  );
  // The blocking checks' issues (between the second and third section calls) come in the order
  // of their negatives' rows; the others name their rows.
  const findsFrom = marks.issues![1] ?? 0;
  result.issues.forEach((i, n) => {
    const at = ofLocal(i.rowNumber - 1);
    const key = n >= findsFrom && n - findsFrom < findRows.length ? findRows[n - findsFrom] : at;
    add('issues', JSON.stringify({ ...i, rowNumber: at + 1 }), key as number);
  });
  return { streams, keys, marks };
}

/**
 * The parts' streams merged: the first section (the template's issues) of the first part only,
 * then section by section the parts' items by their feed rows (an item of no row keeps its place
 * after the one before it in its part).
 */
function merged(parts: Run[], name: StreamName): string[] {
  const out: string[] = [];
  const bounds = parts.map((p) => [0, ...(p.marks[name] ?? []), p.streams[name].length]);
  const sections = (bounds[0] as number[]).length - 1;
  for (let s = 0; s < sections; s += 1) {
    const at = parts.map((_, i) => (bounds[i] as number[])[s] as number);
    const last = parts.map(() => -1);
    const key = (i: number): number => {
      const k = (parts[i] as Run).keys[name]![at[i] as number] as number;
      return k < 0 ? (last[i] as number) : k;
    };
    for (;;) {
      let best = -1;
      parts.forEach((_, i) => {
        if (s === 0 && i > 0) return;
        if ((at[i] as number) >= ((bounds[i] as number[])[s + 1] as number)) return;
        if (best < 0 || key(i) < key(best)) best = i;
      });
      if (best < 0) break;
      last[best] = key(best);
      out.push((parts[best] as Run).streams[name][at[best] as number] as string);
      at[best] = (at[best] as number) + 1;
    }
  }
  return out;
}

describe('campaignParts', () => {
  const template = restoreCampaignTemplate({ name: 'T', campaign: '{root}', adGroup: 'x' });
  const rows = ['a', 'a', 'b', 'a', '', 'c', 'c', 'C', 'd', 'e'].map((root, i) =>
    feedRow(`r${i}`, { root }),
  );

  it('puts every row of a campaign in one part, biggest campaigns first to the lightest part', () => {
    expect(campaignParts(template, rows, 1)).toBeUndefined();
    expect([...campaignParts(template, rows, 2)!]).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 1, 0]);
    expect([...campaignParts(template, rows, 3)!]).toEqual([0, 0, 2, 0, 0, 1, 1, 1, 2, 2]);
  });

  it('does not split a {mt} campaign pattern, a paused row or a single campaign', () => {
    const mt = restoreCampaignTemplate({ name: 'T', campaign: '{root} {mt}', adGroup: 'x' });
    expect(campaignParts(mt, rows, 3)).toBeUndefined();
    const paused = rows.map((r, i) => (i === 3 ? { ...r, status: 'paused' } : r));
    expect(campaignParts(template, paused, 3)).toBeUndefined();
    expect(campaignParts(template, rows.slice(0, 2), 3)).toBeUndefined();
  });

  it('parts merged by row, section by section, equal the whole run (randomised)', () => {
    let split = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      const next = random(seed);
      const feed = randomRows(next);
      const template = randomTemplate(next);
      const count = 2 + Math.floor(next() * 3);
      const partOf = campaignParts(template, feed, count);
      const whole = run(
        template,
        feed,
        feed.map((_, i) => i),
      );
      if (!partOf) continue;
      split += 1;
      const parts = Array.from({ length: count }, (_, p) =>
        run(
          template,
          feed,
          feed.flatMap((_, i) => (partOf[i] === p ? [i] : [])),
        ),
      );
      for (const name of Object.keys(whole.streams) as StreamName[])
        expect(merged(parts, name), `seed ${seed}: ${name}`).toEqual(whole.streams[name]);
    }
    expect(split).toBeGreaterThan(200);
  }, 120_000);
});
