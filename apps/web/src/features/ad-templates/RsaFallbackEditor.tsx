import {
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_CHARS,
  RSA_HEADLINE_MAX_PIN,
  RSA_PATH_MAX_CHARS,
  type RsaFallback,
} from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { CountedInput } from './CountedInput.tsx';
import { LabelList } from './LabelList.tsx';
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
      <fieldset className="ad-field-list">
        <legend className="ad-field-list__legend">Paths</legend>
        <div className="ad-paths">
          {paths.map((path, index) => (
            <CountedInput
              key={index}
              label={`Path ${index + 1}`}
              value={path}
              max={RSA_PATH_MAX_CHARS}
              measurer={measurer}
              onChange={(value) => {
                const next: [string, string] = [...paths];
                next[index] = value;
                onChange({ ...fallback, paths: next });
              }}
            />
          ))}
        </div>
      </fieldset>
      <LabelList
        labels={fallback.labels}
        measurer={measurer}
        onChange={(labels) => onChange({ ...fallback, labels })}
      />
    </div>
  );
}
