import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatCsvText, type RowIssue } from '@adloom/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputSink } from './files.ts';
import { IssueReport } from './report.ts';

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'adloom-report-'));
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

/** Feed row `n` starts on physical line `n + 1` (after the header) plus 10: lines are not rows. */
const lineOfRow = (n: number): number => n + 11;

function item(kind: RowIssue['kind'], rowNumber: number, message: string): RowIssue {
  return { kind, output: 'keywords', rowId: `row-${rowNumber}`, rowNumber, code: 'c', message };
}

/** The report's text once every item in `items` is added, and the report. */
function reportOf(items: readonly RowIssue[], rowCount: number): [string, IssueReport] {
  const file = path.join(tmpRoot, `report-${items.length}.csv`);
  const fd = openSync(file, 'w');
  const sink = new OutputSink(fd);
  const report = new IssueReport(sink, lineOfRow, rowCount);
  for (const i of items) report.add(i);
  sink.end();
  closeSync(fd);
  return [readFileSync(file, 'utf8'), report];
}

describe('IssueReport', () => {
  it('writes each item as the report table does: formulas neutralised, quotes, non-ASCII', () => {
    const items = [
      item('warning', 0, '=SUM(A1) in a template'),
      item('cleaned', 3, '+plus, "quoted"'),
      item('skipped', 4, '-minus Café Straße 😀'),
      item('warning', 5, '@at\nsecond line'),
      item('cleaned', 6, ' spaced '),
      item('skipped', 7, ''),
    ];
    const [text, report] = reportOf(items, 7);
    const table = {
      headers: ['Kind', 'Output', 'Line', 'Code', 'Message'],
      rows: items.map((i) => [
        i.kind,
        i.output,
        i.rowNumber ? String(lineOfRow(i.rowNumber)) : '',
        i.code,
        i.message,
      ]),
    };
    expect(text).toBe(formatCsvText(table, { neutraliseFormulas: true }));
    expect(report.count).toBe(items.length);
  });

  it('sums up many items keeping only the first of each kind, template items first', () => {
    const items: RowIssue[] = [];
    // 1000 warnings over rows 1..300 (a row warned more than once), then two from templates.
    for (let k = 0; k < 1000; k++) items.push(item('warning', (k % 300) + 1, `w${k}`));
    items.push(item('warning', 0, 'template one'), item('warning', 0, 'template two'));
    // 25 cleaned items on rows far apart, past the bit set's first words.
    for (let k = 0; k < 25; k++) items.push(item('cleaned', 1000 * k + 999, `c${k}`));
    const [, report] = reportOf(items, 30_000);
    const warnings = [
      'Warnings: 1002 items from 300 feed rows and the templates',
      '  template, keywords: template one',
      '  template, keywords: template two',
      ...Array.from({ length: 18 }, (_, k) => `  line ${k + 12}, keywords: w${k}`),
      '  ... and 982 more (see adloom-report.csv)',
    ];
    const cleaned = [
      'Cleaned: 25 items from 25 feed rows',
      ...Array.from(
        { length: 20 },
        (_, k) => `  line ${lineOfRow(1000 * k + 999)}, keywords: c${k}`,
      ),
      '  ... and 5 more (see adloom-report.csv)',
    ];
    expect(report.summaryLines()).toEqual([...cleaned, ...warnings]);
    expect(report.count).toBe(1027);
  });

  it('counts a row once per kind, names the templates alone, and says when nothing came', () => {
    const report = new IssueReport(undefined, lineOfRow, 2);
    expect(report.summaryLines()).toEqual(['No rows skipped or cleaned.']);
    report.add(item('skipped', 2, 'a'));
    report.add(item('skipped', 2, 'b'));
    report.add(item('cleaned', 0, 'from a template'));
    // Past the rows the report was made for: the bit set grows.
    report.add(item('skipped', 100, 'c'));
    report.add(item('skipped', 100, 'd'));
    expect(report.summaryLines()).toEqual([
      'Skipped: 4 items from 2 feed rows',
      '  line 13, keywords: a',
      '  line 13, keywords: b',
      '  line 111, keywords: c',
      '  line 111, keywords: d',
      'Cleaned: 1 item from the templates',
      '  template, keywords: from a template',
    ]);
  });
});
