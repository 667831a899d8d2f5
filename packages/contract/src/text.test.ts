import { describe, expect, it } from 'vitest';
import {
  TEXT_LONE_SURROGATE_MESSAGE,
  TEXT_NUL_MESSAGE,
  findBadText,
  findTextProblem,
  mayHoldBadText,
} from './text.ts';

describe('findBadText: NUL and unpaired surrogates anywhere in a JSON value', () => {
  it.each([
    ['a plain object', { email: 'a@example.com', n: 1, ok: true, none: null }],
    ['an emoji (a surrogate pair)', { name: 'Shoes 👟 and more 😀' }],
    ['nested arrays', { feeds: [{ rows: [{ root: 'a' }, { root: 'b' }] }] }],
    ['a bare number', 42],
    ['null', null],
  ])('finds nothing in %s', (_name, value) => {
    expect(findBadText(value)).toBeUndefined();
  });

  it.each([
    ['NUL in a top-level field', { email: 'a\0@example.com' }, 'email', TEXT_NUL_MESSAGE],
    [
      'NUL in a row cell',
      {
        name: 'C',
        feeds: [{ name: 'f', rows: [{ root: 'a' }, { root: 'b' }, { root: 'x', mod: 'y\0' }] }],
      },
      'feeds.0.rows.2.mod',
      TEXT_NUL_MESSAGE,
    ],
    ['a lone high surrogate', { name: 'ab\uD83D' }, 'name', TEXT_LONE_SURROGATE_MESSAGE],
    ['a lone low surrogate', { list: ['ok', '\uDE00x'] }, 'list.1', TEXT_LONE_SURROGATE_MESSAGE],
    ['a reversed pair', { name: '\uDE00\uD83D' }, 'name', TEXT_LONE_SURROGATE_MESSAGE],
    ['a bare string', 'a\0', '', TEXT_NUL_MESSAGE],
  ])('finds %s', (_name, value, path, msg) => {
    expect(findBadText(value)).toEqual({ path, msg });
  });

  it('reports a bad object key at its object, with its own message', () => {
    expect(findBadText({ templates: [{ 'a\0b': 'x' }] })).toEqual({
      path: 'templates.0',
      msg: 'Field names must not contain NUL characters',
    });
    expect(findBadText({ '\uD800': 1 })?.msg).toMatch(/^Field names must not contain a broken/);
  });

  it('reports the first bad string in document order', () => {
    expect(findBadText({ a: 'fine', b: 'x\0', c: '\uD800' })?.path).toBe('b');
  });

  it('checks one string', () => {
    expect(findTextProblem('ok 👟')).toBeUndefined();
    expect(findTextProblem('\0')).toBe(TEXT_NUL_MESSAGE);
    expect(findTextProblem('\uDBFF')).toBe(TEXT_LONE_SURROGATE_MESSAGE);
  });
});

describe('mayHoldBadText: the cheap scan of JSON text before the walk', () => {
  it.each([
    ['plain text', { a: 'shoes', n: 1 }, false],
    ['accents, emoji and tabs', { a: 'Größe 👟\t"quoted"\n' }, false],
    ['a NUL', { a: 'x\0' }, true],
    ['a lone surrogate', { a: ['\uD800'] }, true],
    ['a control character (harmless, but escaped)', { a: '\u0001' }, true],
  ])('%s', (_name, value, expected) => {
    const json = JSON.stringify(value);
    expect(mayHoldBadText(json)).toBe(expected);
    // Never a miss: whenever the scan says clean, the walk agrees.
    if (!expected) expect(findBadText(JSON.parse(json))).toBeUndefined();
  });

  it('sees a NUL written as an escape by hand', () => {
    expect(mayHoldBadText('{"a":"x\\u0000"}')).toBe(true);
    expect(findBadText(JSON.parse('{"a":"x\\u0000"}'))).toEqual({
      path: 'a',
      msg: TEXT_NUL_MESSAGE,
    });
  });
});
