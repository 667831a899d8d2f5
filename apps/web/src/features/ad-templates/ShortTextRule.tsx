import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import type { Longest, TextMeasurer } from '../validation/index.ts';

/** Waits this long after the last keystroke before measuring over the rows (as the counters). */
const RULE_DELAY_MS = 300;

/**
 * The longest each text becomes over the measurer's rows: known at once for static text or no
 * rows, else measured off the typing path (null until then).
 */
function useLongestOfAll(texts: readonly string[], measurer: TextMeasurer): Array<Longest | null> {
  const key = texts.join('\u0000');
  const [measured, setMeasured] = useState<{
    key: string;
    measurer: TextMeasurer;
    results: Longest[];
  } | null>(null);
  const isKnown = texts.every((t) => measurer.peek(t) !== undefined);
  useEffect(() => {
    if (isKnown) return undefined;
    const controller = new AbortController();
    const list = key.split('\u0000');
    const timer = setTimeout(() => {
      Promise.all(list.map((t) => measurer.measure(t, controller.signal))).then(
        (results) => setMeasured({ key, measurer, results }),
        (error: unknown) => {
          if (!controller.signal.aborted) console.error(error);
        },
      );
    }, RULE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, measurer, isKnown]);
  const fresh = measured && measured.key === key && measured.measurer === measurer;
  return texts.map((t, i) => measurer.peek(t) ?? (fresh ? (measured.results[i] ?? null) : null));
}

/**
 * Google's rule that a Performance Max asset group has one headline of 15 characters or fewer
 * (and one description of 60 or fewer), shown under the list as the person types: which text
 * meets it over every selected row (its longest after substitution), or that none does yet.
 */
export function ShortTextRule({
  name,
  itemLabel,
  texts,
  max,
  measurer,
}: {
  /** The status's accessible name ("Short headline rule"). */
  name: string;
  /** The list's item label ("Headline"): the text that meets the rule is named by it. */
  itemLabel: string;
  texts: readonly string[];
  max: number;
  measurer: TextMeasurer;
}) {
  const longest = useLongestOfAll(texts, measurer);
  const lead = `Google needs one ${itemLabel.toLowerCase()} of ${max} characters or fewer: `;
  let message: string;
  let isOk: boolean | null = null;
  const filled = longest.flatMap((l, i) =>
    l !== null && (texts[i] ?? '').trim() !== ''
      ? [{ i, length: l.length, isOverRows: l.rowIndex >= 0 }]
      : [],
  );
  const meets = filled.find((f) => f.length <= max);
  if (meets) {
    isOk = true;
    const over = meets.isOverRows ? ' (its longest over the rows)' : '';
    message = `${itemLabel} ${meets.i + 1} has ${meets.length}${over}.`;
  } else if (longest.some((l, i) => l === null && (texts[i] ?? '').trim() !== '')) {
    message = 'checking…';
  } else {
    isOk = false;
    const shortest = Math.min(...filled.map((f) => f.length));
    message = filled.length
      ? `none yet (the shortest has ${shortest}).`
      : `none yet (no ${itemLabel.toLowerCase()} is filled in).`;
  }
  return (
    <Text
      role="status"
      aria-label={name}
      size="xs"
      className="ad-short-rule"
      data-ok={isOk === null ? undefined : String(isOk)}
      c={isOk === false ? '#a33a0c' : 'dimmed'}
    >
      {lead}
      {message}
    </Text>
  );
}
