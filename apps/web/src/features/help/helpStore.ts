import { createStore } from '../../state/store.ts';

/** Whether the help overlay (the guides wheel) is open. */
export const helpOverlayOpen = createStore(false);
