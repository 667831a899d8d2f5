/**
 * Cells a spreadsheet would run as a formula: a text starting with = + - or @. They are reported
 * as warnings and never changed here: Google Ads Editor files keep every text as typed, and only
 * CSV meant for a spreadsheet (the report, copies) neutralises them (`formatCsv`'s
 * `neutraliseFormulas`).
 */
import type { RowIssue } from './issues.ts';
import { compilePattern } from './text.ts';
import {
  FEED_COLUMNS,
  FEED_COLUMN_LABELS,
  type AdTemplate,
  type CampaignTemplate,
  type ExtensionTemplate,
  type FeedRow,
  type FeedRows,
  type PerformanceMaxTemplate,
  type RsaTemplate,
} from './types.ts';

/** True when `text` starts with = + - or @, which a spreadsheet reads as a formula. */
export function startsLikeFormula(text: string): boolean {
  return startsLikeFormulaCode(text.charCodeAt(0));
}

/** True for the code unit of = + - or @. */
function startsLikeFormulaCode(c: number): boolean {
  return c === 61 || c === 43 || c === 45 || c === 64;
}

/** The templates of a run whose texts reach an output. */
export interface FormulaCheckTemplates {
  campaign?: CampaignTemplate;
  rsa?: RsaTemplate;
  pmax?: PerformanceMaxTemplate;
  legacy?: AdTemplate;
  extensions?: readonly ExtensionTemplate[];
}

/** A template text that reaches an output, with the output kind and where it is written. */
interface TemplateText {
  output: string;
  where: string;
  text: string;
}

function listTemplateTexts(t: FormulaCheckTemplates): TemplateText[] {
  const out: TemplateText[] = [];
  const add = (output: string, where: string, text: string) => {
    if (text !== '') out.push({ output, where, text });
  };
  if (t.campaign) {
    const c = t.campaign;
    add('campaigns', 'Campaign name', c.campaign);
    add('campaigns', 'Constant', c.const);
    if (c.type === 'performance') add('campaigns', 'Asset group name', c.assetGroup);
    else add('campaigns', 'Ad group name', c.adGroup);
  }
  const pinned = (output: string, at: string, field: string, list: readonly { text: string }[]) =>
    list.forEach((h, i) => add(output, `${at}, ${field} ${i + 1}`, h.text));
  const plain = (output: string, at: string, field: string, list: readonly string[]) =>
    list.forEach((text, i) => add(output, `${at}, ${field} ${i + 1}`, text));
  t.rsa?.templates.forEach((f, n) => {
    const at = `Fallback ${n + 1}`;
    pinned('responsive search ads', at, 'Headline', f.headlines);
    pinned('responsive search ads', at, 'Description', f.descriptions);
    plain('responsive search ads', at, 'Path', f.paths);
    plain('responsive search ads', at, 'Label', f.labels);
  });
  t.pmax?.templates.forEach((f, n) => {
    const at = `Fallback ${n + 1}`;
    pinned('performance max ads', at, 'Headline', f.headlines);
    pinned('performance max ads', at, 'Long headline', f.longHeadlines);
    pinned('performance max ads', at, 'Description', f.descriptions);
    plain('performance max ads', at, 'Path', f.paths);
    plain('performance max ads', at, 'Label', f.labels);
    add('performance max ads', `${at}, Business name`, f.businessName);
  });
  t.legacy?.templates.forEach((version, v) =>
    version.forEach((f, n) => {
      const at = `Legacy version ${v + 1}, fallback ${n + 1}`;
      plain('responsive search ads', at, 'Headline', [f.h1, f.h2, f.h3]);
      plain('responsive search ads', at, 'Description', [f.dl1, f.dl2]);
      plain('responsive search ads', at, 'Path', [f.p1, f.p2]);
      add('responsive search ads', `${at}, Label`, f.label);
    }),
  );
  for (const e of t.extensions ?? []) {
    const output = `${e.extensionType.name.toLowerCase()} extensions`;
    // Every entry is a fallback that may reach the output.
    e.templates.forEach((values, n) => {
      for (const [field, text] of Object.entries(values))
        add(output, `"${e.name}", fallback ${n + 1}, ${field}`, text);
    });
  }
  return out;
}

function formulaMessage(what: string, text: string): string {
  return `${what} "${text}" starts with "${text[0]}", which a spreadsheet runs as a formula; Google Ads Editor files keep it as typed`;
}

/**
 * One warning (code 'formula-start') per template text, and per feed cell of `rows` whose column
 * reaches an output (a placeholder of the templates uses it, or it is the final URL of ads), that
 * starts with = + - or @. Template texts come first (row number 0), then cells in row order.
 */
export function findFormulaCells(rows: FeedRows, templates: FormulaCheckTemplates): RowIssue[] {
  const issues: RowIssue[] = [];
  const texts = listTemplateTexts(templates);
  for (const t of texts) {
    if (!startsLikeFormula(t.text)) continue;
    issues.push({
      kind: 'warning',
      output: t.output,
      rowId: '',
      rowNumber: 0,
      code: 'formula-start',
      message: formulaMessage(t.where, t.text),
    });
  }
  const used = new Set<string>();
  for (const t of texts) for (const slot of compilePattern(t.text).slots) used.add(slot);
  for (const k of templates.campaign?.keywords ?? [])
    for (const slot of compilePattern(k.keyword).slots) used.add(slot);
  // Ads, and sitelinks whose Final URL is empty, write the row's URL.
  const takesRowUrl = (templates.extensions ?? []).some(
    (e) =>
      e.extensionType.name === 'Sitelink' &&
      e.templates.some((v) => (v['Final URL'] ?? '').trim() === ''),
  );
  if (templates.rsa || templates.pmax || templates.legacy || takesRowUrl) used.add('url');
  const columns = FEED_COLUMNS.filter((c) => used.has(c));
  if (columns.length === 0) return issues;
  // Row by row: a row of a packed store is made once (`FeedRows`), and only when a cell may start
  // like a formula if the store can tell (`firstCodeOf`).
  const firstCodeOf = rows.firstCodeOf?.bind(rows);
  for (let r = 0; r < rows.length; r++) {
    if (firstCodeOf) {
      let may = false;
      for (const column of columns) may ||= startsLikeFormulaCode(firstCodeOf(r, column));
      if (!may) continue;
    }
    const row = rows.at(r) as FeedRow;
    for (const column of columns) {
      if (!startsLikeFormula(row[column] ?? '')) continue;
      issues.push({
        kind: 'warning',
        output: 'feed',
        rowId: row.id,
        rowNumber: r + 1,
        code: 'formula-start',
        message: formulaMessage(FEED_COLUMN_LABELS[column], row[column] ?? ''),
      });
    }
  }
  return issues;
}
