import { Loader } from '@mantine/core';
import { useStore, type Store } from '../state/store.ts';
import { http } from '../api/client.ts';
import classes from './LoadingIndicator.module.css';

/** The global loading indicator: shown while a request has run longer than 500 ms. */
export function LoadingIndicator({ isLoading = http.isLoading }: { isLoading?: Store<boolean> }) {
  const isVisible = useStore(isLoading);
  if (!isVisible) return null;
  return (
    <div className={classes.indicator} role="status" aria-live="polite">
      <div className={classes.bar} />
      <div className={classes.badge}>
        <Loader size="xs" aria-hidden />
        <span>Loading…</span>
      </div>
    </div>
  );
}
