import { useState, type CSSProperties } from 'react';
import { Button, Modal, Text } from '@mantine/core';
import { useStore } from '../../state/store.ts';
import { helpOverlayOpen } from './helpStore.ts';
import { GuideContent } from './GuideContent.tsx';
import { GuideIcon } from './GuideIcon.tsx';
import {
  HELP_CLOSE_ANIMATION_MS,
  HELP_FEATURES,
  HELP_VIDEO_WIDTH,
  type HelpFeature,
} from './helpFeatures.ts';
import classes from './HelpOverlay.module.css';

/** The guides overlay: a wheel of nine features; a feature opens its video or walkthrough. */
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
          Click an icon to see a video or a short walkthrough.
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
                <span className={classes.glyph}>
                  <GuideIcon id={feature.id} />
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
  return (
    <div className={classes.panel}>
      <GuideContent feature={feature} />
      <Text size="sm" mt="md">
        {feature.summary}
      </Text>
      <Button variant="default" mt="md" onClick={onBack}>
        Back
      </Button>
    </div>
  );
}
