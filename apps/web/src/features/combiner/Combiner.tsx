import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { FEED_COLUMN_LABELS, FEED_TEXT_COLUMNS } from '@adloom/engine';
import type { FeedStore } from '../feed-grid/feedStore.ts';
import { formatCount, formatRows } from '../feed-grid/gridLayout.ts';
import { SEED_COLUMN_COUNT, parseSeedText, planCombination } from './combine.ts';
import { combineIntoStore } from './combineIntoStore.ts';
import './Combiner.css';

/** Labels of the seed boxes: the feed's text columns as the grid names them. */
export const SEED_LABELS: readonly string[] = FEED_TEXT_COLUMNS.map((c) => FEED_COLUMN_LABELS[c]);
/** The spec's seed text area size. */
const SEED_COLS = 25;
const SEED_ROWS = 5;

/** Props of Combiner. */
export interface CombinerProps {
  /** The feed the combinations are added to. */
  store: FeedStore;
  /** Starting text of the five boxes. */
  initialSeeds?: string[];
  /** Extra controls under a seed box (the list dropdown and Save List of the builder). */
  renderSeedTools?: (column: number, text: string, setText: (text: string) => void) => ReactNode;
  /** Called after a combine with its outcome message. */
  onCombined?: (outcome: { ok: boolean; message: string }) => void;
}

/**
 * The combiner footer: five seed boxes, link buttons between neighbours, Unlink All and
 * Combine, which adds every combination to the feed (made in a worker). The number of rows a
 * combine will make shows before it runs.
 */
export function Combiner({ store, initialSeeds, renderSeedTools, onCombined }: CombinerProps) {
  const [texts, setTexts] = useState<string[]>(() =>
    Array.from({ length: SEED_COLUMN_COUNT }, (_, i) => initialSeeds?.[i] ?? ''),
  );
  const [links, setLinks] = useState<boolean[]>(() =>
    new Array<boolean>(SEED_COLUMN_COUNT - 1).fill(false),
  );
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  const seeds = useMemo(() => texts.map(parseSeedText), [texts]);
  const plan = useMemo(() => planCombination({ seeds, links }), [seeds, links]);
  const isBusy = progress !== null;

  const setText = useCallback((column: number, text: string) => {
    setTexts((previous) => previous.map((value, i) => (i === column ? text : value)));
    setResult(null);
  }, []);

  const toggleLink = useCallback((index: number) => {
    setLinks((previous) => previous.map((value, i) => (i === index ? !value : value)));
    setResult(null);
  }, []);

  const handleCombine = useCallback(async () => {
    setProgress(0);
    setResult(null);
    const outcome = await combineIntoStore(store, { seeds, links }, setProgress);
    setProgress(null);
    setResult(outcome);
    onCombined?.(outcome);
  }, [links, onCombined, seeds, store]);

  const summary = !plan.ok
    ? plan.message
    : plan.rowCount === 0
      ? 'Enter values in the seed boxes, one per line.'
      : `Combine will add ${formatRows(plan.rowCount)}.`;

  return (
    <section className="combiner compact-text" aria-label="Combiner">
      <div className="combiner__seeds">
        {SEED_LABELS.map((label, column) => (
          <div className="combiner__seed-group" key={label}>
            <div className="combiner__seed">
              <label className="combiner__label" htmlFor={`combiner-seed-${column}`}>
                {label}
              </label>
              <textarea
                id={`combiner-seed-${column}`}
                className="combiner__textarea"
                cols={SEED_COLS}
                rows={SEED_ROWS}
                spellCheck={false}
                value={texts[column]}
                onChange={(event) => setText(column, event.target.value)}
              />
              <span className="combiner__lines">
                {formatCount(seeds[column]!.length)}{' '}
                {seeds[column]!.length === 1 ? 'value' : 'values'}
              </span>
              {renderSeedTools?.(column, texts[column]!, (text) => setText(column, text))}
            </div>
            {column < SEED_COLUMN_COUNT - 1 ? (
              <button
                type="button"
                className={`combiner__link${links[column] ? ' is-linked' : ''}`}
                aria-pressed={links[column]}
                aria-label={`Link ${label} and ${SEED_LABELS[column + 1]}`}
                title={
                  links[column] ? 'Linked: values are paired line by line' : 'Link these columns'
                }
                onClick={() => toggleLink(column)}
              >
                <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
                  <path
                    d="M8.5 11.5a3 3 0 0 0 4.2 0l2.6-2.6a3 3 0 0 0-4.2-4.2l-.9.9M11.5 8.5a3 3 0 0 0-4.2 0l-2.6 2.6a3 3 0 0 0 4.2 4.2l.9-.9"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="1.6"
                    strokeLinecap="round"
                  />
                </svg>
              </button>
            ) : null}
          </div>
        ))}
      </div>
      <div className="combiner__actions">
        <button
          type="button"
          className="combiner__button"
          onClick={() => {
            setLinks(new Array<boolean>(SEED_COLUMN_COUNT - 1).fill(false));
            setResult(null);
          }}
          disabled={!links.some(Boolean)}
        >
          Unlink All
        </button>
        <button
          type="button"
          className="combiner__button combiner__button--primary"
          onClick={() => void handleCombine()}
          disabled={isBusy || !plan.ok || plan.rowCount === 0}
        >
          Combine
        </button>
        <span
          className={`combiner__summary${plan.ok ? '' : ' is-error'}`}
          role={plan.ok ? 'status' : 'alert'}
        >
          {isBusy ? `Combining… ${Math.round(progress * 100)}%` : result ? result.message : summary}
        </span>
      </div>
    </section>
  );
}
