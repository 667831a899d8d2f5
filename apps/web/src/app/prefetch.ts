import { useEffect } from 'react';

/** The meta tag in which the build names the signed-in app's files (vite.config.ts). */
const PREFETCH_META = 'meta[name="adloom-prefetch"]';

function prefetchSignedInApp(): void {
  const files = document.querySelector(PREFETCH_META)?.getAttribute('content')?.split(' ') ?? [];
  for (const href of files) {
    if (!href || document.querySelector(`link[rel="prefetch"][href="${href}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.href = href;
    // Module scripts are fetched in CORS mode (Vite's crossorigin): the cached copy must match.
    if (href.endsWith('.js')) link.crossOrigin = '';
    document.head.append(link);
  }
}

/**
 * Once the page has loaded and the browser is idle, fetches the signed-in app's files into the
 * HTTP cache (not run), so that signing in does not wait for them.
 */
export function usePrefetchSignedInApp(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let cancel = () => {};
    const whenIdle = () => {
      // Safari has no requestIdleCallback: a second after the load there.
      if (typeof window.requestIdleCallback === 'function') {
        const handle = window.requestIdleCallback(prefetchSignedInApp, { timeout: 5000 });
        cancel = () => window.cancelIdleCallback(handle);
      } else {
        const handle = window.setTimeout(prefetchSignedInApp, 1000);
        cancel = () => window.clearTimeout(handle);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      window.removeEventListener('load', whenIdle);
      cancel();
    };
  }, [enabled]);
}
