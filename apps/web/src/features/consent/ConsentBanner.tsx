import { useEffect, useState } from 'react';
import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { TagManagerSettings } from '@adloom/contract';
import { fetchPublicConfig } from '../../api/config.ts';
import { loadTagManager, readConsent, storeConsent, type AnalyticsConsent } from './tagManager.ts';
import classes from './ConsentBanner.module.css';

/** The banner's words. */
export const CONSENT_TEXTS = {
  region: 'Analytics consent',
  message:
    'May Adloom use Google Tag Manager to measure how the app is used? It records pages visited, errors and saved lists, never the contents of your feeds, templates or campaigns.',
  accept: 'Allow analytics',
  decline: 'No thanks',
  privacy: 'Privacy Policy',
} as const;

/** Sent by the Privacy page's "Change your analytics choice": the banner asks again. */
export const ASK_CONSENT_AGAIN_EVENT = 'adloom:ask-analytics-consent';

/**
 * Asks once per browser whether analytics may run, and only when the server configures a tag
 * manager (GTM_ID). Accepting loads the container; until then (and after "No thanks") no
 * third-party script is loaded and events go nowhere.
 */
export function ConsentBanner() {
  const [settings, setSettings] = useState<TagManagerSettings | null>(null);
  const [consent, setConsent] = useState<AnalyticsConsent | null>(readConsent);

  useEffect(() => {
    let isCurrent = true;
    fetchPublicConfig().then(
      (config) => {
        if (isCurrent) setSettings(config.tagManager);
      },
      () => undefined,
    );
    const askAgain = () => {
      storeConsent(null);
      setConsent(null);
    };
    window.addEventListener(ASK_CONSENT_AGAIN_EVENT, askAgain);
    return () => {
      isCurrent = false;
      window.removeEventListener(ASK_CONSENT_AGAIN_EVENT, askAgain);
    };
  }, []);

  useEffect(() => {
    if (settings?.enabled && consent === 'granted') loadTagManager(settings);
  }, [settings, consent]);

  if (!settings?.enabled || consent !== null) return null;

  function answer(choice: AnalyticsConsent) {
    storeConsent(choice);
    setConsent(choice);
  }

  return (
    <section className={classes.banner} aria-label={CONSENT_TEXTS.region}>
      <Paper shadow="md" radius="md" p="md" withBorder className={classes.panel}>
        <Text size="sm">
          {CONSENT_TEXTS.message}{' '}
          <Anchor component={Link} to="/privacy" size="sm">
            {CONSENT_TEXTS.privacy}
          </Anchor>
        </Text>
        <Group gap="xs" mt="sm" justify="flex-end">
          <Button size="xs" variant="default" onClick={() => answer('denied')}>
            {CONSENT_TEXTS.decline}
          </Button>
          <Button size="xs" onClick={() => answer('granted')}>
            {CONSENT_TEXTS.accept}
          </Button>
        </Group>
      </Paper>
    </section>
  );
}

/** Asks the banner to show again (the Privacy page's control). */
export function askConsentAgain(): void {
  window.dispatchEvent(new Event(ASK_CONSENT_AGAIN_EVENT));
}

/** Whether the server configures a tag manager (the Privacy page offers the choice only then). */
export function useTagManagerEnabled(): boolean {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let isCurrent = true;
    fetchPublicConfig().then(
      (config) => {
        if (isCurrent) setEnabled(config.tagManager.enabled);
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, []);
  return enabled;
}
