import type { PerformanceMaxFallback, PinnedText, RsaFallback } from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { PathFields } from './PathFields.tsx';
import { PinnedTextList } from './PinnedTextList.tsx';
import { rsaPaths, type TextListRule } from './fallbackEdit.ts';

/** The fields of a fallback that hold a list of pinned texts. */
type PinnedListField<F> = {
  [K in keyof F]: F[K] extends PinnedText[] ? K : never;
}[keyof F] &
  string;

/** One list of a fallback's texts and its limits. */
export interface FallbackTextList<F> {
  field: PinnedListField<F>;
  title: string;
  itemLabel: string;
  rule: TextListRule;
  maxChars: (index: number) => number;
  pinPositions?: number;
  /** Headlines and long headlines: Google allows no "!" in them. */
  isHeadline?: boolean;
  /** What is wrong with the list as a whole, if anything (e.g. pins leaving a position empty). */
  findProblem?: (items: readonly PinnedText[]) => string | undefined;
}

/** A fallback's lists of pinned texts, then its two paths; every edit hands back a new fallback. */
export function FallbackTextFields<F extends RsaFallback | PerformanceMaxFallback>({
  fallback,
  lists,
  pathMax,
  measurer,
  onChange,
}: {
  fallback: F;
  lists: readonly FallbackTextList<F>[];
  pathMax: number;
  measurer: TextMeasurer;
  onChange: (next: F) => void;
}) {
  return (
    <>
      {lists.map((list) => (
        <PinnedTextList
          key={list.field}
          title={list.title}
          itemLabel={list.itemLabel}
          items={fallback[list.field] as PinnedText[]}
          rule={list.rule}
          maxChars={list.maxChars}
          pinPositions={list.pinPositions}
          isHeadline={list.isHeadline}
          problem={list.findProblem?.(fallback[list.field] as PinnedText[])}
          measurer={measurer}
          onChange={(items) => onChange({ ...fallback, [list.field]: items })}
        />
      ))}
      <PathFields
        paths={rsaPaths(fallback)}
        max={pathMax}
        measurer={measurer}
        onChange={(paths) => onChange({ ...fallback, paths })}
      />
    </>
  );
}
