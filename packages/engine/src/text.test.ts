import { describe, expect, it } from 'vitest';
import {
  compilePattern,
  countAdTextLength,
  fillPattern,
  findAdTextIssues,
  findUnknownPlaceholders,
  isDynamicInsertion,
  substitutePlaceholders,
  usedSlots,
} from './text.ts';

const row = {
  root: 'Nike',
  mod: 'Air Max',
  var1: 'Red',
  var2: '',
  var3: 'x',
  url: 'https://www.nike.com/air',
};

describe('placeholders', () => {
  it.each([
    ['{root} {mod}', 'Nike Air Max'],
    ['{ROOT} {Mod} {VAR1}', 'Nike Air Max Red'],
    ['Buy {root} {var2} now', 'Buy Nike now'],
    ['{const} - {root}', 'C1 - Nike'],
    ['{root} {mt}', 'Nike Exact'],
    ['{url}', 'https://www.nike.com/air'],
    ['{KeyWord:Shoes} for {root}', '{KeyWord:Shoes} for Nike'],
    ['{CUSTOMIZER.price:10} {LOCATION(City):here}', '{CUSTOMIZER.price:10} {LOCATION(City):here}'],
    ['{COUNTDOWN(2026-12-24 12:00:00,5)} left', '{COUNTDOWN(2026-12-24 12:00:00,5)} left'],
    ['{foo} {root}', '{foo} Nike'],
    ['  {var2}  ', ''],
  ])('%s -> %s', (pattern, expected) => {
    expect(substitutePlaceholders(pattern, { row, const: 'C1', mt: 'Exact' })).toBe(expected);
  });

  it('compiles once into parts and slots', () => {
    const p = compilePattern('a {root} b {KeyWord:x} {var1}');
    expect(p.parts).toEqual(['a ', ' b {KeyWord:x} ', '']);
    expect(p.slots).toEqual(['root', 'var1']);
    expect(fillPattern(p, { row })).toBe('a Nike b {KeyWord:x} Red');
  });

  it.each([
    ['KeyWord:Shoes', true],
    ['keyword', true],
    ['KEYWORD:x', true],
    ['CUSTOMIZER.price:9', true],
    ['LOCATION(City):Paris', true],
    ['COUNTDOWN(2026-01-01 00:00:00,3)', true],
    ['=IF(device=mobile,Call):Visit', true],
    ['root', false],
    ['foo', false],
  ])('isDynamicInsertion(%s) = %s', (inner, expected) => {
    expect(isDynamicInsertion(inner)).toBe(expected);
  });

  it('finds unknown placeholders only', () => {
    expect(findUnknownPlaceholders('{root} {rot} {KeyWord:a} {Var4}')).toEqual(['{rot}', '{Var4}']);
  });
});

describe('countAdTextLength', () => {
  it.each([
    ['', 0],
    ['Nike Air Max', 12],
    ['café', 4],
    ['日本語', 6],
    ['ＡＢＣ', 6],
    ['한국어 ok', 9],
    ['😀', 2],
    ['𝒜', 1],
    ['Buy {KeyWord:Shoes} now', 13],
    ['{KeyWord}', 10],
    ['{CUSTOMIZER.price:€10}', 3],
    ['{LOCATION(City):Paris} deals', 11],
    ['{COUNTDOWN(2026-12-24 12:00:00,5)}', 10],
    ['{root}', 6],
    ['a{b', 3],
  ])('%s counts %i', (text, expected) => {
    expect(countAdTextLength(text)).toBe(expected);
  });

  it('reports an insertion without default text', () => {
    expect(findAdTextIssues('{KeyWord} and {KeyWord:x}').map((i) => i.code)).toEqual([
      'insertion-without-default',
    ]);
    expect(findAdTextIssues('{foo}')[0]?.code).toBe('unknown-placeholder');
    expect(findAdTextIssues('{COUNTDOWN(2026-12-24 12:00:00,5)}')).toEqual([]);
  });
});

describe('measureFill (fast path) agrees with fillPattern + countAdTextLength', async () => {
  const { measureFill, newValueFacts, prepareValueFacts } = await import('./text.ts');
  const rows = [
    { root: 'Nike', mod: 'Air Max', var1: 'Red', var2: '', var3: '日本', url: 'u' },
    { root: ' Nike ', mod: 'Air  Max', var1: 'a\tb', var2: '{KeyWord:x}', var3: '😀', url: '' },
    { root: 'x', mod: 'y', var1: 'z', var2: 'w', var3: 'v', url: 'https://a.com' },
    { root: '{', mod: 'keyword:abc}', var1: '\u00a0a', var2: 'b\u00a0', var3: '', url: '' },
    // Tidy values with wide characters (Hangul from U+1100, kana, full-width, emoji) and narrow
    // ones just below U+1100.
    { root: '\u1100x', mod: 'エア Max', var1: 'ǅ ok', var2: 'ｆｕｌｌ', var3: '😀 ok', url: 'ῼ' },
  ];
  const patterns = [
    '{root} {mod}',
    'Buy {root}  now',
    ' {root}',
    '{root}{mod}',
    '{KeyWord:Shoes} {root}',
    '{KeyWord:{root}}',
    '{var2} {var3} {var1}',
    'static text',
    '{mt} {const}',
    '  {root}   now ',
    'Buy\t{root}\n{mod}',
    '\u00a0{root} \u0001',
    '\u00a0 {root}',
    '{root}  ',
    '{root} \u00a0 ',
    '{ {root} }',
  ];
  it.each(patterns.flatMap((p) => rows.map((r, i) => [p, i] as const)))(
    '%s on row %i',
    (pattern, i) => {
      const v = { row: rows[i]!, const: 'C', mt: 'Exact' };
      const facts = newValueFacts();
      prepareValueFacts(facts, v);
      const p = compilePattern(pattern);
      const text = measureFill(p, v, facts);
      expect(text).toBe(fillPattern(p, v));
      expect(facts.measured).toBe(countAdTextLength(text));
    },
  );
});

describe('usedSlots', () => {
  it('lists each placeholder the patterns use once, in first-use order', () => {
    const patterns = ['{root} {mod}', 'Buy {ROOT} in {var1}', 'static', '{keyword:x}'].map(
      compilePattern,
    );
    expect(usedSlots(patterns)).toEqual(['root', 'mod', 'var1']);
  });
});
