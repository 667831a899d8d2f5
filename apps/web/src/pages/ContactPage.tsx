import { Anchor, Paper, Text, Title } from '@mantine/core';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import { WaitingListForm } from '../features/waiting-list/WaitingListForm.tsx';
import classes from './ContactPage.module.css';

/** /contact: the waiting-list sign-up. */
export function ContactPage() {
  return (
    <div className={classes.page}>
      <div className={classes.intro}>
        <Title order={1} className={classes.title}>
          Join the waiting list
        </Title>
        <Text size="lg" c="dimmed">
          Adloom is opening to agencies and paid-search teams in small groups. Leave your email and
          we will let you know when your place is ready, with a free demo of the campaign builder.
        </Text>
      </div>
      <Paper withBorder className={classes.card}>
        <WaitingListForm />
        <Text size="sm" c="dimmed" mt="md">
          We only use your email to contact you about Adloom. Questions? Write to{' '}
          <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>.
        </Text>
      </Paper>
    </div>
  );
}
