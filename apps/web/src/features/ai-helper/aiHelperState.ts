import { createStore } from '../../state/store.ts';
import { keptForPage } from '../../state/pageState.ts';

/** Where the panel was left, kept in the tab's session storage. */
const POSITION_KEY = 'adloom.aiHelperPosition';

function storedPosition(): { x: number; y: number } {
  try {
    const kept = JSON.parse(sessionStorage.getItem(POSITION_KEY) ?? 'null') as unknown;
    if (kept && typeof kept === 'object' && 'x' in kept && 'y' in kept) {
      const { x, y } = kept;
      if (typeof x === 'number' && typeof y === 'number') return { x, y };
    }
  } catch {
    // A damaged value: the default place.
  }
  return { x: 24, y: 72 };
}

/** Whether the panel is open and where (the place kept for the session, across pages). */
export const panelState = createStore({ isOpen: false, ...storedPosition() });
panelState.subscribe(() => {
  const { x, y } = panelState.get();
  sessionStorage.setItem(POSITION_KEY, JSON.stringify({ x, y }));
});
/** Set once the server said it has no model (501): the panel says so instead of the form. */
export const notConfigured = createStore(false);
keptForPage(() => {
  panelState.set({ isOpen: false, ...storedPosition() });
  notConfigured.set(false);
});
