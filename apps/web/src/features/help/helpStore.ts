import { createStore } from '../../state/store.ts';
import { keptForPage } from '../../state/pageState.ts';

/** Whether the help overlay (the guides wheel) is open. */
export const helpOverlayOpen = createStore(false);
keptForPage(() => helpOverlayOpen.set(false));
