/** A search template's patterns compiled for the keyword path, and what each needs per row. */
import { PLACEHOLDERS, compilePattern, type CompiledPattern } from '../text.ts';
import type { CampaignTemplate } from '../types.ts';
import { BROAD, EXACT, matchTypeCode } from './matchTypes.ts';
import { MT_SLOT, planOf, type Plan, type PieceFacts } from './plans.ts';

/** The patterns of a search template (see `compileKeywordPatterns`). */
export interface KeywordPatterns {
  campaignPattern: CompiledPattern;
  groupPattern: CompiledPattern;
  campaignPlan: Plan;
  groupPlan: Plan;
  /** The ad group pattern has `{mt}`: a group per match type. */
  splitsByMatchType: boolean;
  /** Keyword patterns by index: positives first, then negatives (each in template order). */
  pats: CompiledPattern[];
  /** Their match type codes and plans. */
  mts: number[];
  plans: Plan[];
  positiveCount: number;
  negativeCount: number;
  /** The row slots the patterns use ({mt} and {const} are fixed): measured once per row. */
  rowSlots: number[];
  /**
   * Per pattern the last word of a keyword made from its pieces, when its last part holds a
   * space (the keyword ends with that part), else undefined.
   */
  lastWords: Array<string | undefined>;
  /**
   * Per pattern an earlier one with the same text (a keyword under two match types), else -1:
   * the row's keyword made from its pieces for that one is this one's too.
   */
  sameAs: number[];
  /**
   * The match types whose ad groups a row of a `{mt}` template can reach: those of its positive
   * patterns, and Broad when it has an Exact one (a row's Exact keywords become Negative Exact
   * lines of the row's Broad group).
   */
  reachMts: number[];
}

/**
 * Compiles the template's patterns. Every keyword line counts, whatever its `selected` (that is
 * only the keyword table's selection); empty ones are left out.
 */
export function compileKeywordPatterns(template: CampaignTemplate): KeywordPatterns {
  const campaignPattern = compilePattern(template.campaign);
  const groupPattern = compilePattern(template.adGroup);
  const campaignPlan = planOf(campaignPattern);
  const groupPlan = planOf(groupPattern);
  const positives: Array<{ pattern: CompiledPattern; mt: number }> = [];
  const negativePatterns: Array<{ pattern: CompiledPattern; mt: number }> = [];
  for (const k of template.keywords) {
    if (k.keyword.trim() === '') continue;
    const mt = matchTypeCode(k.matchType);
    (mt <= EXACT ? positives : negativePatterns).push({ pattern: compilePattern(k.keyword), mt });
  }
  const positiveCount = positives.length;
  const all = [...positives, ...negativePatterns];
  const pats = all.map((k) => k.pattern);
  const mts = all.map((k) => k.mt);
  const plans = pats.map(planOf);

  const rowSlots: number[] = [];
  for (const plan of [campaignPlan, groupPlan, ...plans])
    for (const slot of plan.slots)
      if (slot !== MT_SLOT && PLACEHOLDERS[slot] !== 'const' && !rowSlots.includes(slot))
        rowSlots.push(slot);
  const lastWords = plans.map((plan) => {
    const end = (plan.parts[plan.parts.length - 1] as PieceFacts).lower;
    const space = end.lastIndexOf(' ');
    return plan.isTidyFrame && plan.isKeywordFrame && space >= 0 ? end.slice(space + 1) : undefined;
  });
  const sameAs = pats.map((p, k) => {
    const j = pats.findIndex((q) => q.source === p.source);
    return j < k ? j : -1;
  });
  const reachMts = [BROAD, 1, EXACT].filter((mt) => {
    const positiveMts = mts.slice(0, positiveCount);
    return positiveMts.includes(mt) || (mt === BROAD && positiveMts.includes(EXACT));
  });
  return {
    campaignPattern,
    groupPattern,
    campaignPlan,
    groupPlan,
    splitsByMatchType: groupPattern.slots.includes('mt'),
    pats,
    mts,
    plans,
    positiveCount,
    negativeCount: negativePatterns.length,
    rowSlots,
    lastWords,
    sameAs,
    reachMts,
  };
}
