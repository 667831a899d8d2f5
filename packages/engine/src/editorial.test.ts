import { describe, expect, it } from 'vitest';
import {
  findEditorialProblems,
  newEditorialFacts,
  scanEditorial,
  scanLowerAscii,
} from './editorial.ts';

const codes = (text: string, isHeadline = false) =>
  findEditorialProblems(text, isHeadline).map((p) => p.code);

describe("Google's editorial rules", () => {
  it.each([
    ['Big Sale On Now!', true, ['headline-exclamation']],
    ['Big Sale On Now!', false, []],
    // Dynamic insertions are judged by their default text.
    ['{KeyWord:Sale!!} now', false, ['repeated-punctuation']],
    ['{KeyWord:Buy!}', true, ['headline-exclamation']],
    ['Shoes 👟 today', false, ['unsupported-character']],
    ['Best ★ deals ►', false, ['unsupported-character']],
    ['Zero\u200bwidth', false, ['unsupported-character']],
    ['Soft\u00adhyphen', false, ['unsupported-character']],
    ['ﾃｽﾄ', false, ['unsupported-character']],
    ['Nike® and Brand™ ©2026, 20 € off, 30° angle', false, []],
    ['Café, naïve, 日本語のテキスト', false, []],
    ['flowers!!', false, ['repeated-punctuation']],
    ['Really?!', false, ['repeated-punctuation']],
    ['Save $$$', false, ['repeated-punctuation']],
    ['***Sale***', false, ['repeated-punctuation']],
    ['Wait for it...', false, ['repeated-punctuation']],
    ['Wait for it…', false, ['repeated-punctuation']],
    ['Buy 1, get 1 half off. Great 5* hotels.', false, []],
    ['FREE SHIPPING NOW', false, ['gimmicky-capitals']],
    ['Get FREE delivery', false, []],
    ['BUY NOW FAST', false, ['gimmicky-capitals']],
    ['NIKE shoes in the USA', false, []],
    ['ASICS', false, []],
    ['ADIDAS', false, ['gimmicky-capitals']],
    ['fReE delivery', false, ['gimmicky-capitals']],
    ['FrEe', false, ['gimmicky-capitals']],
    ['ShIpPiNg', false, ['gimmicky-capitals']],
    ['iPhone, eBay, McDonald, PlayStation, YouTube', false, []],
    [' leading', false, ['spacing']],
    ['trailing ', false, ['spacing']],
    ['double  space', false, ['spacing']],
    ['{KeyWord:Running Shoes} today', true, []],
    ['{CUSTOMIZER.Price:10 EUR} off', true, []],
    // Issue 36: compatibility forms are judged as NFKC makes them.
    ['Big Sale\uff01', true, ['headline-exclamation']],
    ['Big Sale\ufe57', true, ['headline-exclamation']],
    ['Big Sale\ufe15', true, ['headline-exclamation']],
    ['Sale\uff01\uff01', false, ['repeated-punctuation']],
    ['Really\uff1f!', false, ['repeated-punctuation']],
    ['Wait\u2025', false, ['repeated-punctuation']],
    ['\uff33\uff28\uff29\uff30\uff30\uff29\uff2e\uff27 free', false, ['gimmicky-capitals']],
    ['Big Sale\uff01', false, []],
    ['東京の靴\uff08新作\uff09\uff0c\uffe5500', true, []],
  ])('%j (headline: %s) -> %j', (text, isHeadline, expected) => {
    expect(codes(text, isHeadline)).toEqual(expected);
  });

  it('names every problem of a text, with a reason', () => {
    const problems = findEditorialProblems('SALE!! 👟 NOW', true);
    expect(problems.map((p) => p.code)).toEqual([
      'unsupported-character',
      'headline-exclamation',
      'repeated-punctuation',
    ]);
    for (const p of problems) expect(p.message.length).toBeGreaterThan(10);
  });
});

describe('scanLowerAscii', () => {
  it('finds what scanEditorial finds, for the texts it takes', () => {
    const alphabet = 'ab z09 A!é,-';
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let taken = 0;
    for (let k = 0; k < 5000; k++) {
      let text = '';
      const n = next() % 9;
      for (let i = 0; i < n; i++) text += alphabet[next() % alphabet.length];
      const fast = newEditorialFacts();
      if (!scanLowerAscii(text, fast)) {
        expect(fast).toEqual(newEditorialFacts());
        expect(/^[a-z0-9]+( [a-z0-9]+)*$/.test(text)).toBe(false);
        continue;
      }
      taken++;
      expect(fast).toEqual(scanEditorial(text, newEditorialFacts()));
    }
    expect(taken).toBeGreaterThan(100);
  });
});
