import { Text, Title } from '@mantine/core';
import classes from './TextPage.module.css';

/** A screen a later issue builds: says so plainly. */
export function NotBuiltYetPage({ title }: { title: string }) {
  return (
    <div className={classes.centered}>
      <Title order={1} mb="sm">
        {title}
      </Title>
      <Text c="dimmed">This screen is not built yet.</Text>
    </div>
  );
}
