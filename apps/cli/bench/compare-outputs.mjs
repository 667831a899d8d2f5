#!/usr/bin/env node
/**
 * Runs the `adloom` command of two checkouts on the same feeds and templates and compares every
 * file they write, byte for byte (and the summary each prints). For a change that must not change
 * output (a refactor, a speed-up): the checkout before it and the one after.
 *
 *   node apps/cli/bench/compare-outputs.mjs --before DIR --after DIR [--out DIR] [--rows 50000]
 *
 * DIR is a checkout with its `npm ci` done (its apps/cli/bin/adloom.js builds the command when it
 * is stale). Feeds: the CLI bench's feed (`--rows`, default 50,000) and 4,000 awkward rows
 * (empty, spaced, quoted, non-ASCII, emoji, notation, formula, over-long and repeated cells, bad
 * URLs; seeded, the same every run). Templates: the CLI bench's campaign and RSA templates, and
 * campaign templates with `{mt}` ad groups (Negative Exact), negatives that block their group's
 * keywords (reported, and dropped), only negatives (campaign negatives) and several groups a
 * row, each with the RSA template; the bench's with a legacy ad and extensions too; the bench's
 * on both feeds with a Status column of paused rows (the files' status columns), and with a
 * `--label` that CSV quotes. Writes
 * OUT/before/<feed>-<template>/ and OUT/after/…; exits 1 when any file differs. The build record
 * (adloom-build.json, which holds its date) is compared by what it says: the after checkout's
 * `adloom plan` of the same inputs against the before folder must change nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BENCH_FEED_HEADER,
  BENCH_RSA,
  benchFeedLine,
  BRANDS,
  COLOURS,
  MODS,
} from './benchInputs.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const before = option('--before');
const after = option('--after');
const out = path.resolve(option('--out', '/tmp/adloom-compare'));
const benchRows = Number(option('--rows', '50000'));
if (!before || !after) {
  console.error('Usage: compare-outputs.mjs --before DIR --after DIR [--out DIR] [--rows N]');
  process.exit(2);
}

function benchFeed(rows) {
  let text = BENCH_FEED_HEADER;
  for (let i = 0; i < rows; i++) text += benchFeedLine(i);
  return text;
}

/** A feed with a Status column added: every `every`th row paused (so its items go out Paused). */
function withStatus(feed, every) {
  const lines = feed.split('\r\n');
  const last = lines.pop();
  return (
    lines
      .map((line, i) => `${line},${i === 0 ? 'Status' : i % every === 0 ? 'paused' : 'active'}`)
      .join('\r\n') + `\r\n${last}`
  );
}
const search = (name, adGroup, keywords, more = {}) => ({
  name,
  type: 'search',
  const: 'Shoes',
  campaign: '{const} {mod}',
  adGroup,
  keywords: keywords.map(([keyword, matchType]) => ({ keyword, matchType })),
  ...more,
});
const BENCH_KEYWORDS = [
  ['{root} {mod}', 'Broad'],
  ['{root} {mod}', 'Exact'],
  ['{root} {mod} {var1}', 'Phrase'],
  ['{root} {mod} cheap', 'Negative Broad'],
];
const BLOCKING = [
  ['{root} {mod}', 'Broad'],
  ['{root} cheap {mod}', 'Phrase'],
  ['{root} {var1}', 'Exact'],
  ['cheap', 'Negative Broad'],
  ['{root} {var1}', 'Negative Exact'],
];
const CAMPAIGNS = {
  bench: search('Bench', '{root} {mod}', BENCH_KEYWORDS),
  mt: search('Mt', '{root} {mt}', [
    ['{root} {mod}', 'Broad'],
    ['{root} {mod}', 'Exact'],
    ['{root} {var1}', 'Phrase'],
    ['{root} {mod}', 'Negative Exact'],
    ['{mod} for kids', 'Negative Broad'],
  ]),
  'mt-no-negatives': search('Mt plain', '{var1} {mt}', [
    ['{root}', 'Exact'],
    ['{root} {mod}', 'Broad'],
    ['{root} {mod}', 'Exact'],
  ]),
  blocking: search('Blocking', '{var1} {mod}', BLOCKING),
  'blocking-dropped': search('Dropped', '{var1} {mod}', BLOCKING, {
    settings: { dropBlockingNegatives: true },
  }),
  'negatives-only': search('Negatives', '{root}', [
    ['{mod}', 'Negative Broad'],
    ['{root} {var1}', 'Negative Exact'],
  ]),
  'shared-groups': {
    ...search('Shared', '{var1}', BENCH_KEYWORDS),
    campaign: '{const}',
  },
};
const LEGACY = {
  name: 'Legacy',
  templates: [
    [{ h1: '{root} {mod}', h2: 'Free Delivery', dl1: 'Shop {root} today.', p1: '{var1}' }],
  ],
};
const SITELINK = {
  name: 'Sitelinks',
  extensionType: 'Sitelink',
  templates: [{ 'Link Text': '{root}', 'Description Line 1': 'Shop {mod}', 'Final URL': '' }],
};
const CALLOUT = {
  name: 'Callouts',
  extensionType: 'Callout',
  templates: [{ 'Callout text': 'Free {mod} Delivery' }],
};

