// The build's prerendering entry (scripts/prerender.mjs runs it in Node after `vite build --ssr`):
// the public pages people open first are drawn into their own HTML files, so their first and
// largest paint come with the HTML; main.tsx then hydrates them.
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/AppProviders.tsx';
import { deepestTitle, formatPageTitle } from './app/pageTitle.ts';
import { routes } from './app/routes.tsx';

export { STORED_SESSION_SCRIPT } from './app/storedSession.ts';

/** The pages drawn at build time: the landing page and the sign-in page. */
export const PRERENDERED_PATHS = ['/', '/login'];

/** A page as a signed-out visitor first sees it: the markup inside #root and the page title. */
export async function prerenderPage(path: string): Promise<{ markup: string; title: string }> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, 'http://localhost')));
  if (context instanceof Response) throw new Error(`${path} answers ${context.status}, not a page`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const markup = renderToString(
    <AppProviders>
      {/* No hydration data script: the routes load no data, and the policy allows no such script. */}
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  const title = deepestTitle(context.matches.map((match) => match.route.handle));
  return { markup, title: formatPageTitle(title) };
}
