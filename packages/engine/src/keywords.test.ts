import { describe, expect, it } from 'vitest';
import { cleanKeyword, readKeywordNotation, resolveKeywordNotation } from './keywords.ts';
import { newCampaignTemplate } from './restore.ts';
import { KEYWORD_ALLOWED_SYMBOLS } from './limits.ts';

describe('keyword hygiene', () => {
  it.each([
    ['Nike  Air   Max', 'nike air max'],
    [' Nike ', 'nike'],
    ['NIKE', 'nike'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: true, keyword: expected, isChanged: false });
  });

  it.each([
    ['nike, shoes!', 'nike shoes', [',', '!']],
    ['50% off (today)', '50 off today', ['%', '(', ')']],
    ['a=b;c~d<e>f?g\\h|i', 'a b c d e f g h i', ['=', ';', '~', '<', '>', '?', '\\', '|']],
    ['email@x {x} ^', 'email x x', ['@', '{', '}', '^']],
  ])('cleans %j to %j', (raw, keyword, removed) => {
    const r = cleanKeyword(raw);
    expect(r).toMatchObject({ ok: true, keyword, removed });
  });

  it.each([['men\'s shoes&socks #1 -50$ [x] c++ a+b & "q"'], ['t-shirt nike -sale']])(
    'keeps allowed characters in %j',
    (raw) => {
      const r = cleanKeyword(raw);
      expect(r.ok && r.keyword).toBe(raw);
      expect(r.ok && r.removed).toEqual([]);
      expect(r.ok && r.notation).toEqual([]);
    },
  );

  it.each([
    ['-Puma', 'puma', ['-'], []],
    ['- Puma Suede', 'puma suede', ['-'], []],
    ['--puma', 'puma', ['-'], []],
    ['+nike +running shoes', 'nike running shoes', ['+'], []],
    ['nike ++air', 'nike air', ['+'], []],
    ['-+nike +air', 'nike air', ['-', '+'], []],
    ['-(puma)', 'puma', ['-'], ['(', ')']],
  ])('strips match type notation from %j: %j', (raw, keyword, notation, removed) => {
    expect(cleanKeyword(raw)).toMatchObject({
      ok: true,
      keyword,
      isChanged: true,
      removed,
      notation,
    });
  });

  it.each([
    ['', 'empty'],
    ['!!!', 'empty'],
    ['-', 'empty'],
    ['+ -', 'empty'],
    ['a'.repeat(81), 'too-long'],
    ['one two three four five six seven eight nine ten eleven', 'too-many-words'],
  ])('drops %j (%s)', (raw, reason) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: false, reason });
  });

  it.each([
    [
      'nike\u00a0air\u3000max',
      'nike air max',
      ['no-break space (U+00A0)', 'ideographic space (U+3000)'],
    ],
    ['nike\tair\u2009max', 'nike air max', ['tab (U+0009)', 'U+2009']],
    ['nike \u00a0 air', 'nike air', ['no-break space (U+00A0)']],
  ])('makes every kind of space in %j one plain space', (raw, keyword, spaces) => {
    expect(cleanKeyword(raw)).toMatchObject({
      ok: true,
      keyword,
      spaces,
      removed: [],
      isChanged: true,
    });
  });

  it('counts other spaces as word breaks: 11 words joined by ideographic spaces are too many', () => {
    const eleven = 'one two three four five six seven eight nine ten eleven'.split(' ');
    expect(cleanKeyword(eleven.join('\u3000'))).toMatchObject({
      ok: false,
      reason: 'too-many-words',
    });
    expect(cleanKeyword(eleven.slice(0, 10).join('\u3000'))).toMatchObject({ ok: true });
  });

  it.each([
    ['nike\u200bair', 'nikeair', ['zero-width space (U+200B)']],
    ['run\u00adning shoes', 'running shoes', ['soft hyphen (U+00AD)']],
    [
      '\ufeffnike\u2060air\u200c\u200d',
      'nikeair',
      [
        'byte order mark (U+FEFF)',
        'word joiner (U+2060)',
        'zero-width non-joiner (U+200C)',
        'zero-width joiner (U+200D)',
      ],
    ],
    ['nike\u0001 air', 'nike air', ['U+0001']],
  ])('drops the invisible characters of %j', (raw, keyword, invisible) => {
    expect(cleanKeyword(raw)).toMatchObject({
      ok: true,
      keyword,
      invisible,
      removed: [],
      isChanged: true,
    });
  });

  it.each([
    ['nike 😀 shoes', 'nike shoes', ['😀']],
    ['❤️ nike', 'nike', ['❤']],
    ['shoes 50€ £20 ¥300', 'shoes 50 20 300', ['€', '£', '¥']],
    ['nike© air® max™', 'nike air max', ['©', '®', '™']],
    ['¿zapatos? ¡nike!', 'zapatos nike', ['¿', '?', '¡', '!']],
    ['1️⃣ nike', '1 nike', ['\u20e3']],
  ])('replaces the characters Google rejects in %j by spaces', (raw, keyword, removed) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: true, keyword, removed, isChanged: true });
  });

  it.each([
    ['men’s shoes', "men's shoes", ["’ by '"]],
    ['“air max” shoes', '"air max" shoes', ['“ by "', '” by "']],
    ['nike – air—max', 'nike air-max', ['– by -', '— by -']],
    ['t‐shirt', 't-shirt', ['‐ by -']],
  ])(
    'takes typographic quotes and dashes in %j as the allowed symbol',
    (raw, keyword, replaced) => {
      expect(cleanKeyword(raw)).toMatchObject({
        ok: true,
        keyword,
        replaced,
        removed: [],
        isChanged: true,
      });
    },
  );

  it.each([
    ['Crème Brûlée', 'crème brûlée'],
    ['東京 スニーカー', '東京 スニーカー'],
    ['ΣΟΦΙΑ', 'σοφια'],
    ['जूते नाइके', 'जूते नाइके'],
    ['кроссовки 42', 'кроссовки 42'],
    ['حذاء رياضي', 'حذاء رياضي'],
    ['รองเท้า', 'รองเท้า'],
  ])('keeps the letters, digits and marks of every script in %j', (raw, keyword) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: true, keyword, removed: [], invisible: [] });
  });

  it('writes keywords in NFC, so both Unicode forms of "Café" are one keyword', () => {
    const nfd = cleanKeyword('Cafe\u0301');
    expect(nfd).toMatchObject({ ok: true, keyword: 'caf\u00e9' });
  });

  it('keeps every allowed symbol and rejects every other ASCII symbol', () => {
    for (let c = 33; c < 127; c++) {
      const ch = String.fromCharCode(c);
      if (/[a-zA-Z0-9]/.test(ch)) continue;
      const r = cleanKeyword(`a${ch}b`);
      if ((KEYWORD_ALLOWED_SYMBOLS as readonly string[]).includes(ch))
        expect(r).toMatchObject({ ok: true, keyword: `a${ch}b` });
      else expect(r).toMatchObject({ ok: true, keyword: 'a b', removed: [ch] });
    }
  });

  it.each([['😀'], ['™ ©'], ['\u200b\u00ad']])(
    'skips %j: nothing Google accepts is left',
    (raw) => {
      expect(cleanKeyword(raw)).toMatchObject({
        ok: false,
        reason: 'empty',
        message: 'Keyword is empty without the characters Google rejects',
      });
    },
  );

  it('accepts exactly 80 characters and 10 words', () => {
    expect(cleanKeyword('a'.repeat(80)).ok).toBe(true);
    expect(cleanKeyword('1 2 3 4 5 6 7 8 9 10').ok).toBe(true);
  });
});

