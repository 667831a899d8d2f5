/**
 * What the ad preview shows for one row, on the engine's preview model: the mock ad from the
 * first fallback valid for the row, 'EMPTY ROW!', or 'FALLBACK NEEDED! ...'.
 */
import {
  buildPerformanceMaxPreview,
  buildRsaPreview,
  isEmptyFeedRow,
  PREVIEW_MESSAGES,
  type FeedRow,
  type MockAd,
  type PerformanceMaxTemplate,
  type RandomSource,
  type RsaTemplate,
} from '@adloom/engine';

/** The two previewed template kinds, with the campaign template's constant for `{const}`. */
export type PreviewTemplate = (
  { kind: 'rsa'; template: RsaTemplate } | { kind: 'performance'; template: PerformanceMaxTemplate }
) & { constant?: string };

/** One row's slide. */
export type Slide =
  | { status: 'ok'; fallbackIndex: number; ad: MockAd }
  | { status: 'empty'; message: string }
  | { status: 'fallback-needed'; message: string }
  | { status: 'no-rows'; message: string };

/** Preview texts (spec sections 2 and 5). */
export const PREVIEW_TEXTS = PREVIEW_MESSAGES;

function build(
  subject: PreviewTemplate,
  rows: readonly FeedRow[],
  startRow: number,
  random?: RandomSource,
) {
  const input = {
    rows,
    startRow,
    constant: subject.constant ?? '',
    ...(random ? { random } : {}),
  };
  return subject.kind === 'rsa'
    ? buildRsaPreview({ ...input, template: subject.template })
    : buildPerformanceMaxPreview({ ...input, template: subject.template });
}

/** The slide of one row. */
export function slideFor(
  subject: PreviewTemplate,
  row: FeedRow | undefined,
  random?: RandomSource,
): Slide {
  if (!row) return { status: 'no-rows', message: PREVIEW_TEXTS.noRows };
  if (isEmptyFeedRow(row)) return { status: 'empty', message: PREVIEW_TEXTS.emptyRow };
  const model = build(subject, [row], 0, random);
  if (model.status === 'ok')
    return { status: 'ok', fallbackIndex: model.fallbackIndex, ad: model.ad };
  return { status: 'fallback-needed', message: PREVIEW_TEXTS.fallbackNeeded };
}

/** The first row (from 0) that a fallback serves, or -1. */
export function findFirstValidRow(subject: PreviewTemplate, rows: readonly FeedRow[]): number {
  const model = build(subject, rows, 0);
  return model.status === 'ok' ? model.rowIndex : -1;
}
