import type { TagManagerSettings } from '@adloom/contract';
import { setAnalyticsSink, type AnalyticsEvent } from '../../api/analytics.ts';
import { keptForPage } from '../../state/pageState.ts';

// Google Tag Manager, loaded only after the person accepts analytics (the consent banner): its
// container script, and the app's events (api/analytics.ts `track`) pushed to its data layer.

/** The person's answer to the consent banner, kept in this browser. */
export type AnalyticsConsent = 'granted' | 'denied';

/** Where the answer is kept. */
export const CONSENT_STORAGE_KEY = 'adloom.analyticsConsent';

/** The page's data layer, as Google's container reads it. */
type DataLayerWindow = Window & { dataLayer?: unknown[] };

let loadedId: string | null = null;
keptForPage(() => {
  loadedId = null;
});

/** The stored answer, or null when the person has not answered (or storage is unavailable). */
export function readConsent(): AnalyticsConsent | null {
  try {
    const value = localStorage.getItem(CONSENT_STORAGE_KEY);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the answer (null forgets it: the banner asks again). */
export function storeConsent(consent: AnalyticsConsent | null): void {
  try {
    if (consent === null) localStorage.removeItem(CONSENT_STORAGE_KEY);
    else localStorage.setItem(CONSENT_STORAGE_KEY, consent);
  } catch {
    // Storage refused (private mode): the answer lasts for this page only.
  }
}

/** An app event as a data layer entry: `event` is its name, the rest its fields. */
export function dataLayerEntry(event: AnalyticsEvent): Record<string, unknown> {
  const { name, ...fields } = event;
  return { event: `adloom.${name}`, ...fields };
}

/**
 * Loads the container once per page (`<scriptUrl>?id=<id>`) after starting its data layer, and
 * sends every later app event to that data layer. Does nothing when the tag manager is off.
 */
export function loadTagManager(settings: TagManagerSettings, target: Document = document): void {
  if (!settings.enabled || loadedId === settings.id) return;
  loadedId = settings.id;
  const view = target.defaultView as DataLayerWindow | null;
  if (!view) return;
  const dataLayer = (view.dataLayer ??= []);
  dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  setAnalyticsSink((event) => {
    dataLayer.push(dataLayerEntry(event));
  });
  const script = target.createElement('script');
  script.async = true;
  const url = new URL(settings.scriptUrl);
  url.searchParams.set('id', settings.id);
  script.src = url.href;
  target.head.append(script);
}
