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
}: {
  label: string;
  value: string;
  /** Google's limit; omitted: no counter (labels). */
  max?: number;
  measurer: TextMeasurer;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <TextInput
      className={className}
      label={label}
      value={value}
      error={max !== undefined && isTypedTextOver(value, max, measurer)}
      onChange={(event) => onChange(event.currentTarget.value)}
      description={
        max === undefined ? undefined : <TextCounter text={value} max={max} measurer={measurer} />
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
