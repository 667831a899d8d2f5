/**
 * Strict checks of template input from files (the `adloom` command, imports): unknown fields,
 * match types, types, calls to action, snippet headers, placeholders and count limits, each named.
 * `restore*` coerce silently; these say what would have been coerced.
 */
import {
  PMAX_MAX_DESCRIPTIONS,
  PMAX_MAX_HEADLINES,
  PMAX_MAX_LONG_HEADLINES,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_PIN,
  RSA_MAX_DESCRIPTIONS,
  RSA_MAX_HEADLINES,
} from './limits.ts';
import {
  findCallToAction,
  findExtensionAttachLevel,
  findExtensionTypeName,
  findMatchType,
} from './restore.ts';
import { LABEL_SEPARATOR_REASON } from './ads/shared.ts';
import { EXTENSION_ATTACH_LEVELS, MATCH_TYPES } from './types.ts';
import { findSnippetHeader } from './extensions.ts';
import { PLACEHOLDERS, findUnknownPlaceholders } from './text.ts';
import { EXTENSION_TYPE_DEFINITIONS } from './limits.ts';

type Obj = Record<string, unknown>;

const KNOWN_PLACEHOLDERS = PLACEHOLDERS.map((name) => `{${name}}`).join(' ');

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

class Problems {
  list: string[] = [];
  add(path: string, message: string): void {
    this.list.push(path ? `${path}: ${message}` : message);
  }
  keys(x: unknown, path: string, allowed: readonly string[]): x is Obj {
    if (!isObj(x)) {
      this.add(
        path,
        `expected an object, got ${x === null ? 'null' : Array.isArray(x) ? 'a list' : typeof x}`,
      );
      return false;
    }
    for (const k of Object.keys(x))
      if (!allowed.includes(k))
        this.add(path, `unknown field "${k}" (known: ${allowed.join(', ')})`);
    return true;
  }
  list_(x: unknown, path: string): unknown[] {
    if (x === undefined) return [];
    if (!Array.isArray(x)) {
      this.add(path, 'expected a list');
      return [];
    }
    return x;
  }
  text(x: unknown, path: string): string {
    if (x === undefined) return '';
    if (typeof x !== 'string' && typeof x !== 'number') {
      this.add(path, 'expected text');
      return '';
    }
    const s = String(x);
    for (const t of findUnknownPlaceholders(s))
      this.add(path, `unknown placeholder ${t} (known: ${KNOWN_PLACEHOLDERS})`);
    return s;
  }
}

/** Problems of a campaign template given as JSON. */
export function findCampaignTemplateProblems(x: unknown): string[] {
  const p = new Problems();
  if (
    !p.keys(x, '', [
      '_id',
      'name',
      'type',
      'const',
      'constant',
      'campaign',
      'adGroup',
      'assetGroup',
      'keywords',
      'settings',
    ])
  )
    return p.list;
  if (x.type !== undefined && !['search', 'performance'].includes(String(x.type).toLowerCase())) {
    p.add('type', `unknown campaign type "${String(x.type)}" (known: search, performance)`);
  }
  for (const k of ['name', 'const', 'campaign', 'adGroup', 'assetGroup'] as const) p.text(x[k], k);
  if (typeof x.campaign !== 'string' || x.campaign.trim() === '')
    p.add('campaign', 'the campaign name pattern is required');
  p.list_(x.keywords, 'keywords').forEach((k, i) => {
    const path = `keywords[${i}]`;
    if (typeof k === 'string') {
      p.text(k, path);
      return;
    }
    if (!p.keys(k, path, ['keyword', 'matchType', 'selected'])) return;
    p.text(k.keyword, `${path}.keyword`);
    if (k.matchType !== undefined && findMatchType(k.matchType) === undefined) {
      p.add(
        `${path}.matchType`,
        `unknown match type "${String(k.matchType)}" (known: ${MATCH_TYPES.join(', ')})`,
      );
    }
  });
  if (
    x.settings !== undefined &&
    p.keys(x.settings, 'settings', [
      'budget',
      'location',
      'isLocationCampaign',
      'optionalSettings',
      'dropBlockingNegatives',
      'keepKeywordInFirstAdGroup',
    ])
  ) {
    const s = x.settings;
    for (const k of ['budget', 'location'] as const) {
      if (isObj(s[k])) p.keys(s[k], `settings.${k}`, ['value', 'selected']);
    }
    const b = isObj(s.budget) ? s.budget.value : s.budget;
    if (b !== undefined && !Number.isFinite(Number(b)))
      p.add('settings.budget', `budget "${String(b)}" is not a number`);
    else if (b !== undefined && Number(b) < 0.01)
      p.add('settings.budget', `budget ${String(b)} is below the minimum 0.01`);
    p.list_(s.optionalSettings, 'settings.optionalSettings').forEach((o, i) => {
      if (p.keys(o, `settings.optionalSettings[${i}]`, ['name', 'value', 'selected']))
        p.text(o.value, `settings.optionalSettings[${i}].value`);
    });
  }
  return p.list;
}

