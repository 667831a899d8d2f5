import type { TagManagerSettings } from '@adloom/contract';
import type { CspSources } from '../http/security-headers.ts';

/** Google's tag host: the container script and the pixels it sets. */
const GOOGLE_TAG_HOST = 'www.googletagmanager.com';

/**
 * Google Analytics 4's hosts, which a Google container sends its hits to (Google's guide "Use
 * Google Tag Manager with a Content Security Policy",
 * https://developers.google.com/tag-platform/security/guides/csp).
 */
const GOOGLE_ANALYTICS_SOURCES = [
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
  'https://*.googletagmanager.com',
];

/**
 * What the Content-Security-Policy must allow for the tag manager: nothing when it is off; the
 * script's origin for scripts, images and connections; for Google's own host also the Analytics
 * hosts its container reports to. The container is loaded by our own script after consent, so
 * no inline script (and no nonce) is needed.
 */
export function tagManagerCspSources(
  settings: TagManagerSettings,
): Required<Pick<CspSources, 'scriptSrc' | 'imgSrc' | 'connectSrc'>> {
  if (!settings.enabled) return { scriptSrc: [], imgSrc: [], connectSrc: [] };
  const url = new URL(settings.scriptUrl);
  if (url.hostname !== GOOGLE_TAG_HOST)
    return { scriptSrc: [url.origin], imgSrc: [url.origin], connectSrc: [url.origin] };
  return {
    scriptSrc: [url.origin],
    imgSrc: [url.origin, ...GOOGLE_ANALYTICS_SOURCES],
    connectSrc: [url.origin, ...GOOGLE_ANALYTICS_SOURCES],
  };
}
