/**
 * How to split a feed among workers so that a campaign template's run over each worker's rows,
 * the outputs merged by row, writes what one run over the whole feed writes (the web app's pool
 * of workers). Everything one run carries from row to row belongs to one campaign (its ad groups,
 * their merging and dedupe, cross negatives, held negatives, keyword conflicts, name variants),
 * so each campaign's rows go to one part, and within a part the rows keep their order.
 */
import { cleanName, fillRaw, foldName } from './names.ts';
import { hasPausedRow, rowStatusCodes } from './rowStatus.ts';
import { compilePattern, NO_ROW_VALUES, type PlaceholderValues } from './text.ts';
import type { CampaignTemplate, FeedRow, FeedRows } from './types.ts';

/**
 * The part (0 to `parts - 1`) of each row of `rows`: every row of a campaign (by folded name) in
 * one part, the campaigns dealt biggest first to the part with the fewest rows so far (a row that
 * names no campaign makes only its own issues: it joins the part with the fewest rows). Undefined
 * when the feed is not to be split: one part asked, fewer than two campaigns, a campaign pattern
 * with `{mt}` (a row's campaigns are then several) or a paused row (a run's status columns then
 * depend on every row).
 */
export function campaignParts(
  template: CampaignTemplate,
  rows: FeedRows,
  parts: number,
): Uint8Array | undefined {
  const n = rows.length;
  if (parts <= 1 || n < 2) return undefined;
  const pattern = compilePattern(template.campaign);
  if (pattern.slots.includes('mt') || hasPausedRow(rowStatusCodes(rows))) return undefined;
  const values: PlaceholderValues = { row: NO_ROW_VALUES, const: template.const, mt: '' };
  // Per row its campaign's number (-1: none), and per campaign its rows.
  const campaignOf = new Int32Array(n);
  const numbers = new Map<string, number>();
  const sizes: number[] = [];
  let loose = 0;
  for (let r = 0; r < n; r += 1) {
    values.row = rows.at(r) as FeedRow;
    const key = foldName(cleanName(fillRaw(pattern, values)).name);
    if (key === '') {
      campaignOf[r] = -1;
      loose += 1;
      continue;
    }
    let c = numbers.get(key);
    if (c === undefined) {
      c = sizes.length;
      numbers.set(key, c);
      sizes.push(0);
    }
    campaignOf[r] = c;
    sizes[c] = (sizes[c] as number) + 1;
  }
  if (sizes.length < 2) return undefined;
  const count = Math.min(parts, sizes.length, 255);
  const loads = new Array<number>(count).fill(0);
  const lightest = (): number => loads.indexOf(Math.min(...loads));
  const partOfCampaign = new Uint8Array(sizes.length);
  const order = sizes
    .map((_, c) => c)
    .sort((a, b) => (sizes[b] as number) - (sizes[a] as number) || a - b);
  for (const c of order) {
    const p = lightest();
    partOfCampaign[c] = p;
    loads[p] = (loads[p] as number) + (sizes[c] as number);
  }
  const out = new Uint8Array(n);
  // Loose rows one at a time, each to the lightest part so far.
  for (let r = 0; r < n; r += 1) {
    const c = campaignOf[r] as number;
    if (c >= 0) out[r] = partOfCampaign[c] as number;
  }
  if (loose > 0)
    for (let r = 0; r < n; r += 1) {
      if ((campaignOf[r] as number) >= 0) continue;
      const p = lightest();
      out[r] = p;
      loads[p] = (loads[p] as number) + 1;
    }
  return out;
}
