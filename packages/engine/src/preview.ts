/** Preview model: the first valid row and fallback as a mock search ad that honours pins. */
import { compilePerformanceMaxTemplate, fillPerformanceMaxFallback } from './ads/performanceMax.ts';
import { compileRsaTemplate, fillRsaFallback } from './ads/rsa.ts';
import { pinnedTexts } from './ads/shared.ts';
import { isEmptyFeedRow } from './data.ts';
import { PREVIEW_DESCRIPTION_SLOTS, PREVIEW_HEADLINE_SLOTS } from './limits.ts';
import { RowValues } from './text.ts';
import type { FeedRow, PerformanceMaxTemplate, PinnedText, RsaTemplate } from './types.ts';

/** Messages of the preview (spec section 2). */
export const PREVIEW_MESSAGES = {
  emptyRow: 'EMPTY ROW!',
  fallbackNeeded: 'FALLBACK NEEDED! Make sure that no variables are 0% and click play again',
  noRows: 'No rows found. Please select a feed',
} as const;

/** A random source in [0, 1), injected so previews are reproducible. */
export type RandomSource = () => number;

/** A small seeded random source (mulberry32): the same seed gives the same shuffle every time. */
export function seededRandom(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mock ad shown in the preview. */
export interface MockAd {
  /** Display URL: host of the final URL plus the non-empty paths. */
  displayUrl: string;
  finalUrl: string;
  /** The three headline slots (empty slots dropped). */
  headlines: string[];
  /** Headlines joined by ' | '. */
  headline: string;
  /** The two description slots. */
  descriptions: string[];
  description: string;
}

/** The display URL: the final URL's host (without www.) followed by the paths. */
export function makeDisplayUrl(finalUrl: string, paths: readonly string[]): string {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#:]*)/i.exec(finalUrl.trim());
  const host = (m?.[1] ?? '').replace(/^www\./i, '').toLowerCase();
  return [host, ...paths.filter((p) => p !== '')].join('/');
}

function shuffled<T>(items: readonly T[], random: RandomSource | undefined): T[] {
  const a = [...items];
  if (!random) return a;
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

/**
 * Fills `slots` positions: a slot takes a text pinned to it (the first of several, or a random one
 * when shuffling), else the next free text. Free texts keep their order unless `random` shuffles them.
 */
export function arrangeSlots(
  texts: readonly PinnedText[],
  slots: number,
  random?: RandomSource,
): string[] {
  const free = shuffled(
    texts.filter((t) => t.pos <= 0 || t.pos > slots).map((t) => t.text),
    random,
  );
  const out: string[] = [];
  for (let s = 1; s <= slots; s++) {
    const pinned = shuffled(
      texts.filter((t) => t.pos === s),
      random,
    );
    const text = pinned[0]?.text ?? free.shift();
    if (text !== undefined) out.push(text);
  }
  return out;
}

/** Builds the mock ad from filled texts. */
export function buildMockAd(input: {
  headlines: readonly PinnedText[];
  descriptions: readonly PinnedText[];
  paths: readonly string[];
  finalUrl: string;
  random?: RandomSource;
}): MockAd {
  const headlines = arrangeSlots(input.headlines, PREVIEW_HEADLINE_SLOTS, input.random);
  const descriptions = arrangeSlots(input.descriptions, PREVIEW_DESCRIPTION_SLOTS, input.random);
  return {
    displayUrl: makeDisplayUrl(input.finalUrl, input.paths),
    finalUrl: input.finalUrl,
    headlines,
    headline: headlines.join(' | '),
    descriptions,
    description: descriptions.join(' '),
  };
}

/** What the preview shows. */
export type PreviewModel =
  | { status: 'ok'; rowIndex: number; fallbackIndex: number; ad: MockAd }
  | { status: 'no-rows' | 'fallback-needed'; message: string };

/** Input of the preview builders. */
export interface BuildPreviewInput<T> {
  template: T;
  rows: readonly FeedRow[];
  /** Start looking at this row (the slideshow's current row); default 0. */
  startRow?: number;
  /** Shuffle free texts (and among several pins) with this source. */
  random?: RandomSource;
  /** The campaign template's constant, the value of `{const}`. */
  constant?: string;
}

/** RSA preview: the first row (from startRow) with a valid fallback, as a mock ad. */
export function buildRsaPreview(input: BuildPreviewInput<RsaTemplate>): PreviewModel {
  if (input.rows.length === 0) return { status: 'no-rows', message: PREVIEW_MESSAGES.noRows };
  const compiled = compileRsaTemplate(input.template);
  // One row's values and facts for every fallback tried on it, as the validators keep them.
  const current = new RowValues();
  current.values.const = input.constant ?? '';
  for (let r = input.startRow ?? 0; r < input.rows.length; r++) {
    const row = input.rows[r]!;
    if (isEmptyFeedRow(row)) continue;
    current.setRow(row);
    for (let i = 0; i < compiled.length; i++) {
      const f = fillRsaFallback(compiled[i]!, current.values, current.facts);
      if (f.ok) {
        return {
          status: 'ok',
          rowIndex: r,
          fallbackIndex: i,
          ad: buildMockAd({
            headlines: pinnedTexts(f.headlines, f.headlinePositions),
            descriptions: pinnedTexts(f.descriptions, f.descriptionPositions),
            paths: f.paths,
            finalUrl: row.url.trim(),
            random: input.random,
          }),
        };
      }
    }
  }
  return { status: 'fallback-needed', message: PREVIEW_MESSAGES.fallbackNeeded };
}

/** Performance Max preview: headlines and descriptions as unpinned texts. */
export function buildPerformanceMaxPreview(
  input: BuildPreviewInput<PerformanceMaxTemplate>,
): PreviewModel {
  if (input.rows.length === 0) return { status: 'no-rows', message: PREVIEW_MESSAGES.noRows };
  const compiled = compilePerformanceMaxTemplate(input.template);
  const current = new RowValues();
  current.values.const = input.constant ?? '';
  const free = (t: string[]): PinnedText[] => t.map((text) => ({ text, pos: 0 }));
  for (let r = input.startRow ?? 0; r < input.rows.length; r++) {
    const row = input.rows[r]!;
    if (isEmptyFeedRow(row)) continue;
    current.setRow(row);
    for (let i = 0; i < compiled.length; i++) {
      const f = fillPerformanceMaxFallback(compiled[i]!, current.values, current.facts);
      if (f.ok) {
        const ad = buildMockAd({
          headlines: free(f.headlines),
          descriptions: free(f.descriptions),
          paths: f.paths,
          finalUrl: row.url.trim(),
          random: input.random,
        });
        return { status: 'ok', rowIndex: r, fallbackIndex: i, ad };
      }
    }
  }
  return { status: 'fallback-needed', message: PREVIEW_MESSAGES.fallbackNeeded };
}
