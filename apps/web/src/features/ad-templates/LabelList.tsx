import { ActionIcon, Button } from '@mantine/core';
import { LABEL_SEPARATOR_REASON } from '@adloom/engine';
import type { TextMeasurer } from '../validation/index.ts';
import { CountedInput } from './CountedInput.tsx';
import { canDeleteEntry, LABEL_RULE, removeAt, replaceAt } from './fallbackEdit.ts';

/** The labels of a fallback: 'Label n' inputs, Add label, and delete for all but the first. */
export function LabelList({
  labels,
  measurer,
  onChange,
}: {
  labels: readonly string[];
  measurer: TextMeasurer;
  onChange: (labels: string[]) => void;
}) {
  return (
    <fieldset className="ad-field-list">
      <legend className="ad-field-list__legend">Labels</legend>
      {labels.map((label, index) => (
        <div className="ad-field-row" key={index}>
          <CountedInput
            className="ad-field-row__input"
            label={`Label ${index + 1}`}
            value={label}
            hint={index === 0 ? 'yyyymmdd-v1, -v2 or -v3 become today’s date' : undefined}
            error={
              label.includes(';')
                ? `The label ${LABEL_SEPARATOR_REASON}: it is not written`
                : undefined
            }
            measurer={measurer}
            onChange={(value) => onChange(replaceAt(labels, index, value))}
          />
          {canDeleteEntry(LABEL_RULE, index) ? (
            <ActionIcon
              className="ad-field-row__delete"
              variant="subtle"
              color="red"
              aria-label={`Delete label ${index + 1}`}
              title={`Delete label ${index + 1}`}
              onClick={() => onChange(removeAt(labels, index, LABEL_RULE))}
            >
              ×
            </ActionIcon>
          ) : (
            <span className="ad-field-row__delete-space" />
          )}
        </div>
      ))}
      <Button
        variant="light"
        size="xs"
        className="ad-field-list__add"
        onClick={() => onChange([...labels, ''])}
      >
        Add label
      </Button>
    </fieldset>
  );
}
