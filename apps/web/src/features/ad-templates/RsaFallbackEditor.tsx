import {
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_CHARS,
  RSA_HEADLINE_MAX_PIN,
  RSA_PATH_MAX_CHARS,
  type RsaFallback,
} from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { LabelList } from './LabelList.tsx';
import { PathFields } from './PathFields.tsx';
import { PinnedTextList } from './PinnedTextList.tsx';
import { RSA_LIST_RULES, rsaPaths } from './fallbackEdit.ts';

/** One RSA fallback: Headlines and Descriptions with positions, two Paths and Labels. */
export function RsaFallbackEditor({
  fallback,
  measurer,
  onChange,
}: {
  fallback: RsaFallback;
  measurer: TextMeasurer;
  onChange: (next: RsaFallback) => void;
}) {
  const paths = rsaPaths(fallback);
  return (
    <div className="ad-fallback">
      <PinnedTextList
        title="Headlines"
        itemLabel="Headline"
        items={fallback.headlines}
        rule={RSA_LIST_RULES.headlines}
        maxChars={() => RSA_HEADLINE_MAX_CHARS}
        pinPositions={RSA_HEADLINE_MAX_PIN}
        measurer={measurer}
        onChange={(headlines) => onChange({ ...fallback, headlines })}
      />
      <PinnedTextList
        title="Descriptions"
        itemLabel="Description"
        items={fallback.descriptions}
        rule={RSA_LIST_RULES.descriptions}
        maxChars={() => RSA_DESCRIPTION_MAX_CHARS}
        pinPositions={RSA_DESCRIPTION_MAX_PIN}
        measurer={measurer}
        onChange={(descriptions) => onChange({ ...fallback, descriptions })}
      />
      <PathFields
        paths={paths}
        max={RSA_PATH_MAX_CHARS}
        measurer={measurer}
        onChange={(next) => onChange({ ...fallback, paths: next })}
      />
      <LabelList
        labels={fallback.labels}
        measurer={measurer}
        onChange={(labels) => onChange({ ...fallback, labels })}
      />
    </div>
  );
}