function checkPinned(p: Problems, x: unknown, path: string, max: number, maxPin: number): void {
  const list = typeof x === 'string' ? [x] : p.list_(x, path);
  if (list.length > max) p.add(path, `${list.length} entries, at most ${max} allowed`);
  list.forEach((h, i) => {
    const hp = `${path}[${i}]`;
    if (typeof h === 'string') {
      p.text(h, hp);
      return;
    }
    if (!p.keys(h, hp, ['text', 'pos'])) return;
    p.text(h.text, `${hp}.text`);
    if (h.pos !== undefined) {
      const pos = Number(h.pos);
      if (!Number.isInteger(pos) || pos < 0 || pos > maxPin)
        p.add(`${hp}.pos`, `pin position ${String(h.pos)} is not 0 (free) to ${maxPin}`);
    }
  });
}

/**
 * Pins that leave one of positions 1..maxPin with nothing to show (every text pinned
 * elsewhere): Google rejects the ad.
 */
function checkPinCoverage(p: Problems, x: unknown, path: string, maxPin: number): void {
  if (!Array.isArray(x) || x.length === 0) return;
  const positions = x.map((h) => (isObj(h) && h.pos !== undefined ? Number(h.pos) : 0));
  if (positions.some((pos) => !(pos >= 1 && pos <= maxPin))) return;
  for (let pos = 1; pos <= maxPin; pos++) {
    if (!positions.includes(pos))
      p.add(
        path,
        `no entry can show at position ${pos}: every entry is pinned to another position`,
      );
  }
}

/** Labels with ';', which Google Ads Editor reads as a separator between labels. */
function checkLabels(p: Problems, x: unknown, path: string): void {
  checkStrings(p, x, path);
  const list = typeof x === 'string' ? [x] : Array.isArray(x) ? x : [];
  list.forEach((label, i) => {
    if (typeof label === 'string' && label.includes(';'))
      p.add(`${path}[${i}]`, `label "${label}" ${LABEL_SEPARATOR_REASON}`);
  });
}

function checkStrings(p: Problems, x: unknown, path: string): void {
  if (typeof x === 'string') return void p.text(x, path);
  p.list_(x, path).forEach((s, i) => p.text(s, `${path}[${i}]`));
}

function checkFallbacks(
  p: Problems,
  x: unknown,
  allowedTop: readonly string[],
  each: (f: Obj, path: string) => void,
  allowed: readonly string[],
): void {
  if (!p.keys(x, '', allowedTop)) return;
  p.text(x.name, 'name');
  const list = p.list_(x.templates, 'templates');
  if (list.length === 0) p.add('templates', 'at least one fallback is required');
  list.forEach((f, i) => {
    if (p.keys(f, `templates[${i}]`, allowed)) each(f, `templates[${i}]`);
  });
}

/** Problems of a responsive search ad template given as JSON. */
export function findRsaTemplateProblems(x: unknown): string[] {
  const p = new Problems();
  checkFallbacks(
    p,
    x,
    ['_id', 'name', 'templates'],
    (f, path) => {
      checkPinned(p, f.headlines, `${path}.headlines`, RSA_MAX_HEADLINES, RSA_HEADLINE_MAX_PIN);
      checkPinCoverage(p, f.headlines, `${path}.headlines`, RSA_HEADLINE_MAX_PIN);
      checkPinned(
        p,
        f.descriptions,
        `${path}.descriptions`,
        RSA_MAX_DESCRIPTIONS,
        RSA_DESCRIPTION_MAX_PIN,
      );
      checkPinCoverage(p, f.descriptions, `${path}.descriptions`, RSA_DESCRIPTION_MAX_PIN);
      checkStrings(p, f.paths, `${path}.paths`);
      checkLabels(p, f.labels, `${path}.labels`);
    },
    ['headlines', 'descriptions', 'paths', 'labels'],
  );
  return p.list;
}

