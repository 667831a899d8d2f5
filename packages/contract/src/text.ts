/**
 * The one rule for text the server accepts, whatever the route: no NUL character (PostgreSQL
 * text and jsonb cannot hold it) and no unpaired UTF-16 surrogate (it cannot be stored as
 * UTF-8, and would be silently replaced by U+FFFD). Checked on every request's body, query
 * and route params, and on the client name decoded from the URL, before any database call.
 */

/** Message for text holding a NUL character. */
export const TEXT_NUL_MESSAGE = 'Text must not contain NUL characters';
/** Message for text holding an unpaired UTF-16 surrogate. */
export const TEXT_LONE_SURROGATE_MESSAGE =
  'Text must not contain a broken character (an unpaired UTF-16 surrogate)';

/** Where a JSON value holds unacceptable text: the field path (`rows.3.root`, '' for the value itself) and why. */
export interface TextProblem {
  path: string;
  msg: string;
}

type WellFormedString = string & { isWellFormed?: () => boolean };

const LONE_SURROGATE_PATTERN =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` has no unpaired surrogate (native `isWellFormed` where the runtime has it). */
function isWellFormedText(text: string): boolean {
  const native = (text as WellFormedString).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE_PATTERN.test(text);
}

/** Why `text` is not acceptable, or undefined when it is fine. */
export function findTextProblem(text: string): string | undefined {
  if (text.includes('\0')) return TEXT_NUL_MESSAGE;
  if (!isWellFormedText(text)) return TEXT_LONE_SURROGATE_MESSAGE;
  return undefined;
}

/** Marker of a bad object key: the path stops at its object. */
const KEY_PROBLEM = Symbol('key');

/**
 * The path (innermost key first) of the first bad string in `value`, or undefined. The walk
 * builds no path while searching, only on the way back from a hit, so a clean 200k-row body
 * costs one check per string.
 */
function findBadPath(
  value: unknown,
  depth: number,
  checkedKeys: Set<string>,
): (string | typeof KEY_PROBLEM)[] | undefined {
  if (typeof value === 'string') return findTextProblem(value) === undefined ? undefined : [];
  if (typeof value !== 'object' || value === null || depth > 1000) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'number' || typeof item === 'boolean' || item == null) continue;
      const found = findBadPath(item, depth + 1, checkedKeys);
      if (found) {
        found.push(String(i));
        return found;
      }
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    // Rows repeat the same few keys: check each distinct key once.
    if (!checkedKeys.has(key)) {
      if (findTextProblem(key) !== undefined) return [KEY_PROBLEM];
      checkedKeys.add(key);
    }
    const found = findBadPath((value as Record<string, unknown>)[key], depth + 1, checkedKeys);
    if (found) {
      found.push(key);
      return found;
    }
  }
  return undefined;
}

/**
 * The first string (or object key) in a JSON value that holds a NUL character or an unpaired
 * UTF-16 surrogate, as `{ path, msg }` with the dotted field path (`rows.3.root`, `email`);
 * undefined when every string is fine. A bad key is reported at its object's path.
 */
export function findBadText(value: unknown): TextProblem | undefined {
  const found = findBadPath(value, 0, new Set());
  if (!found) return undefined;
  const isKey = found[0] === KEY_PROBLEM;
  const keys = (isKey ? found.slice(1) : found) as string[];
  const path = keys.reverse().join('.');
  // Re-derive the reason from the offending string itself.
  let target: unknown = value;
  for (const key of keys) target = (target as Record<string, unknown>)[key];
  let reason: string | undefined;
  if (isKey) {
    for (const key in target as object) {
      reason = findTextProblem(key);
      if (reason) break;
    }
    return { path, msg: (reason ?? TEXT_NUL_MESSAGE).replace(/^Text/, 'Field names') };
  }
  reason = findTextProblem(target as string) ?? TEXT_NUL_MESSAGE;
  return { path, msg: reason };
}

/**
 * A cheap scan of JSON text before a full walk: JSON text decoded from UTF-8 can carry a NUL
 * or an unpaired surrogate only as a `\u` escape (a raw NUL is not valid JSON, and UTF-8
 * decoding never yields a lone surrogate). False means `findBadText` of the parsed value
 * would find nothing; true means it has to look.
 */
export function mayHoldBadText(jsonText: string): boolean {
  return jsonText.includes('\\u');
}
