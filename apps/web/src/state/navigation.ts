import { keptForPage } from './pageState.ts';

/** Navigation for code outside components (the generic error handler, the session timer). */
type Navigate = (to: string, options?: { replace?: boolean; state?: unknown }) => void;

const leavePage: Navigate = (to) => {
  window.location.assign(to);
};

let navigator: Navigate = leavePage;
keptForPage(() => {
  navigator = leavePage;
});

/** Installs the router's navigate function. */
export function setNavigator(next: Navigate): void {
  navigator = next;
}

/** Goes to an app path. */
export function navigateTo(to: string, options?: { replace?: boolean; state?: unknown }): void {
  navigator(to, options);
}
