import type { ReactNode } from 'react';
import { Paper, Title } from '@mantine/core';
import { handleApiError } from '../api/client.ts';
import { statusOf } from '../api/errors.ts';
import { notifyError } from '../state/notifications.ts';
import { isServerFailure } from '../features/auth/messages.ts';
import classes from './AuthPage.module.css';

/** The centred column of the sign-in pages: the main card under its heading, then any boxes. */
export function AuthCard({
  heading,
  children,
  after,
}: {
  heading: string;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div className={classes.page}>
      <div className={classes.column}>
        <Paper className={classes.card} withBorder>
          <Title order={1} className={classes.heading}>
            {heading}
          </Title>
          {children}
        </Paper>
        {after}
      </div>
    </div>
  );
}

/** A refused sign-in form: server failures go to the generic handler, the rest to notices. */
export function reportAuthFailure(error: unknown, messages: (error: unknown) => string[]): void {
  if (isServerFailure(error)) handleApiError(error);
  else for (const message of messages(error)) notifyError(message, undefined, statusOf(error));
}
