import { useState } from 'react';
import { Button, Checkbox, Group, Modal, Text } from '@mantine/core';
import type { Tutorial } from '@adloom/contract';
import { setTutorialDoneStatus, toggleTutorials } from '../../api/users.ts';
import { handleApiError } from '../../api/client.ts';
import { statusOf } from '../../api/errors.ts';
import { notifyError } from '../../state/notifications.ts';
import { session } from '../../state/session.ts';
import { useSession } from '../../state/useSession.ts';
import { isServerFailure } from '../auth/messages.ts';
import { GuideContent } from '../help/GuideContent.tsx';
import { HELP_VIDEO_WIDTH, INTRO_GUIDE } from '../help/helpFeatures.ts';
import { TUTORIAL_MESSAGES } from './messages.ts';

/** The first-time tutorial's one step (spec section 4). */
const INTRO_STEP = 'Intro';

/** Spec section 4: a step shows unless tutorials are disabled or the step is done. */
function isTutorialStepDue(tutorial: Tutorial, step: string): boolean {
  return (
    !tutorial.disabled && !tutorial.tutorialSteps.some((s) => s.name === step && s.done === true)
  );
}

/**
 * The intro tutorial modal of the campaign builder (spec sections 2 and 4): the intro video
 * (its written walkthrough when no video is configured) and a 'No more tutorials' checkbox.
 * Done, X, Escape or the backdrop close it: the step is marked done, or the tutorials are
 * disabled when the box is ticked. The account page's Reset Tutorials shows it again.
 */
export function IntroTutorial() {
  const current = useSession();
  const [isClosed, setIsClosed] = useState(false);
  const [isNoMoreChecked, setIsNoMoreChecked] = useState(false);
  if (!current || isClosed || !isTutorialStepDue(current.user.tutorial, INTRO_STEP)) return null;

  async function handleClose() {
    setIsClosed(true);
    const shouldDisable = isNoMoreChecked;
    try {
      const tutorial = shouldDisable
        ? await toggleTutorials(true)
        : await setTutorialDoneStatus(INTRO_STEP, true);
      session.updateUser((u) => ({ ...u, tutorial }));
    } catch (error) {
      if (isServerFailure(error)) handleApiError(error);
      else
        notifyError(
          shouldDisable ? TUTORIAL_MESSAGES.disableFailed : TUTORIAL_MESSAGES.doneFailed,
          undefined,
          statusOf(error),
        );
    }
  }

  return (
    <Modal
      opened
      onClose={() => void handleClose()}
      size={HELP_VIDEO_WIDTH + 40}
      centered
      title="Welcome to Adloom"
      closeButtonProps={{ 'aria-label': 'Close tutorial' }}
    >
      <Text size="sm" mb="md">
        {INTRO_GUIDE.summary} The Guides in the sidebar explain each part again whenever you need
        them.
      </Text>
      <GuideContent feature={INTRO_GUIDE} />
      <Group justify="space-between" mt="lg" gap="sm">
        <Checkbox
          label="No more tutorials"
          checked={isNoMoreChecked}
          onChange={(event) => setIsNoMoreChecked(event.currentTarget.checked)}
        />
        <Button onClick={() => void handleClose()} data-autofocus>
          Done
        </Button>
      </Group>
    </Modal>
  );
}
