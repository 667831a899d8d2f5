/**
 * Runs the real `adloom` command (bin/adloom.js through Node) against fixture files and compares
 * every written file with the golden copies in test/golden/. UPDATE_GOLDEN=1 rewrites them.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readBuildRecord } from '@adloom/engine';
import { ADLOOM_BIN, runAdloom } from './runCommand.ts';

// Each test spawns the real command; on a busy machine that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const fixtures = path.join(here, 'fixtures');
const golden = path.join(here, 'golden');
const fx = (name: string) => path.relative(repoRoot, path.join(fixtures, name));
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'adloom-cli-'));
const isUpdating = process.env.UPDATE_GOLDEN === '1';

afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

const run = (args: string[]) => runAdloom(args, repoRoot);

/** A written file's bytes, the build record's time of the run left out. */
/**
 * A file's bytes; a build record as what it says (its header without the date, and its items
 * sorted): the ads' thread writes its ads' items as a part of the record of its own.
 */
function written(file: string): Buffer {
  const bytes = readFileSync(file);
  if (path.basename(file) !== 'adloom-build.json') return bytes;
  const record = readBuildRecord([bytes.toString('utf8')]);
  const items: string[] = [];
  for (let i = 0; i < record.size; i++) items.push(JSON.stringify(record.item(i)));
  return Buffer.from(
    [JSON.stringify({ ...record.header, created: '' }), ...items.sort()].join('\n'),
  );
}

function tmp(name: string): string {
  return path.join(tmpRoot, name);
}

function compareWithGolden(name: string, outDir: string, summary: string): void {
  const dir = path.join(golden, name);
  const files = readdirSync(outDir).sort();
  const normalisedSummary = summary.split(outDir).join('OUT');
  if (isUpdating) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const f of files)
      writeFileSync(
        path.join(dir, f),
        f === 'adloom-build.json'
          ? '"the record of the run: its round trip is tested in plan.test.ts"\n'
          : readFileSync(path.join(outDir, f)),
      );
    writeFileSync(path.join(dir, 'summary.txt'), normalisedSummary);
  }
  const expected = readdirSync(dir)
    .filter((f) => f !== 'summary.txt')
    .sort();
  expect(files).toEqual(expected);
  for (const f of files) {
    // The build record holds the time of the run: its round trip is tested below.
    if (f === 'adloom-build.json') continue;
    expect(readFileSync(path.join(outDir, f), 'utf8'), f).toBe(
      readFileSync(path.join(dir, f), 'utf8'),
    );
  }
  expect(normalisedSummary).toBe(readFileSync(path.join(dir, 'summary.txt'), 'utf8'));
}

