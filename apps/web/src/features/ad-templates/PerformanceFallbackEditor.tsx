import { NativeSelect } from '@mantine/core';
import {
  CALLS_TO_ACTION,
  PMAX_MAX_CHARS,
  PMAX_SHORT_DESCRIPTION_MAX_CHARS,
  PMAX_SHORT_HEADLINE_MAX_CHARS,
  type CallToAction,
  type PerformanceMaxFallback,
} from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { CountedInput } from './CountedInput.tsx';
import { FallbackTextFields, type FallbackTextList } from './FallbackTextFields.tsx';
import { PMAX_LIST_RULES } from './fallbackEdit.ts';
import { ShortTextRule } from './ShortTextRule.tsx';

const PMAX_TEXT_LISTS: readonly FallbackTextList<PerformanceMaxFallback>[] = [
  {
    field: 'headlines',
    title: 'Headlines',
    itemLabel: 'Headline',
    rule: PMAX_LIST_RULES.headlines,
    maxChars: () => PMAX_MAX_CHARS.headline,
    isHeadline: true,
  },
  {
    field: 'longHeadlines',
    title: 'Long Headlines',
    itemLabel: 'Long Headline',
    rule: PMAX_LIST_RULES.longHeadlines,
    maxChars: () => PMAX_MAX_CHARS.longHeadline,
    isHeadline: true,
  },
  {
    field: 'descriptions',
    title: 'Descriptions',
    itemLabel: 'Description',
    rule: PMAX_LIST_RULES.descriptions,
    maxChars: (i) => (i === 0 ? PMAX_MAX_CHARS.firstDescription : PMAX_MAX_CHARS.description),
  },
];

/**
 * One Performance Max fallback: Headlines, Long Headlines, Descriptions (the first at most 60),
 * two Paths, Business Name and Call To Action; under the texts, Google's rules of one headline
 * of 15 characters or fewer and one description of 60 or fewer, as the person types.
 */
export function PerformanceFallbackEditor({
  fallback,
  measurer,
  onChange,
  hasRules = true,
}: {
  fallback: PerformanceMaxFallback;
  measurer: TextMeasurer;
  onChange: (next: PerformanceMaxFallback) => void;
  /** Shows Google's short headline and description rules (the template editor; not the preview). */
  hasRules?: boolean;
}) {
  return (
    <div className="ad-fallback">
      <FallbackTextFields
        fallback={fallback}
        lists={PMAX_TEXT_LISTS}
        pathMax={PMAX_MAX_CHARS.path}
        measurer={measurer}
        onChange={onChange}
      />
      {hasRules ? (
        <div className="ad-short-rules">
          <ShortTextRule
            name="Short headline rule"
            itemLabel="Headline"
            texts={fallback.headlines.map((h) => h.text)}
            max={PMAX_SHORT_HEADLINE_MAX_CHARS}
            measurer={measurer}
          />
          <ShortTextRule
            name="Short description rule"
            itemLabel="Description"
            texts={fallback.descriptions.map((d) => d.text)}
            max={PMAX_SHORT_DESCRIPTION_MAX_CHARS}
            measurer={measurer}
          />
        </div>
      ) : null}
      <fieldset className="ad-field-list">
        <legend className="ad-field-list__legend">Business</legend>
        <div className="ad-paths">
          <CountedInput
            label="Business Name"
            value={fallback.businessName}
            max={PMAX_MAX_CHARS.businessName}
            measurer={measurer}
            onChange={(businessName) => onChange({ ...fallback, businessName })}
          />
          <NativeSelect
            label="Call To Action"
            value={fallback.callToAction === '' ? 'None' : fallback.callToAction}
            data={[...CALLS_TO_ACTION]}
            onChange={(event) => {
              const value = event.currentTarget.value as CallToAction;
              onChange({ ...fallback, callToAction: value === 'None' ? '' : value });
            }}
          />
        </div>
      </fieldset>
    </div>
  );
}
