/**
 * `generateResponsiveSearchAds` (fast path: facts per row, lengths and duplicate hashes composed
 * from pieces) against a plain reference on randomized feeds and templates: every text filled
 * with `fillPattern` and measured with `countAdTextLength`, duplicates found by comparing texts.
 */
import { describe, expect, it } from 'vitest';
import { pick, random } from '../test/helpers/random.ts';
import { replaceLabelDate } from './ads/shared.ts';
import {
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_HEADLINE_MAX_CHARS,
  RSA_PATH_MAX_CHARS,
  compilePattern,
  countAdTextLength,
  describeFailure,
  findAdTextIssues,
  generateResponsiveSearchAds,
  restoreRsaTemplate,
  type FeedRow,
  type GenerateResponsiveSearchAdsInput,
  type PinnedText,
  type RowIssue,
  type RsaAd,
  type TextFailure,
} from './index.ts';
import { AD_TEXT_MIN_CHARS } from './limits.ts';
import { fillPattern } from './text.ts';

const VALUES = [
  '',
  'Nike',
  'NIKE',
  'nike',
  'Air Max',
  'air max',
  'AIR  MAX',
  ' Puma',
  'Ärger',
  'ärger',
  'ÄRGER',
  '東京',
  'ＡＢＣ',
  '😀',
  '{',
  'keyword:abc}',
  '{KeyWord:x}',
  'a\u00a0',
  '\u00a0b',
  'tab\tx',
  'professional edition long name',
  'Shop',
  'SHOP',
  'Free',
  'x'.repeat(29),
];
const PIECES = ['{root}', '{mod}', '{var1}', '{ROOT}', '{Mod}'];
const LITERALS = [
  '',
  ' ',
  ' ',
  'Buy ',
  ' now',
  '  ',
  ' \t',
  '\u00a0',
  'Ä ',
  'ä ',
  '{KeyWord:Shoes} ',
  '{KeyWord} ',
  '{',
  '} ',
  '\u0001',
  'Free delivery',
  'FREE DELIVERY',
  ' delivery',
];

function text(next: () => number): string {
  if (next() < 0.2) return pick(next, ['Free delivery', 'free delivery', 'Shop now', 'ＳＨＯＰ']);
  let s = pick(next, LITERALS);
  const n = 1 + Math.floor(next() * 2);
  for (let i = 0; i < n; i++) s += pick(next, PIECES) + pick(next, LITERALS);
  return s;
}

function randomInput(seed: number): GenerateResponsiveSearchAdsInput {
  const next = random(seed);
  const pool = Array.from({ length: 2 + Math.floor(next() * 5) }, () => pick(next, VALUES));
  const value = (): string => (next() < 0.75 ? pick(next, pool) : pick(next, VALUES));
  const rows: FeedRow[] = Array.from({ length: Math.floor(next() * 25) }, (_, i) => ({
    id: `r${i % 20}`,
    root: value(),
    mod: value(),
    var1: value(),
    var2: '',
    var3: '',
    url: pick(next, [
      'https://a.example/x',
      ' https://b.example ',
      '',
      'www.c.example',
      `https://d.example/${'d'.repeat(2040)}`,
    ]),
  }));
  const fallback = () => ({
    headlines: Array.from({ length: 1 + Math.floor(next() * 16) }, () => ({
      text: text(next),
      pos: next() < 0.2 ? 1 + Math.floor(next() * 3) : 0,
    })),
    descriptions: Array.from({ length: 1 + Math.floor(next() * 5) }, () => ({
      text: text(next),
      pos: next() < 0.2 ? 1 : 0,
    })),
    paths: [pick(next, ['', '{mod}', 'deals', '{root}']), pick(next, ['', '{var1}', 'sale'])],
    labels: pick(next, [['yyyymmdd-v1'], ['x', 'YYYYMMDD-v2'], []]),
  });
  const template = restoreRsaTemplate({
    name: `R${seed}`,
    templates: Array.from({ length: Math.floor(next() * 4) }, fallback),
  });
  const adGroups = Array.from({ length: Math.floor(next() * 30) }, (_, i) => ({
    campaign: 'C',
    adGroup: `AG ${i}`,
    id: `r${Math.floor(next() * 24)}`,
  }));
  return { template, rows, adGroups, today: '20261123' };
}

// ---- The reference: the slow, obvious way. ----

function equalsIgnoringCase(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 128 || y >= 128) return a.toLowerCase() === b.toLowerCase();
    if ((x >= 65 && x <= 90 ? x + 32 : x) !== (y >= 65 && y <= 90 ? y + 32 : y)) return false;
  }
  return true;
}

function check(field: string, index: number, text: string, min: number, max: number) {
  if (text.length === 0 && min === 0) return undefined;
  const length = countAdTextLength(text);
  return length < min || length > max ? { field, index, text, length, min, max } : undefined;
}

