/**
 * Where a feed may be cut so that a campaign template's run over each part, the parts in row
 * order, writes what one run over the whole feed writes (the web app's pool of workers).
 * Everything one run carries from row to row belongs to one campaign (its ad groups, their
 * merging and dedupe, cross negatives, held negatives, keyword conflicts, name variants), so a
 * cut is clean where no campaign has rows on both sides of it.
 */
import { cleanName, fillRaw, foldName } from './names.ts';
import { hasPausedRow, rowStatusCodes } from './rowStatus.ts';
import { compilePattern, NO_ROW_VALUES, type PlaceholderValues } from './text.ts';
import type { CampaignTemplate, FeedRow, FeedRows } from './types.ts';

/**
 * The starts of at most `parts` parts of `rows` (the first 0), each part followed by the next
 * one's start, the last by `rows.length`: cut only where no campaign (by folded name) has rows
 * on both sides, each cut at the first clean place at or after an even share of the rows. One
 * part (`[0, rows.length]`) when the campaign pattern uses `{mt}` (a row's campaigns are then
 * several) or some row is paused (a run's status columns depend on every row).
 */
export function campaignCuts(template: CampaignTemplate, rows: FeedRows, parts: number): number[] {
  const n = rows.length;
  const whole = [0, n];
  if (parts <= 1 || n < 2) return whole;
  const pattern = compilePattern(template.campaign);
  if (pattern.slots.includes('mt') || hasPausedRow(rowStatusCodes(rows))) return whole;
  const values: PlaceholderValues = { row: NO_ROW_VALUES, const: template.const, mt: '' };
  // Per row the last row of its campaign (-1: the row names no campaign).
  const keys = new Array<string>(n);
  const lastRowOf = new Map<string, number>();
  for (let r = 0; r < n; r += 1) {
    values.row = rows.at(r) as FeedRow;
    const key = foldName(cleanName(fillRaw(pattern, values)).name);
    keys[r] = key;
    if (key !== '') lastRowOf.set(key, r);
  }
  const starts = [0];
  let reach = -1;
  for (let r = 0; r < n - 1 && starts.length < parts; r += 1) {
    const key = keys[r] as string;
    if (key !== '') reach = Math.max(reach, lastRowOf.get(key) as number);
    const target = Math.ceil((starts.length * n) / parts);
    if (reach <= r && r + 1 >= target) starts.push(r + 1);
  }
  starts.push(n);
  return starts;
}
