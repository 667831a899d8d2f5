import { afterEach, describe, expect, it } from 'vitest';
import { setAnalyticsSink, track, type AnalyticsSink } from '../../api/analytics.ts';
import {
  CONSENT_STORAGE_KEY,
  dataLayerEntry,
  loadTagManager,
  readConsent,
  storeConsent,
} from './tagManager.ts';

type DataLayerWindow = Window & { dataLayer?: unknown[] };

// The container's address is on loopback with nothing behind it: happy-dom is not to fetch it.
const happyDom = (
  window as {
    happyDOM?: {
      settings: {
        disableJavaScriptFileLoading: boolean;
        handleDisabledFileLoadingAsSuccess: boolean;
      };
    };
  }
).happyDOM;
if (happyDom) {
  happyDom.settings.disableJavaScriptFileLoading = true;
  happyDom.settings.handleDisabledFileLoadingAsSuccess = true;
}

describe('the tag manager', () => {
  let previous: AnalyticsSink | undefined;
  afterEach(() => {
    if (previous) setAnalyticsSink(previous);
    previous = undefined;
    localStorage.clear();
    for (const script of document.head.querySelectorAll('script')) script.remove();
    delete (window as DataLayerWindow).dataLayer;
  });

  it('keeps the answer, reads anything else as no answer, and forgets it on request', () => {
    expect(readConsent()).toBeNull();
    storeConsent('granted');
    expect(readConsent()).toBe('granted');
    storeConsent('denied');
    expect(readConsent()).toBe('denied');
    localStorage.setItem(CONSENT_STORAGE_KEY, 'maybe');
    expect(readConsent()).toBeNull();
    storeConsent('granted');
    storeConsent(null);
    expect(readConsent()).toBeNull();
  });

  it('loads nothing when it is off', () => {
    previous = setAnalyticsSink(() => undefined);
    loadTagManager({ enabled: false });
    expect(document.head.querySelectorAll('script')).toHaveLength(0);
    expect((window as DataLayerWindow).dataLayer).toBeUndefined();
  });

  it('loads the container once, starts its data layer, and sends later events to it', () => {
    previous = setAnalyticsSink(() => undefined);
    const settings = {
      enabled: true,
      id: 'GTM-AB12CD3',
      scriptUrl: 'http://127.0.0.1:4100/gtm.js?l=x',
    } as const;
    loadTagManager(settings);
    loadTagManager(settings);
    const scripts = document.head.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.src).toBe('http://127.0.0.1:4100/gtm.js?l=x&id=GTM-AB12CD3');
    expect(scripts[0]?.async).toBe(true);
    const layer = (window as DataLayerWindow).dataLayer ?? [];
    expect(layer).toHaveLength(1);
    expect(layer[0]).toMatchObject({ event: 'gtm.js' });
    track({ name: 'create-item', type: 'feed' });
    expect(layer[1]).toEqual({ event: 'adloom.create-item', type: 'feed' });
  });

  it('names the event and keeps its fields', () => {
    expect(dataLayerEntry({ name: 'error', message: 'm', status: 500, path: '/api/x' })).toEqual({
      event: 'adloom.error',
      message: 'm',
      status: 500,
      path: '/api/x',
    });
  });
});
