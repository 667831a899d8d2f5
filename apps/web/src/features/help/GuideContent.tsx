import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { PlayerFrame } from '../media/PlayerFrame.tsx';
import { useMediaSettings } from '../media/mediaSettings.ts';
import {
  GUIDE_SCREENSHOT_HEIGHT,
  GUIDE_SCREENSHOT_WIDTH,
  HELP_VIDEO_DELAY_MS,
  HELP_VIDEO_HEIGHT,
  HELP_VIDEO_WIDTH,
  type HelpFeature,
} from './helpFeatures.ts';
import classes from './HelpOverlay.module.css';

/**
 * A guide's video (840 × 472.5, shown 500 ms after the guide opens) when HELP_VIDEO_URLS
 * configures one, else its written walkthrough with a screenshot of the real screen.
 */
export function GuideContent({ feature }: { feature: HelpFeature }) {
  const media = useMediaSettings();
  const [isVideoDue, setIsVideoDue] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setIsVideoDue(true), HELP_VIDEO_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [feature.id]);

  const videoUrl = media?.helpVideoUrls[feature.id];
  if (media === null || videoUrl) {
    return (
      <div
        className={classes.video}
        style={{ aspectRatio: `${HELP_VIDEO_WIDTH} / ${HELP_VIDEO_HEIGHT}` }}
      >
        {videoUrl && isVideoDue ? (
          <PlayerFrame src={videoUrl} title={`${feature.name} video`} />
        ) : null}
      </div>
    );
  }

  const { steps, screenshot, screenshotAlt } = feature.walkthrough;
  return (
    <div className={classes.walkthrough}>
      {/* The full-size picture opens on its own, for small screens. */}
      <a href={screenshot} target="_blank" rel="noreferrer">
        <img
          className={classes.screenshot}
          src={screenshot}
          alt={screenshotAlt}
          width={GUIDE_SCREENSHOT_WIDTH}
          height={GUIDE_SCREENSHOT_HEIGHT}
          loading="lazy"
          decoding="async"
        />
      </a>
      <div>
        <Text fw={600} mb={4}>
          How it works
        </Text>
        <ol className={classes.steps}>
          {steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </div>
    </div>
  );
}