describe('adloom generate (golden)', () => {
  it('writes every search output kind and a summary', () => {
    const out = tmp('search');
    const r = run([
      'generate',
      '--feed',
      fx('feed.csv'),
      '--campaign',
      fx('campaign.json'),
      '--rsa',
      fx('rsa.json'),
      '--extension',
      fx('callout.json'),
      '--extension',
      fx('sitelink.json'),
      '--extension',
      fx('snippet.json'),
      '--legacy-ad',
      fx('legacy-ad.json'),
      '--out',
      out,
      '--today',
      '20261122',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Read 7 rows from feed.csv');
    compareWithGolden('search', out, r.stdout);
  });

  it('reads a status column: what only paused rows make goes out Paused, the rest Enabled', () => {
    const feed = tmp('status-feed.csv');
    writeFileSync(
      feed,
      [
        'Root,Modifier,Var 1,Final URL,Status',
        'Nike,Air Max,Red,https://a.example/1,Paused',
        'Nike,Air Max,Blue,https://a.example/2,',
        'Puma,Suede,Blue,https://a.example/3,out of stock',
        'Asics,Gel,White,https://a.example/4,soon',
      ].join('\n'),
    );
    const out = tmp('status');
    const args = ['generate', '--feed', path.relative(repoRoot, feed), '--campaign'];
    const r = run([...args, fx('campaign.json'), '--rsa', fx('rsa.json'), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('columns: root, mod, var1, url, status');
    const lines = (f: string): string[] =>
      readFileSync(path.join(out, f), 'utf8')
        .replace(/^\uFEFF/, '')
        .split('\r\n');
    expect(lines('ad-groups.csv')[0]).toBe('Campaign,Ad Group,Ad Group Status,Labels');
    expect(lines('ad-groups.csv').filter((l) => l.includes('Puma'))).not.toHaveLength(0);
    for (const l of lines('ad-groups.csv').filter((l) => l.includes('Puma')))
      expect(l).toMatch(/,Paused,adloom$/);
    for (const l of lines('ad-groups.csv').filter((l) => /Nike|Asics/.test(l)))
      expect(l).toMatch(/,Enabled,adloom$/);
    expect(lines('keywords.csv')[0]).toBe('Campaign,Ad Group,Keyword,Criterion Type,Status,Labels');
    expect(lines('keywords.csv').filter((l) => l.includes('nike air max red'))[0]).toMatch(
      /,Paused,adloom$/,
    );
    expect(lines('keywords.csv').filter((l) => l.includes('nike air max blue'))[0]).toMatch(
      /,Enabled,adloom$/,
    );
    expect(lines('responsive-search-ads.csv')[0]).toMatch(/,Status$/);
    expect(lines('campaigns.csv')[0]).toMatch(/,Campaign Status,Labels$/);
    expect(lines('campaigns.csv').filter((l) => l.startsWith('Shoes - Puma,Search'))[0]).toMatch(
      /,Paused,adloom$/,
    );
    // The unknown status is reported, by its line, and read as active.
    expect(readFileSync(path.join(out, 'adloom-report.csv'), 'utf8')).toContain('status-unknown');
  });

  it('writes Performance Max campaigns and asset groups', () => {
    const out = tmp('performance');
    const r = run([
      'generate',
      '--feed',
      fx('feed.csv'),
      '--campaign',
      fx('pmax-campaign.json'),
      '--pmax',
      fx('pmax.json'),
      '--out',
      out,
      '--today',
      '20261122',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    compareWithGolden('performance', out, r.stdout);
  });

  it('replaces earlier files in an existing output folder and keeps other files', () => {
    const out = tmp('rerun');
    mkdirSync(out);
    writeFileSync(path.join(out, 'keywords.csv'), 'old');
    writeFileSync(path.join(out, 'mine.txt'), 'keep');
    const r = run([
      'generate',
      '--feed',
      fx('feed.csv'),
      '--campaign',
      fx('campaign.json'),
      '--out',
      out,
      '--today',
      '20261122',
    ]);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(out, 'keywords.csv'), 'utf8')).toBe(
      readFileSync(path.join(golden, 'search', 'keywords.csv'), 'utf8'),
    );
    expect(readFileSync(path.join(out, 'mine.txt'), 'utf8')).toBe('keep');
    expect(readdirSync(tmpRoot).filter((f) => f.includes('.adloom-'))).toEqual([]);
  });

  it("reads Excel's Unicode text (UTF-16, tab-separated) and a semicolon CSV, and says so", () => {
    const text = 'Root\tModifier\r\nCafé\tcrème, brûlée\r\n';
    const utf16 = tmp('unicode-text.txt');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const semicolon = tmp('semicolon.csv');
    writeFileSync(
      semicolon,
      text.replaceAll('\t', ';').replace('crème, brûlée', '"crème; brûlée"'),
    );
    for (const [feed, how, mod] of [
      [utf16, '(utf-16le, tab-separated;', 'crème, brûlée'],
      [semicolon, '(utf-8, semicolon-separated;', 'crème; brûlée'],
    ] as const) {
      const out = tmp(`${path.basename(feed)}-out`);
      const r = run(['generate', '--feed', feed, '--campaign', fx('campaign.json'), '--out', out]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        `Read 1 row from ${path.basename(feed)} ${how} columns: root, mod)`,
      );
      expect(readFileSync(path.join(out, 'ad-groups.csv'), 'utf8')).toContain(`Café ${mod} Broad`);
    }
  });

  it('reads a windows-1252 feed: € – — “ ” ™ come out as UTF-8', () => {
    const feed = tmp('cp1252.csv');
    // Café € – — “Best” ™ / crème, as Excel on Windows saves them.
    const bytes = [
      ...Buffer.from('root,mod\r\nCaf', 'latin1'),
      0xe9,
      0x20,
      0x80,
      0x20,
      0x96,
      0x20,
      0x97,
      0x20,
      0x93,
      ...Buffer.from('Best', 'latin1'),
      0x94,
      0x20,
      0x99,
      ...Buffer.from(',cr\xe8me\r\n', 'latin1'),
    ];
    writeFileSync(feed, Uint8Array.from(bytes));
    const out = tmp('cp1252');
    const r = run(['generate', '--feed', feed, '--campaign', fx('campaign.json'), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(windows-1252;');
    const campaigns = readFileSync(path.join(out, 'campaigns.csv'), 'utf8');
    expect(campaigns).toContain('Shoes - Café € – — “Best” ™,');
    expect(readFileSync(path.join(out, 'ad-groups.csv'), 'utf8')).toContain(
      'Café € – — “Best” ™ crème Broad',
    );
    expect(campaigns).not.toMatch(/[\u0080-\u009f]/);
  });
});

describe('adloom --only, --stdout and --progress', () => {
  const searchArgs = () => [
    'generate',
    '--feed',
    fx('feed.csv'),
    '--campaign',
    fx('campaign.json'),
    '--rsa',
    fx('rsa.json'),
    '--today',
    '20261122',
  ];
  const goldenText = (name: string) => readFileSync(path.join(golden, 'search', name), 'utf8');

  it('writes only the outputs named, each as the full run writes it', () => {
    const out = tmp('only');
    const r = run([...searchArgs(), '--only', 'keywords,rsa', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['keywords.csv', 'responsive-search-ads.csv']);
    expect(readFileSync(path.join(out, 'keywords.csv'), 'utf8')).toBe(goldenText('keywords.csv'));
    expect(r.stdout).toContain('keywords.csv');
    expect(r.stdout).not.toContain('ad-groups.csv');
  });

  it('writes one output to standard output without the BOM, the summary to standard error', () => {
    const r = run([...searchArgs(), '--only', 'negatives', '--stdout']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(goldenText('negatives.csv').replace(/^\uFEFF/, ''));
    expect(r.stderr).toContain('Wrote to standard output:');
    expect(r.stderr).toContain('negatives.csv');
  });

  it('shows rows, lines written and the rate with --progress', () => {
    const out = tmp('progress');
    const r = run([...searchArgs(), '--progress', '--out', out]);
    expect(r.code).toBe(0);
    // One line rewritten in place (each rendering starts with a carriage return); on a busy
    // machine the run outlasts a tick and earlier renderings come first.
    expect(r.stderr.startsWith('\r')).toBe(true);
    const renderings = r.stderr.slice(1).split('\r');
    expect(renderings.at(-1)).toMatch(
      /^rows 7 of 7, \d+ lines written, [\d,]+ lines\/s, [\d.]+ s +\n$/,
    );
    for (const earlier of renderings.slice(0, -1))
      expect(earlier).toMatch(
        /^(ads: )?rows \d+ of 7, .*\d+ lines written, [\d,]+ lines\/s, [\d.]+ s +$/,
      );
    expect(readFileSync(path.join(out, 'keywords.csv'), 'utf8')).toBe(goldenText('keywords.csv'));
  });

  it('reads a feed in pieces: records cut at a piece end, one far longer than a piece', () => {
    // Pieces are 64 KB: 3000 two-line records cross many piece ends; the 300 KB cell of an
    // ignored column spans several pieces.
    const feed = tmp('pieces.csv');
    const lines = ['Root,Modifier,Notes,Final URL'];
    for (let i = 0; i < 3000; i++)
      lines.push(`root ${i},mod,"note ${i}\nsecond line",https://x.example/${i}`);
    lines.splice(1501, 0, `long,mod,"${'x'.repeat(300_000)}",https://long.example`);
    writeFileSync(feed, lines.join('\r\n'));
    const r = run([
      'generate',
      '--feed',
      feed,
      '--campaign',
      fx('campaign.json'),
      '--only',
      'keywords',
      '--stdout',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Read 3001 rows from pieces.csv');
    const exact = r.stdout.split('\r\n').filter((line) => line.endsWith(',Exact,adloom'));
    expect(exact).toHaveLength(3001);
    expect(exact[1500]).toBe('Shoes - long,long mod Exact,long mod,Exact,adloom');
    expect(exact[3000]).toBe('Shoes - root 2999,root 2999 mod Exact,root 2999 mod,Exact,adloom');
  });

  it('stops quietly with exit code 0 when the reader of --stdout closes it early (| head)', async () => {
    // Far more than a pipe holds: the command is still writing when the reader goes.
    const feed = tmp('pipe-feed.csv');
    const lines = ['root,mod,url'];
    for (let i = 0; i < 20_000; i++) lines.push(`brand ${i},shoes,https://example.com/${i}`);
    writeFileSync(feed, lines.join('\n'));
    const child = spawn(
      process.execPath,
      [
        ADLOOM_BIN,
        'generate',
        '--feed',
        feed,
        '--campaign',
        fx('campaign.json'),
        '--only',
        'keywords',
        '--stdout',
      ],
      { cwd: repoRoot },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(d.toString())),
    );
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toMatch(/^Campaign,Ad Group,Keyword,Criterion Type,Labels\r\n/);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it.each([
    [['--only', 'keywords,bogus', '--out', 'o'], '--only: unknown output "bogus"'],
    [['--stdout'], '--stdout needs --only with one output'],
    [['--only', 'keywords,rsa', '--stdout'], '--stdout needs --only with one output'],
    [['--only', 'keywords', '--stdout', '--out', 'o'], '--stdout and --out cannot be used'],
  ])('%j exits 2 with %s', (args, message) => {
    const r = run([...searchArgs(), ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});

/** The records of a CSV file written with CRLF, a quoted cell's own line breaks kept. */
function csvRecords(text: string): string[] {
  const records: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text.startsWith('\r\n', i)) {
      records.push(text.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records;
}

describe('adloom names the physical line of every reported row (a nasty feed)', () => {
  const long = 'Extraordinarily Long Product Root Name For Testing Eighty Characters Exactly 12';
  // Physical lines: the header is 1; 5 and 12 are blank; 3-4 and 13-15 are one row each.
  const lines = [
    'Root,Modifier,Var 1,Var 2,Final URL',
    'Café,crème,,,https://cafe.example/a',
    '"Nike ""Air""","multi',
    'line mod",,,https://nike.example',
    '',
    '東京,靴,,,https://tokyo.example',
    'Shoes 👟,,,,www.shoes.example',
    `${long},x,,,https://long.example`,
    '"=HYPERLINK(""http://x"")",+49,-20%,=unused,https://eq.example',
    '@home,sale,,,https://at.example',
    'Café,crème,,,https://cafe.example/a',
    '',
    '"line',
    '',
    'break",y,,,https://lb.example',
    'last,,,,ftp://last.example',
  ];
  const rowStarts = new Set([2, 3, 6, 7, 8, 9, 10, 11, 13, 16]);

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ])('with %s line ends', (_name, eol) => {
    const feed = tmp(`nasty-${_name}.csv`);
    writeFileSync(feed, lines.join(eol) + eol);
    const out = tmp(`nasty-${_name}`);
    const r = run([
      'generate',
      '--feed',
      feed,
      '--campaign',
      fx('campaign.json'),
      '--rsa',
      fx('rsa.json'),
      '--out',
      out,
      '--today',
      '20261122',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Read 10 rows from');
    const report = csvRecords(
      readFileSync(path.join(out, 'adloom-report.csv'), 'utf8').replace(/^\uFEFF/, ''),
    ).slice(1);
    const rowLines = report
      .map((line) => line.split(',')[2] as string)
      .filter((l) => l !== '')
      .map(Number);
    expect(rowLines.length).toBeGreaterThan(0);
    for (const l of rowLines) expect(rowStarts).toContain(l);
    const mine = report.filter((line) => /,(cell-truncated|formula-start),/.test(line));
    expect(mine).toEqual([
      `cleaned,feed,8,cell-truncated,"root cut to 30 characters: ""${long}"""`,
      'warning,feed,9,formula-start,"Root ""=HYPERLINK(""http://x"")"" starts with ""="", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed"',
      'warning,feed,9,formula-start,"Modifier ""+49"" starts with ""+"", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed"',
      'warning,feed,9,formula-start,"Var 1 ""-20%"" starts with ""-"", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed"',
      'warning,feed,10,formula-start,"Root ""@home"" starts with ""@"", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed"',
    ]);
    expect(r.stdout).toContain('  line 8, feed: root cut to 30 characters');
    expect(r.stdout).toContain('  line 10, feed: Root "@home" starts with "@"');
    // The Editor files keep the text as typed; accents, CJK and emoji are kept.
    const adGroups = readFileSync(path.join(out, 'ad-groups.csv'), 'utf8');
    expect(adGroups).toContain('@home sale Broad');
    expect(adGroups).toContain('東京 靴 Broad');
    expect(adGroups).toContain('Café crème Broad');
    expect(readFileSync(path.join(out, 'campaigns.csv'), 'utf8')).toContain(
      '"Shoes - =HYPERLINK(""http://x"")"',
    );
  });
});

describe('adloom reports what Google would reject', () => {
  it('prints template warnings first, unusable final URLs, cleaned notation and short fallbacks', () => {
    const feed = tmp('reports.csv');
    writeFileSync(
      feed,
      'root,mod,url\r\n' +
        'Nike,Air,www.nike.example/air\r\n' +
        '-Puma,Suede,https://puma.example\r\n' +
        'Sale,sale,https://sale.example\r\n',
    );
    const campaign = tmp('reports-campaign.json');
    writeFileSync(
      campaign,
      JSON.stringify({
        campaign: 'Shoes',
        adGroup: '{root}',
        keywords: [
          { keyword: '{root} {mod}', matchType: 'Broad' },
          { keyword: '-{mod} outlet', matchType: 'Negative Broad' },
        ],
      }),
    );
    const rsa = tmp('reports-rsa.json');
    writeFileSync(
      rsa,
      JSON.stringify({
        templates: [
          { headlines: ['{root}', '{mod}'], descriptions: ['d', 'e'] },
          { headlines: ['{root}', '{mod}', 'Buy {KeyWord}'], descriptions: ['d', 'e'] },
        ],
      }),
    );
    const out = tmp('reports');
    const r = run(['generate', '--feed', feed, '--campaign', campaign, '--rsa', rsa, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const summary = r.stdout.slice(r.stdout.indexOf('Skipped:'));
    expect(summary).toBe(
      [
        'Skipped: 2 items from 2 feed rows',
        '  line 2, responsive search ads: Ad group "Nike": Final URL "www.nike.example/air" is not an http:// or https:// address; no ad is made',
        '  line 4, responsive search ads: Ad group "Sale": no valid fallback (2 headlines, at least 3 needed)',
        'Cleaned: 4 items from 3 feed rows',
        '  line 2, keywords: Removed the leading - (negative keyword notation) from "-Air outlet" -> "air outlet" (negative)',
        '  line 3, keywords: Removed the leading - (negative keyword notation) from "-Puma Suede" -> "puma suede"',
        '  line 3, keywords: Removed the leading - (negative keyword notation) from "-Suede outlet" -> "suede outlet" (negative)',
        '  line 4, keywords: Removed the leading - (negative keyword notation) from "-sale outlet" -> "sale outlet" (negative)',
        'Warnings: 2 items from 1 feed row and the templates',
        '  template, responsive search ads: Fallback 2, Headline 3 "Buy {KeyWord}": {KeyWord} has no default text (write {KeyWord:default text}); it is counted as 10 characters',
        '  line 3, feed: Root "-Puma" starts with "-", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed',
        '',
      ].join('\n'),
    );
    expect(readFileSync(path.join(out, 'keywords.csv'), 'utf8')).toContain(
      'Shoes,-Puma,puma suede,Broad',
    );
  });
});

describe('adloom help and usage', () => {
  it('documents every option and the exit codes', () => {
    const r = run(['--help']);
    expect(r.code).toBe(0);
    for (const s of [
      'generate',
      '--feed',
      '--campaign',
      '--rsa',
      '--pmax',
      '--extension',
      '--legacy-ad',
      '--out',
      '--today',
      '--label',
      'plan',
      '--previous',
      '--account',
      '--dropped',
      'adloom-build.json',
      'adloom-plan.csv',
      'Exit codes',
    ]) {
      expect(r.stdout).toContain(s);
    }
  });

  it.each([
    [['generate', '--campaign', 'x.json', '--out', 'o'], 'missing --feed'],
    [
      ['generate', '--feed', 'f.csv', '--campaign', 'c.json', '--out', 'o', '--bogus'],
      "Unknown option '--bogus'",
    ],
    [['publish'], 'unknown command "publish"'],
    [['plan', '--feed', 'f', '--campaign', 'c', '--out', 'o'], 'plan needs one baseline'],
    [
      ['plan', '--feed', 'f', '--campaign', 'c', '--out', 'o', '--previous', 'p', '--account', 'a'],
      'plan needs one baseline',
    ],
    [
      ['plan', '--feed', 'f', '--campaign', 'c', '--out', 'o', '--previous', 'p', '--dropped', 'x'],
      '--dropped must be pause, remove, keep',
    ],
    [
      ['plan', '--feed', 'f', '--campaign', 'c', '--out', 'o', '--previous', 'p', '--stdout'],
      'plan writes into --out',
    ],
    [
      ['generate', '--feed', 'f', '--campaign', 'c', '--out', 'o', '--previous', 'p'],
      '--previous is an option of "plan"',
    ],
    [
      ['generate', '--feed', 'f', '--campaign', 'c', '--out', 'o', '--today', '20261340'],
      '--today must be a date as YYYYMMDD',
    ],
  ])('%j exits 2 with %s', (args, message) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('adloom bad input writes nothing', () => {
  const writeFixture = (name: string, text: string) => {
    const p = tmp(name);
    writeFileSync(p, text);
    return p;
  };

  it.each([
    [
      'a missing feed',
      () => ['--feed', tmp('nope.csv'), '--campaign', fx('campaign.json')],
      'Feed file not found',
    ],
    [
      'a missing template',
      () => ['--feed', fx('feed.csv'), '--campaign', tmp('nope.json')],
      'Campaign template file not found',
    ],
    [
      'invalid JSON',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        writeFixture('bad.json', '{\n  "campaign": "x",\n  "adGroup": \n}'),
      ],
      'bad.json at line 4, column 1',
    ],
    [
      'an unknown match type',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        writeFixture(
          'mt.json',
          JSON.stringify({
            campaign: '{root}',
            adGroup: '{root}',
            keywords: [{ keyword: '{root}', matchType: 'Fuzzy' }],
          }),
        ),
      ],
      'keywords[0].matchType: unknown match type "Fuzzy"',
    ],
    [
      'an unknown field',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        fx('campaign.json'),
        '--rsa',
        writeFixture(
          'rsa-field.json',
          JSON.stringify({ templates: [{ headlines: ['a'], descriptions: ['b'], headline: 'x' }] }),
        ),
      ],
      'templates[0]: unknown field "headline"',
    ],
    [
      'an unknown placeholder',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        writeFixture('ph.json', JSON.stringify({ campaign: '{brand}' })),
      ],
      'campaign: unknown placeholder {brand}',
    ],
    [
      'a feed with no recognised column',
      () => [
        '--feed',
        writeFixture('cols.csv', 'brand,price\nnike,10\n'),
        '--campaign',
        fx('campaign.json'),
      ],
      'No recognised column in the header row ("brand", "price")',
    ],
    [
      'an RSA template for a performance campaign',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        fx('pmax-campaign.json'),
        '--rsa',
        fx('rsa.json'),
      ],
      'Responsive search ads cannot be generated for performance campaigns',
    ],
    [
      'a Performance Max template for a search campaign',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        fx('campaign.json'),
        '--pmax',
        fx('pmax.json'),
      ],
      'Performance ads cannot be generated for Search campaigns',
    ],
    [
      'an unknown extension type',
      () => [
        '--feed',
        fx('feed.csv'),
        '--campaign',
        fx('campaign.json'),
        '--extension',
        writeFixture('ext.json', JSON.stringify({ extensionType: 'Price', templates: [{}] })),
      ],
      'unknown extension type "Price"',
    ],
  ])('%s: exit 1, a clear message, no output folder', (_name, args, message) => {
    const out = tmp(`never-${Math.random().toString(36).slice(2)}`);
    const r = run(['generate', ...args(), '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('Nothing was written.');
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('leaves an existing output folder untouched', () => {
    const out = tmp('untouched');
    mkdirSync(out);
    writeFileSync(path.join(out, 'keywords.csv'), 'previous run');
    const r = run([
      'generate',
      '--feed',
      fx('feed.csv'),
      '--campaign',
      fx('campaign.json'),
      '--rsa',
      tmp('missing-rsa.json'),
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(readdirSync(out)).toEqual(['keywords.csv']);
    expect(readFileSync(path.join(out, 'keywords.csv'), 'utf8')).toBe('previous run');
  });
});

describe('JSON error positions', () => {
  it.each<[string, number | undefined]>([
    ['{\n  "a": 1,\n  "b": \n}', 20],
    ['{"a": [1, 2,]}', 12],
    ['', 0],
    ['{"a": "x"} x', 11],
    ['{"a": tru}', 6],
    ['{"a": 1}', undefined],
  ])('%j fails at %s', async (text, offset) => {
    const { findJsonErrorOffset } = await import('../src/files.ts');
    expect(findJsonErrorOffset(text)).toBe(offset);
  });
});

describe('the compiled code kept for the next runs', () => {
  it("keeps each thread's code after a generation, for the build it was made from only", () => {
    run(['--help']); // builds dist/adloom.cjs when it is missing or old
    const dist = path.resolve(here, '../dist');
    const header = `${readFileSync(path.join(dist, 'adloom.cjs'), 'utf8').split('\n')[0]}\n`;
    expect(header).toMatch(/^\/\/ adloom build [0-9a-f]{16}\n$/);
    // Caches of another build: never given to V8 (their header differs), and replaced.
    const caches = ['adloom.cache', 'adloom-ads.cache'].map((f) => path.join(dist, f));
    for (const c of caches) writeFileSync(c, '// adloom build 0000000000000000\nnot code');
    const generate = (out: string) => {
      const options = {
        '--feed': fx('feed.csv'),
        '--campaign': fx('campaign.json'),
        '--rsa': fx('rsa.json'),
        '--out': out,
        '--today': '20261122',
      };
      return run(['generate', ...Object.entries(options).flat()]);
    };
    const out = tmp('kept-code');
    const r = generate(out);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const c of caches) {
      const kept = readFileSync(c);
      expect(kept.subarray(0, header.length).toString(), c).toBe(header);
      expect(kept.length, c).toBeGreaterThan(header.length + 1000);
    }
    // The next run reads them and writes the same files.
    const again = tmp('kept-code-again');
    const r2 = generate(again);
    expect(r2.code).toBe(0);
    for (const f of readdirSync(out))
      expect(written(path.join(again, f)).equals(written(path.join(out, f))), f).toBe(true);
  });
});

describe("the ads' own thread", () => {
  // The fixture's template has three ad groups a row ({mt}); the other one group a row, whose
  // look-ahead keys the rows on both threads (half each).
  it.each([
    ['{mt} ad groups', 'campaign.json'],
    ['one ad group a row', 'campaign-one-group.json'],
  ])(
    'writes what one thread writes (%s), over many batches of ad groups with items on both threads',
    async (name, template) => {
      // 3,000 rows; some rows make keyword items, some RSA items (a root too long for a headline,
      // no final URL), some both, some repeat an earlier row (one ad group for both).
      const campaignFile = tmp(template);
      const fixture = JSON.parse(readFileSync(path.join(fixtures, 'campaign.json'), 'utf8'));
      if (!existsSync(campaignFile))
        writeFileSync(
          campaignFile,
          JSON.stringify(
            template === 'campaign.json' ? fixture : { ...fixture, adGroup: '{root} {mod}' },
          ),
        );
      const feed = tmp('threads-feed.csv');
      const lines = ['Root,Modifier,Var 1,Final URL'];
      for (let i = 0; i < 3000; i++) {
        const root =
          i % 97 === 0
            ? `Extraordinarily Long Root Name ${i}`
            : i % 89 === 0
              ? `Puma, ${i}`
              : `brand ${i}`;
        const url = i % 101 === 0 ? '' : `https://shoes.example/${i}`;
        lines.push(i % 113 === 0 ? (lines[1] as string) : `"${root}",shoes,red,${url}`);
      }
      writeFileSync(feed, lines.join('\n'));
      const args = (out: string) => [
        'generate',
        '--feed',
        feed,
        '--campaign',
        campaignFile,
        '--rsa',
        path.join(fixtures, 'rsa.json'),
        '--legacy-ad',
        path.join(fixtures, 'legacy-ad.json'),
        '--extension',
        path.join(fixtures, 'sitelink.json'),
        '--out',
        out,
        '--today',
        '20261122',
      ];
      // The command as users run it: ads on their own thread.
      const threaded = tmp(`threads-two-${template}`);
      const r = run(args(threaded));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // The same run in this process, with no compiled command to start a thread from.
      const { runCli } = await import('../src/cli.ts');
      const single = tmp(`threads-one-${template}`);
      let stdout = '';
      let stderr = '';
      const code = await runCli(args(single), {
        stdout: (s) => (stdout += s),
        stderr: (s) => (stderr += s),
      });
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(r.stdout.split(threaded).join('OUT')).toBe(stdout.split(single).join('OUT'));
      expect(stdout).toMatch(/Skipped: \d+ items from \d+ feed rows/);
      const files = readdirSync(single).sort();
      expect(readdirSync(threaded).sort()).toEqual(files);
      expect(files).toContain('responsive-search-ads.csv');
      for (const f of files)
        expect(written(path.join(threaded, f)).equals(written(path.join(single, f))), f).toBe(true);
      const report = readFileSync(path.join(single, 'adloom-report.csv'), 'utf8');
      expect(report).toContain('skipped,responsive search ads,');
      expect(report).toContain('cleaned,keywords,');
    },
  );

  it("fails the run with the thread's error instead of waiting for it", async () => {
    const { AdsThread } = await import('../src/adsThread.ts');
    const { PackedFeedRows } = await import('../src/feed.ts');
    run(['--help']); // builds dist/adloom.cjs when it is missing or old
    const thread = new AdsThread(pathToFileURL(path.resolve(here, '../bin/compiled.cjs')));
    const rows = new PackedFeedRows();
    rows.add(
      { root: 'nike', mod: 'shoes', var1: '', var2: '', var3: '', url: 'https://n.example' },
      2,
    );
    thread.begin({
      feed: rows.share(),
      rsa: JSON.parse(readFileSync(path.join(fixtures, 'rsa.json'), 'utf8')),
      legacy: undefined,
      today: '20261122',
      constant: 'Shoes',
      // A descriptor that is not open: the thread's first write fails.
      rsaFd: 1_000_000,
      reportFd: undefined,
    });
    thread.add({ key: '', campaign: 'Shoes', adGroup: 'nike shoes', id: '1' });
    await expect(thread.finish()).rejects.toThrow(/The ads' thread failed: .*EBADF/s);
    await thread.stop();
  });
});

/**
 * Issue 36, the export audit's second round: what Google rejects never leaves the command, and
 * nothing is dropped without a word. Each case is one of the audit's nasty feeds, made small.
 */
describe('adloom generate: nothing Google rejects is written (issue 36)', () => {
  /** Writes `name.csv` (with a header) and the JSON files, runs generate, returns the files. */
  function generate(
    name: string,
    feed: string[],
    templates: Record<string, unknown>,
  ): { report: string; stdout: string; file: (f: string) => string } {
    const dir = tmp(name);
    mkdirSync(dir, { recursive: true });
    const feedFile = path.join(dir, 'feed.csv');
    writeFileSync(feedFile, ['Root,Modifier,Var 1,Final URL', ...feed].join('\n') + '\n');
    const args = ['generate', '--feed', feedFile, '--today', '20261122'];
    for (const [flag, json] of Object.entries(templates)) {
      const file = path.join(dir, `${flag}-${args.length}.json`);
      writeFileSync(file, JSON.stringify(json));
      args.push(`--${flag}`, file);
    }
    const out = path.join(dir, 'out');
    args.push('--out', out);
    const r = run(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const file = (f: string): string =>
      existsSync(path.join(out, f)) ? readFileSync(path.join(out, f), 'utf8') : '';
    return { report: file('adloom-report.csv'), stdout: r.stdout, file };
  }
  const campaign = JSON.parse(readFileSync(path.join(fixtures, 'campaign.json'), 'utf8'));
  const rsa = JSON.parse(readFileSync(path.join(fixtures, 'rsa.json'), 'utf8'));
  const sitelink = JSON.parse(readFileSync(path.join(fixtures, 'sitelink.json'), 'utf8'));

  it('writes no ad or sitelink for a final URL Google refuses, and never cuts a URL', () => {
    const long = `https://www.shoes.example/${'p'.repeat(2100)}`;
    const bad = [
      'https://www.sho es.example/a',
      'https://www.shoes.example/ni\u200bke',
      'https://user:pw@www.shoes.example/c',
      'http://localhost/d',
      long,
    ];
    const { report, file } = generate(
      'urls',
      [
        'good,one,x,https://www.shoes.example/good',
        ...bad.map((url, i) => `bad${i},one,x,"${url}"`),
      ],
      { campaign, rsa, extension: sitelink },
    );
    const written = file('responsive-search-ads.csv') + file('sitelinks.csv');
    expect(written).toContain('https://www.shoes.example/good');
    for (const url of bad) expect(written).not.toContain(url.slice(0, 40));
    expect(written).not.toContain('pppppppppp');
    // The audit saw "url cut to 30 characters": the URL is neither cut nor reported as cut.
    expect(report).not.toContain('cell-truncated');
    expect(report).toContain(
      'invalid-final-url,"Ad group ""bad0 one Broad"": Final URL ""https://www.sho es.example/a"" has a space (U+0020), which a web address cannot hold; no ad is made"',
    );
    expect(report).toContain('has a zero-width space (U+200B)');
    expect(report).toContain('has a user name or password before its host');
    expect(report).toContain('points at localhost');
    expect(report).toContain('has 2126 characters (max 2048)');
    expect(report.match(/skipped,sitelink extensions,/g)).toHaveLength(bad.length);
  });

  it("writes each row's valid location ID to its campaign; damaged IDs and empty ones are reported", () => {
    const geo = {
      ...campaign,
      campaign: 'Geo - {mod}',
      settings: { ...campaign.settings, isLocationCampaign: true },
    };
    const { report, file } = generate(
      'locations',
      [
        ',London,a,https://www.shoes.example/a',
        '1.00689E+06,London,b,https://www.shoes.example/b',
        '1006886,London,c,https://www.shoes.example/c',
        '2826.0,London,d,https://www.shoes.example/d',
        '00123,Leeds,e,https://www.shoes.example/e',
        'abc,Leeds,f,https://www.shoes.example/f',
      ],
      { campaign: geo },
    );
    // Location ID is the fourth column (after Budget); Leeds has no valid ID: not written.
    expect(
      file('campaigns.csv')
        .replace(/^\uFEFF/, '')
        .split('\r\n'),
    ).toEqual([
      'Campaign,Campaign Type,Budget,Location ID,Networks,Languages,Labels',
      'Geo - London,Search,20,,Google search,en,adloom',
      'Geo - London,,,1006886,,,',
      'Geo - London,,,2826,,,',
      '',
    ]);
    expect(file('keywords.csv')).not.toContain('Leeds');
    expect(report.match(/,no-valid-location,/g)).toHaveLength(4);
    expect(report).toContain('location-id-repaired');
  });
});
