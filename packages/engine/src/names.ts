/** Names: unique names in a list, and campaign and group names as Google takes them. */
import { haveSameFeedCells } from './feedColumns.ts';
import { describeCharacter } from './finalUrl.ts';
import { NAME_MAX_CHARS } from './limits.ts';
import {
  tidySpaces,
  type CompiledPattern,
  type PlaceholderName,
  type PlaceholderValues,
} from './text.ts';
import type { FeedRow } from './types.ts';

/**
 * Makes `name` unique among `existing` with the spec's rule: append ' (n)', n counting from 1.
 * The name itself is returned when it is free.
 */
export function makeUniqueName(name: string, existing: Iterable<string>): string {
  const taken = existing instanceof Set ? (existing as Set<string>) : new Set(existing);
  if (!taken.has(name)) return name;
  for (let n = 1; ; n++) {
    const candidate = `${name} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** What `cleanName` made of a filled name. */
export interface CleanName {
  /** The name as written: controls out, spaces tidied, in NFC ('' when nothing is left). */
  name: string;
  /** What was changed, for the report ('' when nothing visible was). */
  change: string;
  /** True when the name is too long for Google (NAME_MAX_CHARS). */
  isTooLong: boolean;
}

/**
 * A campaign, ad group or asset group name as Google takes it (under 255 characters, no NUL nor line breaks): line
 * breaks and tabs become a space, NUL and the other control characters are removed, and so are
 * invisible characters (`removeInvisible`: "Ni\u200bke" is "Nike"; all reported in `change`), runs of spaces collapse and the ends are trimmed (as `fillPattern`
 * does), and the name is written in NFC (not reported: the text reads the same). `isTooLong`
 * when it has more than NAME_MAX_CHARS characters (code points).
 */
export function cleanName(raw: string): CleanName {
  let lineBreaks = false;
  let tabs = false;
  let controls = false;
  let isAscii = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 10 || c === 13) lineBreaks = true;
    else if (c === 9) tabs = true;
    else if (c < 32 || (c >= 127 && c < 160)) controls = true;
    if (c >= 128) isAscii = false;
  }
  let cleaned = controls ? raw.replace(CONTROLS, '') : raw;
  const invisible: string[] = [];
  if (!isAscii && INVISIBLE.test(cleaned)) cleaned = removeInvisible(cleaned, invisible);
  let name = tidySpaces(cleaned);
  if (!isAscii) name = name.normalize('NFC');
  const changes: string[] = [];
  if (lineBreaks) changes.push('line breaks became spaces');
  if (tabs) changes.push('tabs became spaces');
  if (controls) changes.push('control characters (such as NUL) were removed');
  if (invisible.length > 0) changes.push(`the invisible ${invisible.join(', ')} removed`);
  return {
    name,
    change: changes.join(', '),
    isTooLong: name.length > NAME_MAX_CHARS && codePointCount(name) > NAME_MAX_CHARS,
  };
}

// eslint-disable-next-line no-control-regex -- the control characters are what is removed
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g;

/**
 * Invisible characters: Unicode's default-ignorable code points (zero-width space, joiners, bidi
 * marks, soft hyphen, word joiner, BOM, Hangul fillers, variation selectors, tags...).
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const EMOJI = /^\p{Extended_Pictographic}$/u;
/** Variation selectors: they choose how the character before them looks. */
const VARIATION_SELECTOR = /^[\u{fe00}-\u{fe0f}\u{e0100}-\u{e01ef}]$/u;
/** Emoji skin tones (kept between an emoji and a zero-width joiner). */
const EMOJI_MODIFIER = /^[\u{1f3fb}-\u{1f3ff}]$/u;
/** Scripts whose letters join, where a zero-width (non-)joiner between letters shows. */
const JOINING_LETTER =
  /^[\p{sc=Arabic}\p{sc=Syriac}\p{sc=Nko}\p{sc=Mongolian}\p{sc=Devanagari}\p{sc=Bengali}\p{sc=Gurmukhi}\p{sc=Gujarati}\p{sc=Oriya}\p{sc=Tamil}\p{sc=Telugu}\p{sc=Kannada}\p{sc=Malayalam}\p{sc=Sinhala}]$/u;

/**
 * `text` without the invisible characters a name shows nothing of, which make two names that
 * look the same in Editor ("Ni\u200bke" and "Nike") two campaigns; `removed` names each kind once.
 * Kept, because they show: a variation selector after a visible character, a zero-width joiner
 * between two emoji (a family, a flag), emoji tag characters after the black flag, and zero-width
 * (non-)joiners between letters of a script whose letters join (Arabic, Indic scripts).
 */
function removeInvisible(text: string, removed: string[]): string {
  const chars = [...text];
  const kept: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (!INVISIBLE.test(ch) || showsIn(chars, kept, i)) {
      kept.push(ch);
      continue;
    }
    const name = describeCharacter(ch);
    if (!removed.includes(name)) removed.push(name);
  }
  return kept.join('');
}

/** Whether the invisible character at `i` shows in its place (see `removeInvisible`). */
function showsIn(chars: readonly string[], kept: readonly string[], i: number): boolean {
  const ch = chars[i] as string;
  const before = kept[kept.length - 1] ?? '';
  const after = chars[i + 1] ?? '';
  if (VARIATION_SELECTOR.test(ch)) return before !== '' && !/^\s$/u.test(before);
  const cp = ch.codePointAt(0) as number;
  if (cp >= 0xe0020 && cp <= 0xe007f)
    return before === '\u{1f3f4}' || /^[\u{e0020}-\u{e007f}]$/u.test(before);
  if (ch === '\u200d' || ch === '\u200c') {
    let k = kept.length - 1;
    while (
      k >= 0 &&
      (VARIATION_SELECTOR.test(kept[k] as string) || EMOJI_MODIFIER.test(kept[k] as string))
    )
      k--;
    const base = kept[k] ?? '';
    if (ch === '\u200d' && EMOJI.test(base) && EMOJI.test(after)) return true;
    const joins = (c: string): boolean => JOINING_LETTER.test(c) || /^\p{M}$/u.test(c);
    return (
      joins(before) && joins(after) && (JOINING_LETTER.test(before) || JOINING_LETTER.test(after))
    );
  }
  return false;
}

function codePointCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

/** `name` folded for comparing names: names equal ignoring case (and, in NFC, Unicode form). */
export function foldName(name: string): string {
  return name.toLowerCase();
}

/** The filled text of `p` before any tidying (`fillPattern` tidies spaces; names are cleaned). */
export function fillRaw(p: CompiledPattern, v: PlaceholderValues): string {
  let out = p.parts[0] ?? '';
  for (let i = 0; i < p.slots.length; i++) {
    const slot = p.slots[i] as PlaceholderName;
    const value = slot === 'const' ? v.const : slot === 'mt' ? v.mt : v.row[slot];
    out += (value ?? '') + (p.parts[i + 1] ?? '');
  }
  return out;
}

/** The problem of a name `cleanName` made, if any: skipped (empty, too long) or cleaned. */
export function nameProblem(
  c: CleanName,
  what: NameKind,
): { kind: 'skipped' | 'cleaned'; code: string; message: string } | undefined {
  const code = NAME_CODES[what];
  if (c.name === '')
    return {
      kind: 'skipped',
      code: `empty-${code}`,
      message: `${what} name is empty for this row`,
    };
  if (c.isTooLong)
    return {
      kind: 'skipped',
      code: `${code}-name-too-long`,
      message: `${what} name is longer than ${NAME_MAX_CHARS} characters (Google takes names under 255): "${c.name.slice(0, 40)}…"`,
    };
  if (c.change)
    return {
      kind: 'cleaned',
      code: `${code}-name-cleaned`,
      message: `${what} name "${c.name}": ${c.change}`,
    };
  return undefined;
}

/** How messages name another row when the caller gives no `rowLabel`: 'row 3'. */
export const defaultRowLabel = (rowNumber: number): string => `row ${rowNumber}`;

/** What a name names, as reports say it. */
export type NameKind = 'Campaign' | 'Ad group' | 'Asset group';
const NAME_CODES: Record<NameKind, string> = {
  Campaign: 'campaign',
  'Ad group': 'ad-group',
  'Asset group': 'asset-group',
};

/**
 * The report of a row whose group (`spelled` as the row spells it) is one an earlier row
 * (`first`, named `firstRow`: 'row 3', 'line 7') made, written `name`: a spelling that differs only by case or
 * Unicode form, the same row again, or another row merged into that group.
 */
export function mergeIssue(
  row: FeedRow,
  first: FeedRow,
  firstRow: string,
  spelled: string,
  name: string,
  what: 'ad group' | 'asset group',
): { kind: 'cleaned' | 'warning'; code: string; message: string } {
  const code = what === 'ad group' ? 'ad-group' : 'asset-group';
  if (spelled !== name)
    return {
      kind: 'cleaned',
      code: `${code}-name-variant`,
      message: `${what === 'ad group' ? 'Ad' : 'Asset'} group "${spelled}" is written "${name}" as in ${firstRow}: names that differ only by case or Unicode form are one ${what}, made from ${firstRow}`,
    };
  if (haveSameFeedCells(row, first))
    return {
      kind: 'warning',
      code: 'duplicate-row',
      message: `Same as ${firstRow}: merged into its ${what} "${name}"`,
    };
  return {
    kind: 'warning',
    code: 'merged-row',
    message: `Merged into the ${what} "${name}" of ${firstRow}: it is made from ${firstRow}, so this row's final URL and ad texts are not used`,
  };
}
