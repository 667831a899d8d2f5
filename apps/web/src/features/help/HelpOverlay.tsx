import { useEffect, useState, type CSSProperties } from 'react';
import { Button, Modal, Text, Title } from '@mantine/core';
import { useStore } from '../../state/store.ts';
import { helpOverlayOpen } from './helpStore.ts';
import {
  HELP_CLOSE_ANIMATION_MS,
  HELP_FEATURES,
  HELP_VIDEO_DELAY_MS,
  HELP_VIDEO_HEIGHT,
  HELP_VIDEO_WIDTH,
  VIDEO_COMING_SOON,
  type HelpFeature,
} from './helpFeatures.ts';
import classes from './HelpOverlay.module.css';

/** The guides overlay: a wheel of nine features; a feature opens its video panel. */
export function HelpOverlay() {
  const isOpen = useStore(helpOverlayOpen);
  const [active, setActive] = useState<HelpFeature | null>(null);

  function handleClose() {
    helpOverlayOpen.set(false);
    // Reset once the closing animation is over so the wheel shows next time.
    window.setTimeout(() => setActive(null), HELP_CLOSE_ANIMATION_MS);
  }

  return (
    <Modal
      opened={isOpen}
      onClose={handleClose}
      size={HELP_VIDEO_WIDTH + 40}
      centered
      title={active ? active.name : 'Guides'}
      transitionProps={{ transition: 'pop', duration: HELP_CLOSE_ANIMATION_MS }}
      closeButtonProps={{ 'aria-label': 'Close guides' }}
    >
      {active ? (
        <FeaturePanel feature={active} onBack={() => setActive(null)} />
      ) : (
        <Wheel onChoose={setActive} />
      )}
    </Modal>
  );
}

function Wheel({ onChoose }: { onChoose: (feature: HelpFeature) => void }) {
  const count = HELP_FEATURES.length;
  return (
    <div className={classes.wheel}>
      <div className={classes.centre}>
        <Text fw={600}>Not sure how to use a specific part of Adloom?</Text>
        <Text size="sm" c="dimmed">
          Click an icon to see a video.
        </Text>
      </div>
      <ul className={classes.ring} aria-label="Help topics">
        {HELP_FEATURES.map((feature, index) => {
          const angle = (index / count) * 2 * Math.PI - Math.PI / 2;
          const style = {
            '--x': `${50 + 41 * Math.cos(angle)}%`,
            '--y': `${50 + 41 * Math.sin(angle)}%`,
          } as CSSProperties;
          return (
            <li key={feature.id} className={classes.item} style={style}>
              <button
                type="button"
                className={classes.icon}
                onClick={() => onChoose(feature)}
                aria-label={feature.name}
              >
                <span className={classes.glyph} aria-hidden>
                  {feature.icon}
                </span>
                <span className={classes.label}>{feature.name}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function FeaturePanel({ feature, onBack }: { feature: HelpFeature; onBack: () => void }) {
  const [isVideoShown, setIsVideoShown] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setIsVideoShown(true), HELP_VIDEO_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [feature.id]);

  return (
    <div className={classes.panel}>
      <div
        className={classes.video}
        style={{ aspectRatio: `${HELP_VIDEO_WIDTH} / ${HELP_VIDEO_HEIGHT}` }}
      >
        {isVideoShown &&
          (feature.video ? (
            <iframe
              title={`${feature.name} video`}
              src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(feature.video)}?autoplay=1`}
              allow="autoplay; encrypted-media; picture-in-picture"
              allowFullScreen
            />
          ) : (
            <Title order={3} className={classes.comingSoon}>
              {VIDEO_COMING_SOON}
            </Title>
          ))}
      </div>
      <Text size="sm" mt="md">
        {feature.summary}
      </Text>
      <Button variant="default" mt="md" onClick={onBack}>
        Back
      </Button>
    </div>
  );
}
