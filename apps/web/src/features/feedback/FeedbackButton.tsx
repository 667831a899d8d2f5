import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { FEEDBACK_MIN_CHARS, FEEDBACK_TYPES } from '@adloom/contract';
import { sendFeedback, type FeedbackType } from '../../api/users.ts';
import { notifications, notifyError, notifySuccess } from '../../state/notifications.ts';
import { useSession } from '../../state/useSession.ts';
import classes from './FeedbackButton.module.css';

/** Spec section 8: the feedback failure text. */
export const FEEDBACK_FAILED_MESSAGE = 'Please provide valid feedback.';
/** Success notice after feedback was sent. */
export const FEEDBACK_THANKS_MESSAGE = 'Thank you for your feedback!';

/** The feedback button (signed-in users) and its modal: type, message, send. */
export function FeedbackButton() {
  const current = useSession();
  const [isOpen, setIsOpen] = useState(false);
  const [type, setType] = useState<FeedbackType>('Issue');
  const [message, setMessage] = useState('');
  const [isSending, setIsSending] = useState(false);
  if (!current) return null;
  const email = current.user.email;
  // Send waits for the spec's 10 characters; the hint counts down what is missing.
  const missing = Math.max(0, FEEDBACK_MIN_CHARS - message.trim().length);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (message.trim().length < FEEDBACK_MIN_CHARS) {
      notifyError(FEEDBACK_FAILED_MESSAGE);
      return;
    }
    setIsSending(true);
    notifications.setSubmitting(true);
    try {
      await sendFeedback({ type, message: message.trim(), user: { email } });
      notifySuccess(FEEDBACK_THANKS_MESSAGE);
      setMessage('');
      setIsOpen(false);
    } catch {
      notifyError(FEEDBACK_FAILED_MESSAGE);
    } finally {
      setIsSending(false);
      notifications.setSubmitting(false);
    }
  }

  return (
    <>
      <Button
        className={classes.trigger}
        size="xs"
        variant="light"
        fullWidth
        onClick={() => setIsOpen(true)}
      >
        Feedback
      </Button>
      <Modal
        opened={isOpen}
        onClose={() => setIsOpen(false)}
        title="Send Feedback"
        centered
        closeButtonProps={{ 'aria-label': 'Close feedback' }}
      >
        <form onSubmit={handleSubmit}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Found a problem or have an idea? Tell us — every message is read by the team.
            </Text>
            <div>
              <Text size="sm" fw={500} mb={6} id="feedback-type-label">
                Type
              </Text>
              <SegmentedControl
                fullWidth
                aria-labelledby="feedback-type-label"
                value={type}
                onChange={(value) => setType(value as FeedbackType)}
                data={FEEDBACK_TYPES.map((t) => ({ value: t, label: t }))}
              />
            </div>
            <Textarea
              label="Message"
              description={
                missing > 0
                  ? `At least ${FEEDBACK_MIN_CHARS} characters (${missing} more)`
                  : `At least ${FEEDBACK_MIN_CHARS} characters`
              }
              autosize
              minRows={4}
              maxRows={10}
              maxLength={5000}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setIsOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={isSending} disabled={missing > 0}>
                Send Feedback
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
