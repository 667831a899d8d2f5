import { useId, type ReactNode } from 'react';
import { ActionIcon, Button, Textarea, TextInput } from '@mantine/core';
import type { PinnedText } from '@adloom/engine';
import { isTypedTextOver, TextCounter, type TextMeasurer } from '../validation/index.ts';
import {
  addPinned,
  canAddEntry,
  canDeleteEntry,
  padPinned,
  removeAt,
  replaceAt,
  type TextListRule,
} from './fallbackEdit.ts';

/** Props of `PinnedTextList`. */
export interface PinnedTextListProps {
  /** 'Headlines', 'Long Headlines', 'Descriptions'. */
  title: string;
  /** One entry's label: 'Headline' gives 'Headline 1', 'Headline 2' ... */
  itemLabel: string;
  items: readonly PinnedText[];
  rule: TextListRule;
  /** Google's limit of entry `index`. */
  maxChars: (index: number) => number;
  /** Highest pin position (3 for RSA headlines, 2 for descriptions); omitted: no position radio. */
  pinPositions?: number;
  /** Headlines and long headlines: Google allows no "!" in them. */
  isHeadline?: boolean;
  /** What is wrong with the list as a whole (pins leaving a position empty), if anything. */
  problem?: string;
  measurer: TextMeasurer;
  onChange: (items: PinnedText[]) => void;
}

/**
 * A list of ad texts: each with its counter, its position radio (Any or 1..n) when pins apply,
 * and a delete button where the count rules allow one; 'Add ...' until the most is reached.
 */
export function PinnedTextList({
  title,
  itemLabel,
  items,
  rule,
  maxChars,
  pinPositions,
  isHeadline = false,
  problem,
  measurer,
  onChange,
}: PinnedTextListProps) {
  const lower = itemLabel.toLowerCase();
  // At least the rule's fewest entries show; an edit writes the list as shown.
  const shown = padPinned(items, rule);
  return (
    <fieldset className="ad-field-list">
      <legend className="ad-field-list__legend">
        {title}{' '}
        <span className="ad-field-list__count">
          ({shown.length}
          {Number.isFinite(rule.max) ? `/${rule.max}` : ''})
        </span>
      </legend>
      {shown.map((item, index) => {
        const name = `${itemLabel} ${index + 1}`;
        const max = maxChars(index);
        return (
          <div className="ad-field-row" key={index}>
            <PinnedTextField
              isMultiline={!isHeadline}
              label={name}
              value={item.text}
              error={isTypedTextOver(item.text, max, measurer)}
              onChange={(text) => onChange(replaceAt(shown, index, { ...item, text }))}
              counter={
                <TextCounter
                  text={item.text}
                  max={max}
                  measurer={measurer}
                  editorial={isHeadline ? 'headline' : 'text'}
                />
              }
            />
            {pinPositions ? (
              <PositionRadio
                name={`${name} position`}
                value={item.pos}
                positions={pinPositions}
                onChange={(pos) => onChange(replaceAt(shown, index, { ...item, pos }))}
              />
            ) : null}
            {canDeleteEntry(rule, index) ? (
              <ActionIcon
                className="ad-field-row__delete"
                variant="subtle"
                color="red"
                aria-label={`Delete ${lower} ${index + 1}`}
                title={`Delete ${lower} ${index + 1}`}
                onClick={() => onChange(removeAt(shown, index, rule))}
              >
                ×
              </ActionIcon>
            ) : (
              <span className="ad-field-row__delete-space" />
            )}
          </div>
        );
      })}
      {problem ? (
        <p className="ad-field-list__problem" role="alert">
          {problem}
        </p>
      ) : null}
      {canAddEntry(rule, shown.length) ? (
        <Button
          variant="light"
          size="xs"
          className="ad-field-list__add"
          onClick={() => onChange(addPinned(shown, rule))}
        >
          Add {lower}
        </Button>
      ) : null}
    </fieldset>
  );
}

/** The counter under the field, above its error. */
const INPUT_WRAPPER_ORDER: ('label' | 'input' | 'description' | 'error')[] = [
  'label',
  'input',
  'description',
  'error',
];

/**
 * One ad text with its counter: a one-line input for headlines, a multi-line field for
 * descriptions that grows with its text, so the whole of it shows (still one line of ad
 * text: Enter adds no line break, and pasted line breaks become spaces).
 */
function PinnedTextField({
  isMultiline,
  label,
  value,
  error,
  counter,
  onChange,
}: {
  isMultiline: boolean;
  label: string;
  value: string;
  error: boolean;
  counter: ReactNode;
  onChange: (text: string) => void;
}) {
  const shared = {
    className: 'ad-field-row__input',
    label,
    value,
    error,
    description: counter,
    inputWrapperOrder: INPUT_WRAPPER_ORDER,
  };
  if (!isMultiline)
    return <TextInput {...shared} onChange={(event) => onChange(event.currentTarget.value)} />;
  return (
    <Textarea
      {...shared}
      autosize
      minRows={2}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.preventDefault();
      }}
      onChange={(event) => onChange(event.currentTarget.value.replace(/\r?\n/g, ' '))}
    />
  );
}

/** The position radio of one text: Any (free placement, pos 0) or a fixed position 1..n. */
export function PositionRadio({
  name,
  value,
  positions,
  onChange,
}: {
  /** Accessible name of the group, e.g. 'Headline 1 position'. */
  name: string;
  value: number;
  positions: number;
  onChange: (pos: number) => void;
}) {
  const options = Array.from({ length: positions + 1 }, (_, pos) => pos);
  const groupName = useId();
  return (
    <div className="position-radio" role="radiogroup" aria-label={name}>
      <span className="position-radio__title" aria-hidden="true">
        Position
      </span>
      <div className="position-radio__options">
        {options.map((pos) => (
          <label
            key={pos}
            className="position-radio__option"
            data-checked={value === pos || undefined}
          >
            <input
              type="radio"
              name={groupName}
              value={pos}
              checked={value === pos}
              onChange={() => onChange(pos)}
            />
            <span>{pos === 0 ? 'Any' : pos}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
