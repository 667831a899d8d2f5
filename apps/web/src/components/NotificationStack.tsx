import { Button, CloseButton } from '@mantine/core';
import { navigateTo } from '../state/navigation.ts';
import { useStore } from '../state/store.ts';
import {
  notifications as defaultStore,
  type NotificationAction,
  type NotificationStore,
} from '../state/notifications.ts';
import classes from './NotificationStack.module.css';

/**
 * The toasts at the top-right edge of the screen; an error from a call the server answered
 * shows that answer's HTTP status under its words (spec section 8). The stack is a named live region that is
 * there before any toast, so screen readers announce each notice politely; errors are alerts.
 */
export function NotificationStack({ store = defaultStore }: { store?: NotificationStore }) {
  const { notifications } = useStore(store);
  return (
    <section className={classes.stack} aria-label="Notifications" aria-live="polite">
      {notifications.map((n) => (
        <div
          key={n.id}
          role={n.type === 'error' ? 'alert' : 'status'}
          className={`${classes.toast} ${n.type === 'error' ? classes.error : classes.notice} ${n.isVisible ? classes.visible : ''}`}
          data-type={n.type}
        >
          <span className={classes.message}>
            {n.message}
            {n.status !== undefined ? (
              <span className={classes.status}>HTTP status {n.status}</span>
            ) : null}
            {n.action ? <ToastAction action={n.action} onDone={() => store.dismiss(n.id)} /> : null}
          </span>
          <CloseButton
            size="sm"
            variant="transparent"
            className={classes.close}
            aria-label="Close notification"
            onClick={() => store.dismiss(n.id)}
          />
        </div>
      ))}
    </section>
  );
}

/** A toast's link to where the person fixes what it reports; following it closes the toast. */
function ToastAction({ action, onDone }: { action: NotificationAction; onDone: () => void }) {
  return (
    <Button
      size="compact-xs"
      variant="white"
      color="dark"
      className={classes.action}
      onClick={() => {
        onDone();
        navigateTo(action.to);
      }}
    >
      {action.label}
    </Button>
  );
}