describe('keyword notation and punctuation words (issue 36)', () => {
  it.each([
    ['[nike]', 'nike', 'Exact'],
    ['"Nike Shoes"', 'nike shoes', 'Phrase'],
    ['[crème brûlée ]', 'crème brûlée', 'Exact'],
    ['[ 东京 ]', '东京', 'Exact'],
    ['-[nike]', 'nike', 'Exact'],
  ])('reads %j as %j, stating %s', (raw, keyword, stated) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: true, keyword, stated, isChanged: true });
  });

  it.each([['[nike'], ['nike]'], ['"nike'], ['nike [air]'], ['[a] [b]']])(
    'leaves %j alone: no notation around the whole keyword',
    (raw) => {
      const r = cleanKeyword(raw);
      expect(r.ok && r.stated).toBeUndefined();
    },
  );

  it.each([['[]'], ['""'], ['[ ]']])('drops %j: empty inside its notation', (raw) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: false, reason: 'empty' });
  });

  it.each([
    ['adidas -', 'adidas', ['-']],
    ['nike . / shoes', 'nike shoes', ['.', '/']],
    ['[adidas -]', 'adidas', ['-']],
    ['shoes :: sale', 'shoes sale', ['::']],
  ])('removes the words of punctuation alone from %j', (raw, keyword, punctuation) => {
    expect(cleanKeyword(raw)).toMatchObject({ ok: true, keyword, punctuation, isChanged: true });
  });

  it('keeps & alone (it reads "and": h & m) and words that hold a letter or digit', () => {
    expect(cleanKeyword('h & m')).toMatchObject({ ok: true, keyword: 'h & m', punctuation: [] });
    expect(cleanKeyword("'90s .net #1")).toMatchObject({ ok: true, punctuation: [] });
  });

  it.each([
    ['[{root}]', 'Broad', { text: '{root}', matchType: 'Exact', stated: 'Exact' }],
    ['"{root} {mod}"', 'Broad', { text: '{root} {mod}', matchType: 'Phrase', stated: 'Phrase' }],
    ['[{root}]', 'Exact', { text: '{root}', matchType: 'Exact', stated: 'Exact' }],
    [
      '"{mod}"',
      'Negative Broad',
      { text: '{mod}', matchType: 'Negative Phrase', stated: 'Phrase' },
    ],
    ['[{mod}]', 'Negative Exact', { text: '{mod}', matchType: 'Negative Exact', stated: 'Exact' }],
    ['{root}', 'Exact', undefined],
  ] as const)('reads the template keyword %j under %s', (keyword, matchType, expected) => {
    expect(readKeywordNotation(keyword, matchType)).toEqual(expected);
  });

  it.each([
    [
      '[东京]',
      'Phrase',
      '[ ] states Exact, but the match type is Phrase: remove the [ ] or choose Exact',
    ],
    [
      '"{root}"',
      'Exact',
      '" " states Phrase, but the match type is Exact: remove the " " or choose Phrase',
    ],
    [
      '"{root}"',
      'Negative Exact',
      '" " states Phrase, but the match type is Negative Exact: remove the " " or choose Negative Phrase',
    ],
  ] as const)('finds %j under %s a contradiction', (keyword, matchType, conflict) => {
    expect(readKeywordNotation(keyword, matchType)).toEqual({ conflict });
  });

  it('resolves a template once: notation read, contradictions left out, each reported once', () => {
    const template = {
      ...newCampaignTemplate('T'),
      keywords: [
        { keyword: '[{root} {mod}]', matchType: 'Broad' as const, selected: true },
        { keyword: '[东京]', matchType: 'Phrase' as const, selected: true },
        { keyword: '{root}', matchType: 'Exact' as const, selected: true },
      ],
    };
    const { template: resolved, issues } = resolveKeywordNotation(template);
    expect(resolved.keywords).toEqual([
      { keyword: '{root} {mod}', matchType: 'Exact', selected: true },
      { keyword: '{root}', matchType: 'Exact', selected: true },
    ]);
    expect(issues).toEqual([
      {
        kind: 'cleaned',
        output: 'keywords',
        rowId: '',
        rowNumber: 0,
        code: 'match-notation',
        message:
          'Keyword "[{root} {mod}]" of the template is read as Exact "{root} {mod}": [ ] is the notation of exact match',
      },
      {
        kind: 'skipped',
        output: 'keywords',
        rowId: '',
        rowNumber: 0,
        code: 'match-notation-conflict',
        message:
          'Keyword "[东京]" of the template is not generated: [ ] states Exact, but the match type is Phrase: remove the [ ] or choose Exact',
      },
    ]);
    expect(resolveKeywordNotation(resolved).template).toBe(resolved);
  });
});
