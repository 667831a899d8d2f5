import { TextInput } from '@mantine/core';
import { isTypedTextOver, TextCounter, type TextMeasurer } from '../validation/index.ts';

/** A text input with its live counter (paths, labels, business name). */
export function CountedInput({
  label,
  value,
  max,
  measurer,
  onChange,
  className,
  hint,
  editorial = 'text',
  error,
}: {
  label: string;
  value: string;
  /** Google's limit; omitted: no counter (labels). */
  max?: number;
  measurer: TextMeasurer;
  onChange: (value: string) => void;
  className?: string;
  /** Shown under an input without a counter (e.g. the label date helpers). */
  hint?: string;
  /** Google's editorial rules checked as typed (see `TextCounter`). */
  editorial?: 'headline' | 'text';
  /** Why the value is refused (e.g. a label with ';'). */
  error?: string;
}) {
  return (
    <TextInput
      className={className}
      label={label}
      value={value}
      error={error ?? (max !== undefined && isTypedTextOver(value, max, measurer))}
      onChange={(event) => onChange(event.currentTarget.value)}
      description={
        max === undefined ? (
          hint
        ) : (
          <TextCounter text={value} max={max} measurer={measurer} editorial={editorial} />
        )
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
