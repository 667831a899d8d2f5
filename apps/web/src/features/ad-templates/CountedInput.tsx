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
}) {
  return (
    <TextInput
      className={className}
      label={label}
      value={value}
      error={max !== undefined && isTypedTextOver(value, max, measurer)}
      onChange={(event) => onChange(event.currentTarget.value)}
      description={
        max === undefined ? hint : <TextCounter text={value} max={max} measurer={measurer} />
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