/** Problems of a Performance Max template given as JSON. */
export function findPerformanceMaxTemplateProblems(x: unknown): string[] {
  const p = new Problems();
  checkFallbacks(
    p,
    x,
    ['_id', 'name', 'templates'],
    (f, path) => {
      checkPinned(p, f.headlines, `${path}.headlines`, PMAX_MAX_HEADLINES, 0);
      checkPinned(p, f.longHeadlines, `${path}.longHeadlines`, PMAX_MAX_LONG_HEADLINES, 0);
      checkPinned(p, f.descriptions, `${path}.descriptions`, PMAX_MAX_DESCRIPTIONS, 0);
      checkStrings(p, f.paths, `${path}.paths`);
      checkLabels(p, f.labels, `${path}.labels`);
      p.text(f.businessName, `${path}.businessName`);
      if (f.callToAction !== undefined && findCallToAction(f.callToAction) === undefined) {
        p.add(`${path}.callToAction`, `unknown call to action "${String(f.callToAction)}"`);
      }
    },
    [
      'headlines',
      'longHeadlines',
      'descriptions',
      'paths',
      'labels',
      'businessName',
      'callToAction',
    ],
  );
  return p.list;
}

/** Problems of a legacy expanded text ad template given as JSON. */
export function findAdTemplateProblems(x: unknown): string[] {
  const p = new Problems();
  const fields = ['h1', 'h2', 'h3', 'dl1', 'dl2', 'p1', 'p2', 'adType', 'label'];
  if (!p.keys(x, '', ['_id', 'name', 'templates'])) return p.list;
  const versions = p.list_(x.templates, 'templates');
  if (versions.length === 0) p.add('templates', 'at least one fallback is required');
  versions.forEach((v, i) => {
    const list = Array.isArray(v) ? v : [v];
    list.forEach((f, j) => {
      const path = Array.isArray(v) ? `templates[${i}][${j}]` : `templates[${i}]`;
      if (p.keys(f, path, fields)) for (const k of fields) p.text(f[k], `${path}.${k}`);
    });
  });
  return p.list;
}

/** Problems of an extension template given as JSON. */
export function findExtensionTemplateProblems(x: unknown): string[] {
  const p = new Problems();
  if (!p.keys(x, '', ['_id', 'name', 'extensionType', 'type', 'attachTo', 'templates']))
    return p.list;
  if (x.attachTo !== undefined && findExtensionAttachLevel(x.attachTo) === undefined) {
    p.add(
      'attachTo',
      `unknown level ${JSON.stringify(x.attachTo)} (known: ${EXTENSION_ATTACH_LEVELS.join(', ')})`,
    );
  }
  const raw = x.extensionType ?? x.type;
  const name = findExtensionTypeName(isObj(raw) ? (raw.name ?? raw.type ?? raw.typeName) : raw);
  if (!name) {
    p.add(
      'extensionType',
      `unknown extension type ${JSON.stringify(isObj(raw) ? (raw.name ?? raw.type) : raw) ?? 'undefined'} (known: Callout, Sitelink, Structured Snippet)`,
    );
    return p.list;
  }
  if (isObj(raw)) p.keys(raw, 'extensionType', ['name', 'type', 'typeName', 'fields']);
  const titles = EXTENSION_TYPE_DEFINITIONS[name].fields.map((f) => f.title);
  const list = p.list_(x.templates, 'templates');
  if (list.length === 0) p.add('templates', 'at least one entry of field values is required');
  list.forEach((t, i) => {
    if (!p.keys(t, `templates[${i}]`, titles)) return;
    for (const k of titles) p.text(t[k], `templates[${i}].${k}`);
    if (
      name === 'Structured Snippet' &&
      typeof t.Header === 'string' &&
      !/\{/.test(t.Header) &&
      findSnippetHeader(t.Header) === undefined
    ) {
      p.add(`templates[${i}].Header`, `unknown snippet header "${t.Header}"`);
    }
  });
  return p.list;
}
