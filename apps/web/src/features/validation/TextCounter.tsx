import { useEffect, useState } from 'react';
import { countAdTextLength, type FeedRow } from '@adloom/engine';
import { findLongestNow, measureLongest, type Longest } from './longest.ts';
import { SliceCancelled } from './slices.ts';
import './validation.css';

/** Wait after the last keystroke before measuring the text over all rows. */
export const LONGEST_DELAY_MS = 150;

/** Props of `TextCounter`. */
export interface TextCounterProps {
  /** The text as typed, placeholders and all. */
  text: string;
  /** Google's limit for the field (e.g. 30 for a headline). */
  max: number;
  /**
   * The selected feed rows. Treat the array as immutable: pass the same array while the rows
   * are unchanged (results are cached per array). Empty: only the typed length is shown.
   */
  rows: readonly FeedRow[];
  /** Optional id, so an input can point at the counter with aria-describedby. */
  id?: string;
}

/**
 * The length of a text as Google counts it ('12/30') and, when the text has placeholders and
 * rows are selected, the longest it becomes after substitution ('longest 34/30 (row 7)'),
 * marked when over the limit. The longest is measured in slices off the typing path.
 */
export function TextCounter({ text, max, rows, id }: TextCounterProps) {
  const length = countAdTextLength(text);
  const now = findLongestNow(text, rows);
  const [measured, setMeasured] = useState<{
    text: string;
    rows: readonly FeedRow[];
    longest: Longest;
  } | null>(null);

  useEffect(() => {
    if (findLongestNow(text, rows)) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      measureLongest(text, rows, controller.signal).then(
        (longest) => setMeasured({ text, rows, longest }),
        (error: unknown) => {
          if (!(error instanceof SliceCancelled)) throw error;
        },
      );
    }, LONGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, rows]);

  const longest =
    now ?? (measured && measured.text === text && measured.rows === rows ? measured.longest : null);
  const isOver = length > max;
  const hasPlaceholders = now === undefined || now.rowIndex >= 0;
  const isLongestOver = longest !== null && longest.length > max;
  return (
    <span className="text-counter" id={id} data-over={isOver || isLongestOver ? 'true' : undefined}>
      <span className={isOver ? 'text-counter__over' : undefined}>
        {length}/{max}
        {isOver ? ' over the limit' : ''}
      </span>
      {hasPlaceholders && rows.length > 0 ? (
        <span className={isLongestOver ? 'text-counter__over' : 'text-counter__longest'}>
          {longest === null
            ? ' · longest …'
            : ` · longest ${longest.length}/${max}${longest.rowIndex >= 0 ? ` (row ${longest.rowIndex + 1})` : ''}${isLongestOver ? ' over the limit' : ''}`}
        </span>
      ) : null}
    </span>
  );
}
