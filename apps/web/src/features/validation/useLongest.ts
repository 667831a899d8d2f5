import { useEffect, useState } from 'react';
import type { Longest } from './checks.ts';
import type { TextMeasurer } from './measurer.ts';
import { SliceCancelled } from './slices.ts';

/** Wait after the last keystroke before measuring the text over all rows. */
export const LONGEST_DELAY_MS = 150;

/**
 * The longest `text` becomes over the measurer's rows: `known` when the measurer already holds
 * it, else measured with `measure` once the text has rested LONGEST_DELAY_MS (null meanwhile).
 * `measure` must be a stable (module-level) function.
 */
export function useLongest(
  text: string,
  measurer: TextMeasurer,
  known: Longest | null,
  measure: (text: string, measurer: TextMeasurer, signal: AbortSignal) => Promise<Longest>,
): Longest | null {
  const [measured, setMeasured] = useState<{
    text: string;
    measurer: TextMeasurer;
    longest: Longest;
  } | null>(null);
  const isKnown = known !== null;
  useEffect(() => {
    if (isKnown) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      measure(text, measurer, controller.signal).then(
        (longest) => setMeasured({ text, measurer, longest }),
        (error: unknown) => {
          if (!(error instanceof SliceCancelled)) console.error(error);
        },
      );
    }, LONGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, measurer, isKnown, measure]);
  if (known) return known;
  return measured && measured.text === text && measured.measurer === measurer
    ? measured.longest
    : null;
}
