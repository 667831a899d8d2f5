import { Anchor, Button, Group, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { SUPPORT_EMAIL } from '../components/supportEmail.ts';
import classes from './TextPage.module.css';

/** What each `service` value of /service-down says. */
const SERVICE_TEXT: Record<string, { title: string; body: string }> = {
  mongo: {
    title: 'Our database is not answering',
    body: 'Your data is safe, but we cannot reach it right now. Please try again in a few minutes.',
  },
  server: {
    title: 'Our server ran into a problem',
    body: 'Something went wrong on our side while handling your request. Please try again in a few minutes.',
  },
};

const DEFAULT_TEXT = {
  title: 'Adloom is temporarily unavailable',
  body: 'Please try again in a few minutes.',
};

/** /service-down?service=mongo|server: a notice with a support mail link. */
export function ServiceDownPage() {
  const [params] = useSearchParams();
  const text = SERVICE_TEXT[params.get('service') ?? ''] ?? DEFAULT_TEXT;
  return (
    <div className={classes.centered}>
      <Title order={1} mb="sm">
        {text.title}
      </Title>
      <Text c="dimmed" mb="md">
        {text.body}
      </Text>
      <Text mb="xl">
        If this keeps happening, email us at{' '}
        <Anchor href={`mailto:${SUPPORT_EMAIL}?subject=Adloom%20service%20problem`}>
          {SUPPORT_EMAIL}
        </Anchor>
        .
      </Text>
      <Group justify="center">
        <Button component={Link} to="/">
          Back to home
        </Button>
      </Group>
    </div>
  );
}
