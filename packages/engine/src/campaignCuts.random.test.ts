/**
 * `campaignCuts` and the run's sections: a campaign template run over each part of a feed cut
 * where no campaign spans the cut, its outputs put together section by section (the template's
 * own issues once, then each section of every part in row order), equals one run over the whole
 * feed, line for line and issue for issue. Random feeds (campaigns interleaved or in runs, empty
 * names, case variants, many rows into few ad groups) and templates (`{mt}` ad groups with cross
 * negatives, negatives that block keywords, dropped or kept, keywords kept in their first group).
 */
import { describe, expect, it } from 'vitest';
import { pick, random } from '../test/helpers/random.ts';
import { feedRow } from '../test/helpers/rows.ts';
import { campaignCuts } from './campaignCuts.ts';
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

/** Everything a run hands over, each stream cut at the run's section calls. */
interface Run {
  streams: Record<'keywords' | 'negatives' | 'campaigns' | 'adGroups' | 'issues', string[]>;
  /** Per stream, its length at each section call. */
  marks: Record<string, number[]>;
}

function run(template: CampaignTemplate, rows: FeedRow[], start: number): Run {
  const streams: Run['streams'] = {
    keywords: [],
    negatives: [],
    campaigns: [],
    adGroups: [],
    issues: [],
  };
  const marks: Run['marks'] = {};
  for (const name of Object.keys(streams)) marks[name] = [];
  const result = forEachKeywordLine(
    { template, rows, rowLabel: (n) => `row ${n + start}` },
    {
      keywords: (...l) => streams.keywords.push(l.slice(0, 4).join('|')),
      negatives: (...l) => streams.negatives.push(l.slice(0, 4).join('|')),
      campaigns: (c) => streams.campaigns.push(JSON.stringify(c)),
      adGroups: (g) => streams.adGroups.push(JSON.stringify(g)),
      section: (issues) => {
        for (const name of Object.keys(streams) as (keyof Run['streams'])[])
          marks[name]!.push(name === 'issues' ? issues : streams[name].length);
      },
    },
  );
  streams.issues = result.issues.map((i) =>
    JSON.stringify({ ...i, rowNumber: i.rowNumber === 0 ? 0 : i.rowNumber + start }),
  );
  return { streams, marks };
}

/** The parts' streams section by section: the first section (the template's issues) of the first part only. */
function merged(parts: Run[], name: keyof Run['streams']): string[] {
  const bounds = parts.map((p) => [0, ...(p.marks[name] ?? []), p.streams[name].length]);
  const out: string[] = [];
  const sections = (bounds[0] as number[]).length - 1;
  for (let s = 0; s < sections; s += 1)
    parts.forEach((p, i) => {
      if (s === 0 && i > 0) return;
      const b = bounds[i] as number[];
      out.push(...p.streams[name].slice(b[s], b[s + 1]));
    });
  return out;
}

describe('campaignCuts', () => {
  it('cuts only where no campaign spans the cut, near even shares', () => {
    const rows = ['a', 'a', 'b', 'a', 'c', 'c', 'd', 'e', 'e', 'f'].map((root, i) =>
      feedRow(`r${i}`, { root }),
    );
    const template = restoreCampaignTemplate({ name: 'T', campaign: '{root}', adGroup: 'x' });
    expect(campaignCuts(template, rows, 1)).toEqual([0, 10]);
    expect(campaignCuts(template, rows, 2)).toEqual([0, 6, 10]);
    expect(campaignCuts(template, rows, 3)).toEqual([0, 4, 7, 10]);
    const mt = restoreCampaignTemplate({ name: 'T', campaign: '{root} {mt}', adGroup: 'x' });
    expect(campaignCuts(mt, rows, 3)).toEqual([0, 10]);
    const paused = rows.map((r, i) => (i === 3 ? { ...r, status: 'paused' } : r));
    expect(campaignCuts(template, paused, 3)).toEqual([0, 10]);
  });

  it('parts merged section by section equal the whole run (randomised)', () => {
    let split = 0;
    for (let seed = 1; seed <= 400; seed += 1) {
      const next = random(seed);
      const rows = randomRows(next);
      const template = randomTemplate(next);
      const cuts = campaignCuts(template, rows, 2 + Math.floor(next() * 3));
      if (cuts.length > 2) split += 1;
      const whole = run(template, rows, 0);
      const parts = cuts
        .slice(0, -1)
        .map((start, i) => run(template, rows.slice(start, cuts[i + 1]), start));
      for (const name of Object.keys(whole.streams) as (keyof Run['streams'])[])
        expect(merged(parts, name), `seed ${seed}: ${name}`).toEqual(whole.streams[name]);
    }
    expect(split).toBeGreaterThan(100);
  });
});
