/**
 * `adloom generate --format microsoft-advertising` (issue 40), run as the real command against
 * the fixtures: the Microsoft bulk file and its report beside the Editor files, holding the same
 * keywords and ads.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { csvRecordsOfFile } from '../src/fileTables.ts';
import { runAdloom } from './runCommand.ts';

vi.setConfig({ testTimeout: 60_000 });

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const fx = (name: string) => path.relative(repoRoot, path.join(here, 'fixtures', name));
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'adloom-ms-'));
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

const run = (args: string[]) => runAdloom(args, repoRoot);

const inputs = [
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
  '--today',
  '20261122',
];

/** A written CSV's records as objects under its header (the BOM checked and dropped). */
function recordsOf(file: string): Record<string, string>[] {
  expect(readFileSync(file, 'utf8').startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = [...csvRecordsOfFile(file)];
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
}

describe('adloom generate --format microsoft-advertising', () => {
  it('writes the bulk file and its report beside the Editor files, from the same build', () => {
    const out = path.join(tmpRoot, 'ms');
    const r = run(['generate', ...inputs, '--out', out, '--format', 'microsoft-advertising']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(out)).toEqual(
      expect.arrayContaining([
        'keywords.csv',
        'adloom-build.json',
        'microsoft-advertising.csv',
        'microsoft-advertising-report.csv',
      ]),
    );
    const bulk = recordsOf(path.join(out, 'microsoft-advertising.csv'));
    expect(bulk[0]).toMatchObject({ Type: 'Format Version', Name: '6.0' });
    const of = (type: string) => bulk.filter((b) => b.Type === type);
    // The same keywords and ads as the Editor files.
    const keywords = recordsOf(path.join(out, 'keywords.csv'));
    expect(
      of('Keyword').map((k) => `${k.Campaign}|${k['Ad Group']}|${k.Keyword}|${k['Match Type']}`),
    ).toEqual(
      keywords.map((k) => `${k.Campaign}|${k['Ad Group']}|${k.Keyword}|${k['Criterion Type']}`),
    );
    const ads = recordsOf(path.join(out, 'responsive-search-ads.csv'));
    expect(
      of('Responsive Search Ad').map((a) => {
        const heads = JSON.parse(a.Headline!) as { text: string }[];
        return `${a.Campaign}|${a['Ad Group']}|${heads[0]!.text}`;
      }),
    ).toEqual(ads.map((a) => `${a.Campaign}|${a['Ad Group']}|${a['Headline 1']}`));
    expect(of('Ad Group').length).toBe(recordsOf(path.join(out, 'ad-groups.csv')).length);
    expect(of('Campaign').length).toBeGreaterThan(0);
    // The summary says what each file holds.
    expect(r.stdout).toMatch(/microsoft-advertising\.csv: \d+ Campaign, \d+ Ad Group, \d+ Keyword/);
    expect(r.stdout).toMatch(/microsoft-advertising-report\.csv: \d+ items? not written/);
    const report = recordsOf(path.join(out, 'microsoft-advertising-report.csv'));
    for (const line of report) expect(line.Reason).not.toBe('');
  });

  it('takes google-ads-editor as the default, and refuses what it cannot do', () => {
    const out = path.join(tmpRoot, 'editor');
    const r = run(['generate', ...inputs, '--out', out, '--format', 'google-ads-editor']);
    expect(r.code).toBe(0);
    expect(readdirSync(out)).not.toContain('microsoft-advertising.csv');
    const bad = run(['generate', ...inputs, '--out', out, '--format', 'bing']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--format must be google-ads-editor or microsoft-advertising, got "bing"',
    );
    const only = run([
      'generate',
      ...inputs,
      '--only',
      'keywords',
      '--stdout',
      '--format',
      'microsoft-advertising',
    ]);
    expect(only.code).toBe(2);
    const plan = run([
      'plan',
      ...inputs,
      '--previous',
      out,
      '--out',
      path.join(tmpRoot, 'plan'),
      '--format',
      'microsoft-advertising',
    ]);
    // A Microsoft plan needs the account's bulk download (its Ids): said plainly.
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('needs --account FILE, a bulk download of the Microsoft');
    expect(plan.stderr).toContain("names the item by Microsoft's Id");
  });
});

describe('adloom generate --microsoft-locations --google-geo', () => {
  // A location campaign per feed row: Berlin (1003854) is in the hand-made Microsoft file,
  // Berlin, Maryland (1018515) is in Google's extract but not in that file.
  const campaign = path.join(tmpRoot, 'location-campaign.json');
  const feed = path.join(tmpRoot, 'location-feed.csv');
  writeFileSync(
    campaign,
    JSON.stringify({
      name: 'Stores by location',
      type: 'search',
      const: 'Stores',
      campaign: '{const} - {root}',
      adGroup: '{mod} {mt}',
      keywords: [{ keyword: 'shoe store {mod}', matchType: 'Exact', selected: true }],
      settings: {
        budget: { value: 15, selected: true },
        location: { value: '', selected: false },
        isLocationCampaign: true,
        optionalSettings: [],
      },
    }),
  );
  writeFileSync(
    feed,
    'Root,Modifier,Final URL\n' +
      '1003854,Berlin,https://www.shoes.example/berlin\n' +
      '1018515,Berlin MD,https://www.shoes.example/berlin-md\n',
  );
  const microsoftFile = 'packages/engine/test/fixtures/microsoft-locations/geolocations-sample.csv';
  const googleFile = 'apps/server/test/fixtures/geo/geotargets-extract.csv';
  const args = (out: string, ...more: string[]) => [
    'generate',
    '--feed',
    feed,
    '--campaign',
    campaign,
    '--out',
    out,
    ...more,
  ];

  it('writes a mapped location as its Campaign Location Criterion, Active; an unmapped one paused and reported', () => {
    const out = path.join(tmpRoot, 'located');
    const r = run(
      args(
        out,
        '--format',
        'microsoft-advertising',
        '--microsoft-locations',
        microsoftFile,
        '--google-geo',
        googleFile,
      ),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bulk = recordsOf(path.join(out, 'microsoft-advertising.csv'));
    expect(
      bulk
        .filter((b) => b.Type === 'Campaign' || b.Type === 'Campaign Location Criterion')
        .map((b) => [b.Type, b.Campaign, b.Status, b.Target]),
    ).toEqual([
      ['Campaign', 'Stores - 1003854', 'Active', ''],
      ['Campaign Location Criterion', 'Stores - 1003854', 'Active', '700011'],
      ['Campaign', 'Stores - 1018515', 'Paused', ''],
    ]);
    // The criterion names its campaign by the campaign's reference key.
    const berlin = bulk.find((b) => b.Type === 'Campaign' && b.Campaign === 'Stores - 1003854')!;
    expect(bulk.find((b) => b.Type === 'Campaign Location Criterion')!['Parent Id']).toBe(
      berlin.Id,
    );
    const report = recordsOf(path.join(out, 'microsoft-advertising-report.csv'));
    expect(report.map((l) => [l.Type, l.Campaign, l.Item, l.Outcome])).toEqual([
      ['Campaign Location Criterion', 'Stores - 1018515', '1018515', 'Not written'],
      ['Campaign', 'Stores - 1018515', 'Stores - 1018515', 'Paused'],
    ]);
    expect(report[0]!.Reason).toContain(
      'Google location 1018515 (City "Berlin,Maryland,United States"): no Microsoft location has its name',
    );
    expect(r.stdout).toContain('1 Campaign Location Criterion');
    expect(r.stdout).toContain(
      'locations: 1 of 2 Google locations mapped to Microsoft Location Ids (1 not: see microsoft-advertising-report.csv)',
    );
  });

  it('without the files, every location is reported and the campaigns are paused, as before', () => {
    const out = path.join(tmpRoot, 'unlocated');
    const r = run(args(out, '--format', 'microsoft-advertising'));
    expect(r.code).toBe(0);
    const bulk = recordsOf(path.join(out, 'microsoft-advertising.csv'));
    expect(bulk.filter((b) => b.Type === 'Campaign Location Criterion')).toEqual([]);
    expect(bulk.filter((b) => b.Type === 'Campaign').map((b) => b.Status)).toEqual([
      'Paused',
      'Paused',
    ]);
    expect(r.stdout).not.toContain('locations:');
  });

  it('refuses the options without each other or the format, and a file that is not the one named', () => {
    const out = path.join(tmpRoot, 'refused');
    const alone = run(
      args(out, '--format', 'microsoft-advertising', '--microsoft-locations', microsoftFile),
    );
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--microsoft-locations needs --google-geo');
    const editor = run(
      args(out, '--microsoft-locations', microsoftFile, '--google-geo', googleFile),
    );
    expect(editor.code).toBe(2);
    expect(editor.stderr).toContain('--microsoft-locations is for --format microsoft-advertising');
    const swapped = run(
      args(
        out,
        '--format',
        'microsoft-advertising',
        '--microsoft-locations',
        googleFile,
        '--google-geo',
        microsoftFile,
      ),
    );
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toContain(
      `Microsoft locations file ${googleFile} is not Microsoft's geographical locations file`,
    );
    const missing = run(
      args(
        out,
        '--format',
        'microsoft-advertising',
        '--microsoft-locations',
        microsoftFile,
        '--google-geo',
        'no-such-geotargets.csv',
      ),
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Google geo targets file not found: no-such-geotargets.csv');
    expect(existsSync(out)).toBe(false);
  });
});
