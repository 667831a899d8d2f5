import {
  compilePattern,
  countAdTextLength,
  findAdTextIssues,
  findEditorialProblems,
} from '@adloom/engine';
import type { TextMeasurer } from './measurer.ts';
import { useLongest } from './useLongest.ts';
import './validation.css';

/**
 * Whether the text is over the limit as typed, where that is the measure: no rows are selected
 * or the text has no placeholder. (With rows, the counter marks the longest substitution.)
 */
export function isTypedTextOver(text: string, max: number, measurer: TextMeasurer): boolean {
  if (countAdTextLength(text) <= max) return false;
  return measurer.rowCount === 0 || compilePattern(text).isStatic;
}

function measureText(text: string, measurer: TextMeasurer, signal: AbortSignal) {
  return measurer.measure(text, signal);
}

/** Props of `TextCounter`. */
export interface TextCounterProps {
  /** The text as typed, placeholders and all. */
  text: string;
  /** Google's limit for the field (e.g. 30 for a headline). */
  max: number;
  /**
   * Measures over the selected rows: `useTextMeasurer(workspace)` (worker) or
   * `measurerFromRows(rows)`. With no rows only the typed length is shown.
   */
  measurer: TextMeasurer;
  /** Optional id, so an input can point at the counter with aria-describedby. */
  id?: string;
  /**
   * Google's editorial rules on the text as typed: 'headline' (no "!" either) or 'text';
   * omitted: none (e.g. labels).
   */
  editorial?: 'headline' | 'text';
}

/** The editorial problems of a typed text, as the counter words them. */
function editorialNotes(text: string, editorial: 'headline' | 'text' | undefined): string[] {
  if (editorial === undefined || text === '') return [];
  return findEditorialProblems(text, editorial === 'headline').map((p) =>
    p.code === 'spacing' ? `Text ${p.message} (the ads get them tidied)` : `Text ${p.message}`,
  );
}

/**
 * The length of a text as Google counts it ('12/30') and, when the text has placeholders and
 * rows are selected, the longest it becomes after substitution ('longest 34/30 (row 7)'),
 * marked when over the limit. The longest is measured off the typing path.
 */
export function TextCounter({ text, max, measurer, id, editorial }: TextCounterProps) {
  const length = countAdTextLength(text);
  const issues = findAdTextIssues(text);
  const notes = editorialNotes(text, editorial);
  const now = measurer.peek(text);
  const longest = useLongest(text, measurer, now ?? null, measureText);
  const showsLongest = measurer.rowCount > 0 && (longest === null || longest.rowIndex >= 0);
  // With rows, a text with placeholders is judged by its longest substitution, not as typed.
  const isOver = length > max && !showsLongest;
  const isLongestOver = showsLongest && longest !== null && longest.length > max;
  return (
    <span className="text-counter" id={id} data-over={isOver || isLongestOver ? 'true' : undefined}>
      <span className={isOver ? 'text-counter__over' : undefined}>
        {length}/{max}
        {isOver ? ' over the limit' : ''}
      </span>
      {showsLongest ? (
        <span className={isLongestOver ? 'text-counter__over' : 'text-counter__longest'}>
          {longest === null
            ? ' · longest …'
            : ` · longest ${longest.length}/${max} (row ${longest.rowIndex + 1})${isLongestOver ? ' over the limit' : ''}`}
        </span>
      ) : null}
      {issues.map((issue) => (
        <span key={issue.token + issue.code} className="text-counter__issue">
          {' · '}
          {issue.message}
        </span>
      ))}
      {notes.map((note) => (
        <span key={note} className="text-counter__issue">
          {' · '}
          {note}
        </span>
      ))}
    </span>
  );
}
