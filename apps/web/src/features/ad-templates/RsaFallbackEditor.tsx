import {
  describeFailure,
  findPinFailure,
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_DESCRIPTION_MAX_PIN,
  RSA_HEADLINE_MAX_CHARS,
  RSA_HEADLINE_MAX_PIN,
  RSA_PATH_MAX_CHARS,
  type PinnedText,
  type RsaFallback,
} from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { LabelList } from './LabelList.tsx';
import { FallbackTextFields, type FallbackTextList } from './FallbackTextFields.tsx';
import { RSA_LIST_RULES } from './fallbackEdit.ts';

/** Why pins leave a position with nothing to show (Google rejects such an ad), if they do. */
function pinProblem(field: string, maxPin: number) {
  return (items: readonly PinnedText[]): string | undefined => {
    const failure = findPinFailure(
      field,
      items.map((item) => item.pos),
      maxPin,
    );
    return failure && describeFailure(failure);
  };
}

const RSA_TEXT_LISTS: readonly FallbackTextList<RsaFallback>[] = [
  {
    field: 'headlines',
    title: 'Headlines',
    itemLabel: 'Headline',
    rule: RSA_LIST_RULES.headlines,
    maxChars: () => RSA_HEADLINE_MAX_CHARS,
    pinPositions: RSA_HEADLINE_MAX_PIN,
    isHeadline: true,
    findProblem: pinProblem('Headline', RSA_HEADLINE_MAX_PIN),
  },
  {
    field: 'descriptions',
    title: 'Descriptions',
    itemLabel: 'Description',
    rule: RSA_LIST_RULES.descriptions,
    maxChars: () => RSA_DESCRIPTION_MAX_CHARS,
    pinPositions: RSA_DESCRIPTION_MAX_PIN,
    findProblem: pinProblem('Description', RSA_DESCRIPTION_MAX_PIN),
  },
];

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
  return (
    <div className="ad-fallback">
      <FallbackTextFields
        fallback={fallback}
        lists={RSA_TEXT_LISTS}
        pathMax={RSA_PATH_MAX_CHARS}
        measurer={measurer}
        onChange={onChange}
      />
      <LabelList
        labels={fallback.labels}
        measurer={measurer}
        onChange={(labels) => onChange({ ...fallback, labels })}
      />
    </div>
  );
}
