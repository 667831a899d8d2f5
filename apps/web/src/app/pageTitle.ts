/** The product name, first in every page title. */
export const PRODUCT_NAME = 'Adloom';
/** The default tagline for routes without a title. */
export const DEFAULT_TAGLINE = 'Professional search campaigns in seconds';

/** Spec section 2: the product name plus the route title, or a default tagline. */
export function formatPageTitle(routeTitle: string | undefined): string {
  return routeTitle ? `${PRODUCT_NAME} | ${routeTitle}` : `${PRODUCT_NAME} | ${DEFAULT_TAGLINE}`;
}

/** What a route declares in its `handle`. */
export interface RouteHandle {
  title?: string;
}

/** The title of the deepest route that has one, from the handles of the matched routes (outermost first). */
export function deepestTitle(handles: readonly unknown[]): string | undefined {
  return [...handles]
    .reverse()
    .map((handle) => (handle as RouteHandle | undefined)?.title)
    .find(Boolean);
}
