import { describe, expect, it } from 'vitest';
import {
  TEXT_LONE_SURROGATE_MESSAGE,
  TEXT_NUL_MESSAGE,
  findBadText,
  findTextProblem,
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
