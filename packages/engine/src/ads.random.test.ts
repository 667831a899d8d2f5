/**
 * `generateResponsiveSearchAds` (fast path: facts per row, lengths, editorial facts and duplicate
 * hashes composed from pieces) against a plain reference on randomized feeds and templates: every
 * text filled with `fillPattern`, measured with `countAdTextLength`, judged by scanning the whole
 * text with `findEditorialProblems`, duplicates found by comparing texts.
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
  findEditorialProblems,
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
  if (next() < 0.4) {
    // Mostly different static texts (a few repeat, ignoring case).
    const n = next() < 0.9 ? ` ${Math.floor(next() * 1000)}` : '';
    return pick(next, ['Free delivery', 'free delivery', 'Shop now', 'ＳＨＯＰ']) + n;
  }
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
      pos: next() < 0.5 ? 1 : 0,
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

const TEMPLATE_WARNING = {
  kind: 'warning',
  rowId: '',
  rowNumber: 0,
  code: 'insertion-without-default',
} as const;

function failure(field: string, index: number, text: string, code: string, reason: string) {
  return { field, index, text, length: 0, min: 0, max: 0, code, reason };
}

function checkCount(field: string, texts: readonly unknown[], min: number, max: number) {
  if (texts.length < min || texts.length > max)
    return { field, index: 0, text: '', length: 0, min, max, count: texts.length };
  return undefined;
}

/** Positions 1..maxPin each need a text pinned there or unpinned. */
function checkPins(field: string, texts: readonly PinnedText[], maxPin: number) {
  if (texts.some((t) => t.pos <= 0 || t.pos > maxPin)) return undefined;
  for (let p = 1; p <= maxPin; p++) {
    if (texts.some((t) => t.pos === p)) continue;
    const lower = field.toLowerCase();
    return failure(
      `${field} position`,
      p - 1,
      '',
      'pins-leave-position-empty',
      `has no ${lower}: every ${lower} is pinned to another position (unpin one, or pin one of the ${lower}s to ${p})`,
    );
  }
  return undefined;
}

/**
 * The first failure of a list of template texts filled for a row: a placeholder with nothing,
 * a length, an editorial rule (scanning the whole filled text), or a repeat ignoring case.
 */
function checkList(
  field: string,
  sources: readonly string[],
  row: FeedRow,
  min: number,
  max: number,
  isHeadline: boolean,
  isDistinct: boolean,
): { texts: string[]; failure?: TextFailure } {
  const texts: string[] = [];
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i]!;
    const pattern = compilePattern(source);
    const empty = pattern.slots.find((slot) =>
      slot === 'const' || slot === 'mt' ? true : (row[slot] ?? '').trim() === '',
    );
    if (empty)
      return {
        texts,
        failure: failure(
          field,
          i,
          source,
          'empty-placeholder',
          `has {${empty}}, which is empty for this row`,
        ),
      };
    const text = fillPattern(pattern, { row });
    const bad = check(field, i, text, min, max);
    if (bad) return { texts, failure: bad };
    const problem =
      text === ''
        ? undefined
        : findEditorialProblems(text, isHeadline).find((p) => p.code !== 'spacing');
    if (problem) return { texts, failure: failure(field, i, text, problem.code, problem.message) };
    texts.push(text);
  }
  if (isDistinct) {
    for (let i = 1; i < texts.length; i++) {
      const j = texts.slice(0, i).findIndex((u) => equalsIgnoringCase(u, texts[i]!));
      if (j >= 0)
        return {
          texts,
          failure: failure(
            field,
            i,
            texts[i]!,
            'duplicate-text',
            `repeats ${field.toLowerCase()} ${j + 1} after substitution (Google rejects duplicates, ignoring case)`,
          ),
        };
    }
  }
  return { texts };
}

function urlFailure(row: FeedRow): TextFailure | undefined {
  const url = row.url.trim();
  const shown = url.length > 60 ? `"${url.slice(0, 60)}..."` : `"${url}"`;
  if (url === '')
    return failure('Final URL', -1, '', 'missing-final-url', 'is missing (Google needs one)');
  if (url.length > 2048)
    return failure(
      'Final URL',
      -1,
      '',
      'invalid-final-url',
      `${shown} has ${url.length} characters (max 2048)`,
    );
  if (!/^https?:\/\/\w/.test(url))
    return failure(
      'Final URL',
      -1,
      '',
      'invalid-final-url',
      `${shown} is not an http:// or https:// address`,
    );
  return undefined;
}

