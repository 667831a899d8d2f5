import { NativeSelect } from '@mantine/core';
import {
  CALLS_TO_ACTION,
  PMAX_BUSINESS_NAME_MAX_CHARS,
  PMAX_DESCRIPTION_MAX_CHARS,
  PMAX_FIRST_DESCRIPTION_MAX_CHARS,
  PMAX_HEADLINE_MAX_CHARS,
  PMAX_LONG_HEADLINE_MAX_CHARS,
  PMAX_PATH_MAX_CHARS,
  type CallToAction,
  type PerformanceMaxFallback,
} from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { CountedInput } from './CountedInput.tsx';
import { PathFields } from './PathFields.tsx';
import { PinnedTextList } from './PinnedTextList.tsx';
import { PMAX_LIST_RULES, rsaPaths } from './fallbackEdit.ts';

/**
 * One Performance Max fallback: Headlines, Long Headlines, Descriptions (the first at most 60),
 * two Paths, Business Name and Call To Action.
 */
export function PerformanceFallbackEditor({
  fallback,
  measurer,
  onChange,
}: {
  fallback: PerformanceMaxFallback;
  measurer: TextMeasurer;
  onChange: (next: PerformanceMaxFallback) => void;
}) {
  const paths = rsaPaths(fallback);
  return (
    <div className="ad-fallback">
      <PinnedTextList
        title="Headlines"
        itemLabel="Headline"
        items={fallback.headlines}
        rule={PMAX_LIST_RULES.headlines}
        maxChars={() => PMAX_HEADLINE_MAX_CHARS}
        measurer={measurer}
        onChange={(headlines) => onChange({ ...fallback, headlines })}
      />
      <PinnedTextList
        title="Long Headlines"
        itemLabel="Long Headline"
        items={fallback.longHeadlines}
        rule={PMAX_LIST_RULES.longHeadlines}
        maxChars={() => PMAX_LONG_HEADLINE_MAX_CHARS}
        measurer={measurer}
        onChange={(longHeadlines) => onChange({ ...fallback, longHeadlines })}
      />
      <PinnedTextList
        title="Descriptions"
        itemLabel="Description"
        items={fallback.descriptions}
        rule={PMAX_LIST_RULES.descriptions}
        maxChars={(i) => (i === 0 ? PMAX_FIRST_DESCRIPTION_MAX_CHARS : PMAX_DESCRIPTION_MAX_CHARS)}
        measurer={measurer}
        onChange={(descriptions) => onChange({ ...fallback, descriptions })}
      />
      <PathFields
        paths={paths}
        max={PMAX_PATH_MAX_CHARS}
        measurer={measurer}
        onChange={(next) => onChange({ ...fallback, paths: next })}
      />
      <fieldset className="ad-field-list">
        <legend className="ad-field-list__legend">Business</legend>
        <div className="ad-paths">
          <CountedInput
            label="Business Name"
            value={fallback.businessName}
            max={PMAX_BUSINESS_NAME_MAX_CHARS}
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
