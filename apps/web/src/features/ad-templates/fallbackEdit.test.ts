import { describe, expect, it } from 'vitest';
import { newRsaTemplate, type PinnedText } from '@adloom/engine';
import {
  addPinned,
  addRsaFallback,
  canAddEntry,
  canDeleteEntry,
  canDeleteFallback,
  deleteFallback,
  PMAX_LIST_RULES,
  putInNextFree,
  removeAt,
  RSA_LIST_RULES,
} from './fallbackEdit.ts';

const pinned = (n: number): PinnedText[] =>
  Array.from({ length: n }, (_, i) => ({ text: `t${i}`, pos: 0 }));

describe('count rules', () => {
  it.each([
    ['RSA headlines', RSA_LIST_RULES.headlines, [false, false, false, true]],
    ['RSA descriptions', RSA_LIST_RULES.descriptions, [false, false, true, true]],
    ['PMax headlines', PMAX_LIST_RULES.headlines, [false, false, false, true]],
    ['PMax long headlines', PMAX_LIST_RULES.longHeadlines, [false, true, true, true]],
    ['PMax descriptions', PMAX_LIST_RULES.descriptions, [false, false, true, true]],
  ])('%s: delete buttons by index', (_name, rule, expected) => {
    expect([0, 1, 2, 3].map((i) => canDeleteEntry(rule, i))).toEqual(expected);
  });

  it('adds up to 15 headlines and 4 descriptions on an RSA, 5 of each on Performance Max', () => {
    expect(addPinned(pinned(14), RSA_LIST_RULES.headlines)).toHaveLength(15);
    expect(addPinned(pinned(15), RSA_LIST_RULES.headlines)).toHaveLength(15);
    expect(canAddEntry(RSA_LIST_RULES.descriptions, 4)).toBe(false);
    expect(canAddEntry(RSA_LIST_RULES.descriptions, 3)).toBe(true);
    expect(canAddEntry(PMAX_LIST_RULES.longHeadlines, 5)).toBe(false);
    expect(addPinned(pinned(1), PMAX_LIST_RULES.longHeadlines).at(-1)).toEqual({
      text: '',
      pos: 0,
    });
  });

  it('never removes an entry below the delete threshold', () => {
    expect(removeAt(pinned(3), 2, RSA_LIST_RULES.headlines)).toHaveLength(3);
    expect(removeAt(pinned(4), 3, RSA_LIST_RULES.headlines).map((p) => p.text)).toEqual([
      't0',
      't1',
      't2',
    ]);
  });
});

describe('fallbacks', () => {
  it('adds the default fallback: 4 headlines, 2 descriptions, 2 paths, 1 label', () => {
    const t = addRsaFallback(newRsaTemplate('T'));
    expect(t.templates).toHaveLength(2);
    const f = t.templates[1]!;
    expect([f.headlines.length, f.descriptions.length, f.paths.length, f.labels.length]).toEqual([
      4, 2, 2, 1,
    ]);
  });

  it('never deletes the first fallback', () => {
    const t = addRsaFallback(newRsaTemplate('T'));
    expect(canDeleteFallback(0, 2)).toBe(false);
    expect(deleteFallback(t, 0)).toBe(t);
    expect(deleteFallback(t, 1).templates).toHaveLength(1);
  });
});

describe('putInNextFree', () => {
  it('fills the first empty entry, keeping its pin', () => {
    const list = [
      { text: 'a', pos: 0 },
      { text: ' ', pos: 2 },
      { text: '', pos: 0 },
    ];
    expect(putInNextFree(list, RSA_LIST_RULES.headlines, 'New')).toEqual([
      { text: 'a', pos: 0 },
      { text: 'New', pos: 2 },
      { text: '', pos: 0 },
    ]);
  });

  it('fills the entries shown up to the fewest before appending', () => {
    expect(putInNextFree(pinned(1), RSA_LIST_RULES.descriptions, 'New')).toEqual([
      { text: 't0', pos: 0 },
      { text: 'New', pos: 0 },
    ]);
    expect(putInNextFree(pinned(3), RSA_LIST_RULES.headlines, 'New')?.[3]).toEqual({
      text: 'New',
      pos: 0,
    });
  });

  it('gives null when the list is full', () => {
    expect(putInNextFree(pinned(15), RSA_LIST_RULES.headlines, 'New')).toBeNull();
    expect(putInNextFree(pinned(5), PMAX_LIST_RULES.descriptions, 'New')).toBeNull();
  });
});
