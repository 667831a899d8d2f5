import { Button, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import classes from './TextPage.module.css';

/** /404: page not found, with a link back home. */
export function NotFoundPage() {
  return (
    <div className={classes.centered}>
      <div className={classes.code} aria-hidden>
        404
      </div>
      <Title order={1} mb="sm">
        Page not found
      </Title>
      <Text c="dimmed" mb="xl">
        The page you were looking for does not exist or has moved.
      </Text>
      <Button component={Link} to="/">
        Back to home
      </Button>
    </div>
  );
}