/** Google's count rule: min..max entries, and min of them different ignoring case. */
const TEMPLATE_WARNING = {
  kind: 'warning',
  rowId: '',
  rowNumber: 0,
  code: 'insertion-without-default',
} as const;

function checkCount(field: string, texts: PinnedText[], min: number, max: number) {
  if (texts.length < min || texts.length > max)
    return { field, index: 0, text: '', length: 0, min, max, count: texts.length };
  const different: string[] = [];
  let repeated: string | undefined;
  for (const t of texts) {
    if (different.some((u) => equalsIgnoringCase(u, t.text))) repeated ??= t.text;
    else different.push(t.text);
  }
  if (different.length >= min) return undefined;
  const failure = { field, index: 0, text: repeated ?? '', length: 0, min, max };
  return { ...failure, count: different.length, isDistinctCount: true };
}

function referenceRsa(input: GenerateResponsiveSearchAdsInput): {
  ads: RsaAd[];
  issues: RowIssue[];
} {
  const output = 'responsive search ads';
  const ads: RsaAd[] = [];
  const issues: RowIssue[] = [];
  const fallbacks = input.template.templates;
  fallbacks.forEach((f, i) => {
    for (const [field, list] of [
      ['Headline', f.headlines],
      ['Description', f.descriptions],
    ] as const) {
      list.forEach((x, j) => {
        const tokens = findAdTextIssues(x.text)
          .filter((t) => t.code === 'insertion-without-default')
          .map((t) => t.token);
        for (const token of new Set(tokens))
          issues.push({
            ...TEMPLATE_WARNING,
            output,
            message: `Fallback ${i + 1}, ${field} ${j + 1} "${x.text}": ${token} has no default text (write ${token.slice(0, -1)}:default text}); it is counted as 10 characters`,
          });
      });
    }
  });
  for (const g of input.adGroups) {
    const at = input.rows.findIndex((r) => r.id === g.id);
    if (at < 0) {
      issues.push({
        kind: 'skipped',
        output,
        rowId: g.id,
        rowNumber: 0,
        code: 'missing-row',
        message: `No feed row for ad group "${g.adGroup}"`,
      });
      continue;
    }
    const row = input.rows[at] as FeedRow;
    const values = { row };
    const fill = (t: string): string => fillPattern(compilePattern(t), values);
    let chosen: { index: number; h: PinnedText[]; d: PinnedText[]; p: string[] } | undefined;
    let firstFailure: TextFailure | undefined;
    for (let i = 0; i < fallbacks.length && !chosen; i++) {
      const f = fallbacks[i]!;
      const h = f.headlines.map((x) => ({ text: fill(x.text), pos: x.pos }));
      const d = f.descriptions.map((x) => ({ text: fill(x.text), pos: x.pos }));
      const p = [fill(f.paths[0] ?? ''), fill(f.paths[1] ?? '')];
      const tooMany =
        h.length < 3 || h.length > 15 || d.length < 2 || d.length > 4
          ? (checkCount('Headline', h, 3, 15) ?? checkCount('Description', d, 2, 4))
          : undefined;
      const failure =
        tooMany ??
        h
          .map((x, j) => check('Headline', j, x.text, AD_TEXT_MIN_CHARS, RSA_HEADLINE_MAX_CHARS))
          .find(Boolean) ??
        checkCount('Headline', h, 3, 15) ??
        d
          .map((x, j) =>
            check('Description', j, x.text, AD_TEXT_MIN_CHARS, RSA_DESCRIPTION_MAX_CHARS),
          )
          .find(Boolean) ??
        checkCount('Description', d, 2, 4) ??
        p.map((x, j) => check('Path', j, x, 0, RSA_PATH_MAX_CHARS)).find(Boolean) ??
        (p[0] === '' && p[1] !== ''
          ? { field: 'Path', index: 0, text: '', length: 0, min: 1, max: RSA_PATH_MAX_CHARS }
          : undefined);
      if (failure) firstFailure ??= failure;
      else chosen = { index: i, h, d, p };
    }
    if (!chosen) {
      const reason = firstFailure
        ? `no valid fallback (${describeFailure(firstFailure)})`
        : 'The template has no fallback';
      issues.push({
        kind: 'skipped',
        output,
        rowId: row.id,
        rowNumber: at + 1,
        code: 'no-valid-fallback',
        message: `Ad group "${g.adGroup}": ${reason}`,
      });
      continue;
    }
    const duplicates: string[] = [];
    const dedupe = (texts: PinnedText[]): PinnedText[] => {
      let found = false;
      texts.forEach((t, i) => {
        if (texts.slice(0, i).some((u) => equalsIgnoringCase(u.text, t.text))) {
          duplicates.push(t.text);
          found = true;
        }
      });
      if (!found) return texts;
      const seen = new Set<string>();
      return texts.filter(
        (t) => !seen.has(t.text.toLowerCase()) && !!seen.add(t.text.toLowerCase()),
      );
    };
    const headlines = dedupe(chosen.h);
    const descriptions = dedupe(chosen.d);
    for (const dup of duplicates) {
      issues.push({
        kind: 'cleaned',
        output,
        rowId: row.id,
        rowNumber: at + 1,
        code: 'duplicate-asset',
        message: `Ad group "${g.adGroup}": "${dup}" appears twice after substitution; kept once`,
      });
    }
    const url = row.url.trim();
    if (url === '' || !/^https?:\/\/\w/.test(url) || url.length > 2048) {
      const shown = url.length > 60 ? `"${url.slice(0, 60)}..."` : `"${url}"`;
      issues.push({
        kind: 'warning',
        output,
        rowId: row.id,
        rowNumber: at + 1,
        code: url === '' ? 'missing-final-url' : 'invalid-final-url',
        message: `Ad group "${g.adGroup}": ${
          url === ''
            ? 'the row has no final URL'
            : url.length > 2048
              ? `the final URL ${shown} has ${url.length} characters (max 2048)`
              : `the final URL ${shown} is not an http:// or https:// address`
        }`,
      });
    }
    ads.push({
      campaign: g.campaign,
      adGroup: g.adGroup,
      rowId: row.id,
      fallbackIndex: chosen.index,
      headlines: headlines.map((t) => t.text),
      headlinePositions: headlines.map((t) => t.pos),
      descriptions: descriptions.map((t) => t.text),
      descriptionPositions: descriptions.map((t) => t.pos),
      paths: [chosen.p[0] ?? '', chosen.p[1] ?? ''],
      labels: fallbacks[chosen.index]!.labels.filter((l) => l.trim() !== '').map((l) =>
        replaceLabelDate(l, input.today),
      ),
      finalUrl: row.url.trim(),
    });
  }
  return { ads, issues };
}

describe('generateResponsiveSearchAds against the plain reference', () => {
  it('makes the same ads and issues on 400 random feeds and templates', () => {
    let ads = 0;
    let duplicates = 0;
    let skipped = 0;
    const codes = new Set<string>();
    const reasons = new Set<string>();
    for (let seed = 1; seed <= 400; seed++) {
      const input = randomInput(seed);
      const got = generateResponsiveSearchAds(input);
      const want = referenceRsa(input);
      if (JSON.stringify(got) !== JSON.stringify(want))
        expect({ seed, ...got }).toEqual({ seed, ...want });
      ads += want.ads.length;
      duplicates += want.issues.filter((i) => i.code === 'duplicate-asset').length;
      skipped += want.issues.filter((i) => i.code === 'no-valid-fallback').length;
      for (const i of want.issues) {
        codes.add(i.code);
        if (i.code === 'no-valid-fallback')
          reasons.add(
            i.message.includes('different')
              ? 'too few different'
              : i.message.includes('at least')
                ? 'too few'
                : i.message.includes('at most')
                  ? 'too many'
                  : 'text',
          );
      }
    }
    // ... and every kind of issue, and every count rule.
    expect([...codes].sort()).toEqual([
      'duplicate-asset',
      'insertion-without-default',
      'invalid-final-url',
      'missing-final-url',
      'missing-row',
      'no-valid-fallback',
    ]);
    expect([...reasons].sort()).toEqual(['text', 'too few', 'too few different', 'too many']);
    // The random cases must reach ads, duplicates and rows without a valid fallback.
    expect(ads).toBeGreaterThan(300);
    expect(duplicates).toBeGreaterThan(100);
    expect(skipped).toBeGreaterThan(100);
    // A generous timeout: the machine is shared; this is no speed check.
  }, 60_000);

  it('finds duplicates between texts filled from pieces, static texts and tidied texts', () => {
    const template = restoreRsaTemplate({
      name: 'Dup',
      templates: [
        {
          headlines: [
            '{root} now',
            'Shop now',
            'SHOP {mod}',
            '{root} {mod}',
            '  {root}   now ',
            '{mod} {root}',
            'Now shop',
            '{var1}',
          ],
          descriptions: ['Buy {root} today', 'buy shop today', 'Buy  {ROOT}  Today', 'Fast'],
          paths: ['', ''],
          labels: [],
        },
      ],
    });
    const rows: FeedRow[] = [
      ['Shop', 'now', 'Ärger'],
      ['SHOP', 'NOW', 'ärger'],
      ['shop', 'Later', '東京'],
    ].map(([root, mod, var1], i) => ({
      id: `r${i}`,
      root: root!,
      mod: mod!,
      var1: var1!,
      var2: '',
      var3: '',
      url: 'https://a.example',
    }));
    const input = {
      template,
      rows,
      adGroups: rows.map((r) => ({ campaign: 'C', adGroup: r.id, id: r.id })),
      today: '20261123',
    };
    const got = generateResponsiveSearchAds(input);
    expect(got.issues.filter((i) => i.code === 'duplicate-asset').length).toBeGreaterThan(8);
    expect(got).toEqual(referenceRsa(input));
  });
});