// Awkward rows: a small seeded generator (the same feed every run).
let seed = 34;
const random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const PIECES = [
  'nike',
  'Nike',
  'NIKE',
  ' nike ',
  'nike  air',
  'café',
  'cafe\u0301',
  'CAFÉ',
  'straße',
  'İstanbul',
  'ünïcödé',
  '日本語',
  '👟 shoe',
  'shoe!!',
  'BIG SALE',
  'a "quoted" one',
  'comma, inside',
  'line\nbreak',
  'tab\there',
  'zero\u200bwidth',
  'soft\u00adhyphen',
  '“curly”',
  'dash – em — x',
  "it's",
  '-negative',
  '+modifier',
  'word +plus',
  '=SUM(A1)',
  '@mention',
  '+123',
  '-5',
  'cheap',
  'cheap shoes',
  '#1 pick',
  'a/b:c.d',
  'x'.repeat(35),
  'one two three four five six seven eight nine ten eleven',
  '',
  ' ',
  '  ',
  'trail\u00a0shoes',
  'A&B',
  'price $5',
  '50% off',
  '[bracket]',
  'naïve',
  'ﬁne',
  'Ⅷ',
  'mixed CASE Words',
];
const URLS = [
  'https://www.shoes.example/a',
  'http://shoes.example/b?x=1,2',
  '',
  'ftp://shoes.example/c',
  'www.shoes.example',
  `https://shoes.example/${'p'.repeat(2050)}`,
  'https://shoes.example/ä',
];
const cell = (s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
function awkwardFeed(rows) {
  const lines = ['Root,Modifier,Var 1,Var 2,Var 3,Final URL'];
  const made = [];
  for (let i = 0; i < rows; i++) {
    let row;
    if (made.length > 0 && random() < 0.15) row = pick(made);
    else {
      row = [
        random() < 0.5 ? `${pick(BRANDS)} ${i % 50}` : pick(PIECES),
        random() < 0.6 ? pick(MODS) : pick(PIECES),
        random() < 0.6 ? pick(COLOURS) : pick(PIECES),
        random() < 0.5 ? '' : pick(PIECES),
        random() < 0.8 ? '' : pick(PIECES),
        random() < 0.7 ? URLS[0] : pick(URLS),
      ];
      made.push(row);
    }
    lines.push(row.map(cell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

const inputs = path.join(out, 'inputs');
rmSync(out, { recursive: true, force: true });
mkdirSync(inputs, { recursive: true });
const file = (name, content) => {
  const at = path.join(inputs, name);
  writeFileSync(at, typeof content === 'string' ? content : JSON.stringify(content, null, 1));
  return at;
};
const awkwardText = awkwardFeed(4000);
const feeds = {
  bench: file('bench.csv', benchFeed(benchRows)),
  awkward: file('awkward.csv', awkwardText),
};
// Paused rows: the streamed files get a status column. Not a feed of the loop below: its runs
// are the bench template's, with and without the legacy ad and extensions.
const statusFeeds = {
  'bench-status': file('bench-status.csv', withStatus(benchFeed(benchRows), 5)),
  'awkward-status': file('awkward-status.csv', withStatus(awkwardText, 3)),
};
const rsa = file('rsa.json', BENCH_RSA);
const runs = [];
for (const [feedName, feed] of Object.entries(feeds)) {
  for (const [name, template] of Object.entries(CAMPAIGNS)) {
    const campaign = file(`campaign-${name}.json`, template);
    runs.push({
      name: `${feedName}-${name}`,
      args: ['--feed', feed, '--campaign', campaign, '--rsa', rsa],
    });
  }
  runs.push({
    name: `${feedName}-bench-legacy-extensions`,
    args: [
      '--feed',
      feed,
      '--campaign',
      path.join(inputs, 'campaign-bench.json'),
      '--rsa',
      rsa,
      '--legacy-ad',
      file('legacy.json', LEGACY),
      '--extension',
      file('sitelink.json', SITELINK),
      '--extension',
      file('callout.json', CALLOUT),
    ],
  });
}

for (const [feedName, feed] of Object.entries(statusFeeds)) {
  const bench = ['--feed', feed, '--campaign', path.join(inputs, 'campaign-bench.json')];
  runs.push({ name: `${feedName}-bench`, args: [...bench, '--rsa', rsa] });
  runs.push({
    name: `${feedName}-bench-legacy-extensions`,
    args: [
      ...bench,
      '--legacy-ad',
      path.join(inputs, 'legacy.json'),
      '--extension',
      path.join(inputs, 'sitelink.json'),
    ],
  });
}
// A client label that CSV must quote, with and without paused rows.
for (const [feedName, feed] of [
  ['bench', feeds.bench],
  ['awkward-status', statusFeeds['awkward-status']],
]) {
  runs.push({
    name: `${feedName}-bench-label`,
    args: [
      ...['--feed', feed, '--campaign', path.join(inputs, 'campaign-bench.json'), '--rsa', rsa],
      ...['--label', 'Acme "North", EU'],
    ],
  });
}

/** Runs one checkout's command for every run into OUT/<side>/<run>/ (the summary as summary.txt). */
function runAll(side, checkout) {
  const adloom = path.join(path.resolve(checkout), 'apps', 'cli', 'bin', 'adloom.js');
  for (const run of runs) {
    const dir = path.join(out, side, run.name);
    const r = spawnSync(adloom, ['generate', ...run.args, '--out', dir, '--today', '20261126'], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`${side} ${run.name} failed (${r.status}):\n${r.stderr}`);
    // The summary names the folder written: the same name on both sides.
    writeFileSync(path.join(dir, 'summary.txt'), (r.stdout + r.stderr).replaceAll(dir, 'OUT'));
  }
}
/** The build record: compared by planning against it, not byte for byte. */
const RECORD = 'adloom-build.json';

/** True when the after checkout's plan of `run` against the folder `previous` changes nothing. */
function plansNothing(run, previous) {
  const adloom = path.join(path.resolve(after), 'apps', 'cli', 'bin', 'adloom.js');
  const dir = path.join(out, 'plans', run.name);
  const r = spawnSync(
    adloom,
    ['plan', ...run.args, '--previous', previous, '--out', dir, '--today', '20261126'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  return r.status === 0 && r.stdout.includes('Nothing to change');
}

runAll('before', before);
runAll('after', after);

let compared = 0;
const differ = [];
for (const run of runs) {
  const a = path.join(out, 'before', run.name);
  const b = path.join(out, 'after', run.name);
  const names = new Set([...readdirSync(a), ...readdirSync(b)]);
  for (const name of [...names].sort()) {
    compared++;
    if (name === RECORD) {
      // The record holds its date, and its layout may change with its version: it is compared
      // by what it says. The after checkout plans the same inputs against the before record.
      if (!plansNothing(run, a))
        differ.push(`${run.name}/${name} (a plan against it changes items)`);
      continue;
    }
    let same;
    try {
      same = readFileSync(path.join(a, name)).equals(readFileSync(path.join(b, name)));
    } catch {
      same = false; // on one side only
    }
    if (!same) differ.push(`${run.name}/${name}`);
  }
}
console.log(
  `${compared} files compared (${runs.length} runs: feeds ${Object.keys(feeds).join(', ')}; ` +
    `campaign templates ${Object.keys(CAMPAIGNS).join(', ')}, each with the RSA template; ` +
    `bench with a legacy ad and extensions; the bench template on feeds with paused rows ` +
    `(${Object.keys(statusFeeds).join(', ')}) and with a quoted --label): ` +
    `${differ.length === 0 ? 'all identical' : `${differ.length} differ`}`,
);
for (const d of differ) console.log(`  differs: ${d}`);
process.exit(differ.length === 0 ? 0 : 1);