function referenceRsa(input: GenerateResponsiveSearchAdsInput): {
  ads: RsaAd[];
  issues: RowIssue[];
} {
  const output = 'responsive search ads';
  const ads: RsaAd[] = [];
  const issues: RowIssue[] = [];
  const rows: FeedRow[] = Array.from({ length: input.rows.length }, (_, i) => input.rows.at(i)!);
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
    const at = rows.findIndex((r) => r.id === g.id);
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
    const row = rows[at] as FeedRow;
    let chosen: { index: number; h: string[]; d: string[]; p: string[] } | undefined;
    let firstFailure: TextFailure | undefined;
    for (let i = 0; i < fallbacks.length && !chosen; i++) {
      const f = fallbacks[i]!;
      const h = checkList(
        'Headline',
        f.headlines.map((x) => x.text),
        row,
        AD_TEXT_MIN_CHARS,
        RSA_HEADLINE_MAX_CHARS,
        true,
        true,
      );
      const d = checkList(
        'Description',
        f.descriptions.map((x) => x.text),
        row,
        AD_TEXT_MIN_CHARS,
        RSA_DESCRIPTION_MAX_CHARS,
        false,
        true,
      );
      const paths = [f.paths[0] ?? '', f.paths[1] ?? ''];
      const p = checkList('Path', paths, row, 0, RSA_PATH_MAX_CHARS, false, false);
      const bad =
        urlFailure(row) ??
        checkCount('Headline', f.headlines, 3, 15) ??
        checkCount('Description', f.descriptions, 2, 4) ??
        checkPins('Headline', f.headlines, 3) ??
        checkPins('Description', f.descriptions, 2) ??
        h.failure ??
        d.failure ??
        p.failure ??
        (p.texts[0] === '' && p.texts[1] !== ''
          ? failure(
              'Path',
              0,
              '',
              'path-order',
              'is empty while path 2 is set (Google needs path 1 first)',
            )
          : undefined);
      if (bad) firstFailure ??= bad;
      else chosen = { index: i, h: h.texts, d: d.texts, p: p.texts };
    }
    if (!chosen) {
      const code = firstFailure?.code;
      const isUrl = code === 'missing-final-url' || code === 'invalid-final-url';
      issues.push({
        kind: 'skipped',
        output,
        rowId: row.id,
        rowNumber: at + 1,
        code: isUrl ? code : 'no-valid-fallback',
        message: `Ad group "${g.adGroup}": ${
          !firstFailure
            ? 'The template has no fallback'
            : isUrl
              ? `${describeFailure(firstFailure)}; no ad is made`
              : `no valid fallback (${describeFailure(firstFailure)})`
        }`,
      });
      continue;
    }
    const f = fallbacks[chosen.index]!;
    ads.push({
      campaign: g.campaign,
      adGroup: g.adGroup,
      rowId: row.id,
      fallbackIndex: chosen.index,
      headlines: chosen.h,
      headlinePositions: f.headlines.map((t) => t.pos),
      descriptions: chosen.d,
      descriptionPositions: f.descriptions.map((t) => t.pos),
      paths: [chosen.p[0] ?? '', chosen.p[1] ?? ''],
      labels: f.labels.filter((l) => l.trim() !== '').map((l) => replaceLabelDate(l, input.today)),
      finalUrl: row.url.trim(),
    });
  }
  return { ads, issues };
}

describe('generateResponsiveSearchAds against the plain reference', () => {
  it('makes the same ads and issues on 400 random feeds and templates', () => {
    let ads = 0;
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
      skipped += want.issues.filter((i) => i.code === 'no-valid-fallback').length;
      for (const i of want.issues) {
        codes.add(i.code);
        if (i.code === 'no-valid-fallback')
          reasons.add(
            i.message.includes('after substitution (Google rejects duplicates')
              ? 'repeat'
              : i.message.includes('which is empty for this row')
                ? 'empty placeholder'
                : i.message.includes('is pinned to another position')
                  ? 'pins'
                  : i.message.includes('at least')
                    ? 'too few'
                    : i.message.includes('at most')
                      ? 'too many'
                      : / has \d+ characters|is empty\)/.test(i.message)
                        ? 'length'
                        : 'editorial',
          );
      }
    }
    // ... and every kind of issue, and every count rule.
    expect([...codes].sort()).toEqual([
      'insertion-without-default',
      'invalid-final-url',
      'missing-final-url',
      'missing-row',
      'no-valid-fallback',
    ]);
    expect([...reasons].sort()).toEqual([
      'editorial',
      'empty placeholder',
      'length',
      'pins',
      'repeat',
      'too few',
      'too many',
    ]);
    // The random cases must reach ads and rows without a valid fallback.
    expect(ads).toBeGreaterThan(50);
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
    expect(got.issues.filter((i) => i.message.includes('repeats')).length).toBe(3);
    expect(got).toEqual(referenceRsa(input));
  });

  it.each([
    // U+212A (Kelvin sign) lowercases to an ASCII "k": a fixed text without a hash that an ASCII
    // text repeats. "Ärger" has no hash either, fixed or filled.
    [['\u212A', 'Now', '{root}'], 'k', 'Headline 3 "k" repeats headline 1'],
    // The Kelvin sign is written in NFC, a K (issue 36).
    [['{root}', 'Now', '\u212A'], 'k', 'Headline 3 "K" repeats headline 1'],
    [['{root}', 'Now', 'ÄRGER', 'Ärger'], 'ärger', 'Headline 3 "ÄRGER" repeats headline 1'],
    [['Ärger', '{root} x', '{root}', 'Now'], 'ärger', 'Headline 3 "ärger" repeats headline 1'],
    [['Now', 'Ärger', 'ÄRGER', '{root}'], 'now', 'Headline 3 "ÄRGER" repeats headline 2'],
    [['Now', 'Ärger', 'Later', '{root}'], 'LATER', 'Headline 4 "LATER" repeats headline 3'],
  ])('finds repeats of fixed texts that are not ASCII: %j with %j', (headlines, root, reason) => {
    const template = restoreRsaTemplate({
      name: 'Wild',
      templates: [
        { headlines, descriptions: ['Buy {root} today', 'Fast'], paths: ['', ''], labels: [] },
      ],
    });
    const rows: FeedRow[] = [
      { id: 'r', root, mod: '', var1: '', var2: '', var3: '', url: 'https://a.example' },
    ];
    const input = {
      template,
      rows,
      adGroups: [{ campaign: 'C', adGroup: 'G', id: 'r' }],
      today: '20261123',
    };
    const got = generateResponsiveSearchAds(input);
    expect(got.issues.map((i) => i.message)).toEqual([
      `Ad group "G": no valid fallback (${reason} after substitution (Google rejects duplicates, ignoring case))`,
    ]);
    expect(got).toEqual(referenceRsa(input));
  });
});
