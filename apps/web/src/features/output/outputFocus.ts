import { keptForPage } from '../../state/pageState.ts';

/** The template tab whose Generate asked for the focus, until its output table takes it. */
let waitingScope: Element | null = null;
keptForPage(() => {
  waitingScope = null;
});

/**
 * A Generate was pressed: the next output table given a new table inside the same template tab
 * takes the focus, so the keyboard and a screen reader land on what the action produced.
 */
export function focusNextOutput(generate: HTMLElement): void {
  waitingScope = generate.closest('[role="tabpanel"]');
}

/** An output table was given a new table: it takes the focus when a Generate asked for it. */
export function claimOutputFocus(table: HTMLElement): void {
  if (!waitingScope?.contains(table)) return;
  waitingScope = null;
  table.focus();
}
