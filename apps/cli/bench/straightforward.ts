/**
 * The straightforward `adloom generate` the bench compares the command with, whole process
 * against whole process: the feed read whole and split into cells, each template text filled
 * with a regular expression per placeholder, keywords cleaned with regular expressions, every
 * line and ad kept in arrays of strings, each CSV cell quoted after a regular expression test,
 * each file joined and written at the end; `{mt}` ad groups (one a match type, an Exact keyword
 * also a Negative Exact of the Broad group) and RSA fallbacks (the first valid). It writes the
 * same files for the bench's `bench` and `mt` templates (the bench compares their line counts);
 * it is not the engine's rule set (no editorial rules, no reports, no keyword conflicts), so it
 * does less than the command.
 *
 *   node straightforward.mjs FEED.csv CAMPAIGN.json RSA.json OUT
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

interface Keyword {
  keyword: string;
  matchType: string;
}
interface Pinned {
  text: string;
  pos: number;
}

const [feedFile, campaignFile, rsaFile, out] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const campaign = JSON.parse(readFileSync(campaignFile, 'utf8')) as {
  const: string;
  campaign: string;
  adGroup: string;
  keywords: Keyword[];
};
const rsa = JSON.parse(readFileSync(rsaFile, 'utf8')) as {
  templates: Array<{ headlines: Pinned[]; descriptions: Pinned[]; paths: string[] }>;
};

const lines = readFileSync(feedFile, 'utf8')
  .replace(/^\uFEFF/, '')
  .split(/\r?\n/);
const header = (lines[0] as string).split(',').map((h) => h.trim().toLowerCase());
const column = (names: string[]) => header.findIndex((h) => names.includes(h));
const at = {
  root: column(['root']),
  mod: column(['mod', 'modifier']),
  var1: column(['var1', 'var 1']),
  var2: column(['var2', 'var 2']),
  var3: column(['var3', 'var 3']),
  url: column(['url', 'final url']),
};

function fill(text: string, values: Record<string, string>): string {
  let s = text;
  for (const [name, value] of Object.entries(values))
    s = s.replace(new RegExp(`\\{${name}\\}`, 'gi'), value);
  return s.replace(/\s+/g, ' ').trim();
}

function cleanKeyword(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}\p{M} #$&_\-"[\]'+./:]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cell(s: string): string {
  return /[",\r\n]|^ | $/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
const csvLine = (cells: string[]) => cells.map(cell).join(',');

const campaigns = new Map<string, true>();
const adGroups: string[] = [];
const seenGroups = new Set<string>();
const keywords: string[] = [];
const negatives: string[] = [];
const ads: string[] = [];
const positives = campaign.keywords.filter((k) => !k.matchType.startsWith('Negative'));
const templateNegatives = campaign.keywords.filter((k) => k.matchType.startsWith('Negative'));
const splitsByMatchType = /\{mt\}/i.test(campaign.adGroup);
for (let r = 1; r < lines.length; r++) {
  const line = lines[r] as string;
  if (line.trim() === '') continue;
  const cells = line.split(',').map((c) => c.trim());
  const values: Record<string, string> = { const: campaign.const };
  for (const [name, i] of Object.entries(at)) values[name] = i >= 0 ? (cells[i] ?? '') : '';
  const c = fill(campaign.campaign, values);
  campaigns.set(c, true);
  // The row's ad groups: one, or with {mt} one per match type of its keywords.
  const groupOf = (mt: string) => fill(campaign.adGroup, { ...values, mt });
  const rowGroups = splitsByMatchType
    ? [...new Set(positives.map((k) => k.matchType))].map(groupOf)
    : [groupOf('')];
  const seenKeywords = new Set<string>();
  const add = (g: string, keyword: string, matchType: string) => {
    if (keyword === '' || seenKeywords.has(`${g}\u001f${matchType}:${keyword}`)) return;
    seenKeywords.add(`${g}\u001f${matchType}:${keyword}`);
    (matchType.startsWith('Negative') ? negatives : keywords).push(
      csvLine([c, g, keyword, matchType]),
    );
  };
  const newGroups = rowGroups.filter((g) => {
    const groupKey = `${c}\u001f${g}`.toLowerCase();
    if (seenGroups.has(groupKey)) return false;
    seenGroups.add(groupKey);
    adGroups.push(csvLine([c, g]));
    return true;
  });
  if (newGroups.length === 0) continue;
  for (const k of positives) {
    const g = splitsByMatchType ? groupOf(k.matchType) : (rowGroups[0] as string);
    if (!newGroups.includes(g)) continue;
    const keyword = cleanKeyword(fill(k.keyword, values));
    add(g, keyword, k.matchType);
    // With {mt}, an Exact keyword is also a Negative Exact of the row's Broad group.
    if (splitsByMatchType && k.matchType === 'Exact')
      add(groupOf('Broad'), keyword, 'Negative Exact');
  }
  for (const g of newGroups)
    for (const k of templateNegatives) add(g, cleanKeyword(fill(k.keyword, values)), k.matchType);
  const url = values.url as string;
  if (!/^https?:\/\//i.test(url)) continue;
  for (const g of newGroups)
    for (const t of rsa.templates) {
      const headlines = t.headlines.map((h) => fill(h.text, values));
      const descriptions = t.descriptions.map((d) => fill(d.text, values));
      const paths = t.paths.map((p) => fill(p, values));
      const isValid =
        headlines.every((h) => h.length > 0 && h.length <= 30) &&
        descriptions.every((d) => d.length > 0 && d.length <= 90) &&
        paths.every((p) => p.length <= 15) &&
        new Set(headlines.map((h) => h.toLowerCase())).size === headlines.length;
      if (!isValid) continue;
      const row = [c, g, 'Responsive search ad'];
      for (let i = 0; i < 15; i++) row.push(headlines[i] ?? '');
      for (let i = 0; i < 15; i++) row.push(t.headlines[i]?.pos ? String(t.headlines[i]?.pos) : '');
      for (let i = 0; i < 4; i++) row.push(descriptions[i] ?? '');
      for (let i = 0; i < 4; i++)
        row.push(t.descriptions[i]?.pos ? String(t.descriptions[i]?.pos) : '');
      row.push(paths[0] ?? '', paths[1] ?? '', url, '');
      ads.push(csvLine(row));
      break;
    }
}

mkdirSync(out, { recursive: true });
const write = (name: string, headerLine: string, body: string[]) =>
  writeFileSync(path.join(out, name), `\uFEFF${[headerLine, ...body].join('\r\n')}\r\n`);
write(
  'campaigns.csv',
  'Campaign,Campaign Type',
  [...campaigns.keys()].map((c) => csvLine([c, 'Search'])),
);
write('ad-groups.csv', 'Campaign,Ad Group', adGroups);
write('keywords.csv', 'Campaign,Ad Group,Keyword,Criterion Type', keywords);
write('negatives.csv', 'Campaign,Ad Group,Keyword,Criterion Type', negatives);
write('responsive-search-ads.csv', 'Campaign,Ad Group,Ad type,...', ads);
