import { useEffect, useState } from 'react';
import type { MediaSettings } from '@adloom/contract';
import { fetchPublicConfig } from '../../api/config.ts';

/** What shows when the server's settings cannot be read: no frame anywhere. */
const NO_MEDIA: MediaSettings = { helpVideoUrls: {}, landingVideoUrl: null, demoBookingUrl: null };

/**
 * The configured frames (help videos, the landing page's video, demo booking). A failed ask
 * counts as "nothing configured".
 */
function loadMediaSettings(): Promise<MediaSettings> {
  return fetchPublicConfig().then(
    (config) => config.media,
    () => NO_MEDIA,
  );
}

/** The configured frames; null until the server has answered. */
export function useMediaSettings(): MediaSettings | null {
  const [settings, setSettings] = useState<MediaSettings | null>(null);
  useEffect(() => {
    let isCurrent = true;
    void loadMediaSettings().then((loaded) => {
      if (isCurrent) setSettings(loaded);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  return settings;
}
