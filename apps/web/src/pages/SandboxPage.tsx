import { useState } from 'react';
import { Badge, Button, Text, Title } from '@mantine/core';
import { RSA_HEADLINE_MAX_CHARS } from '@adloom/engine';
import classes from './SandboxPage.module.css';

const REELS = [
  ['Cheap', 'Luxury', 'Vintage', 'Organic', 'Handmade', 'Electric', 'Tiny'],
  ['Running', 'Garden', 'Office', 'Beach', 'Winter', 'Party', 'Travel'],
  ['Shoes', 'Gnomes', 'Chairs', 'Umbrellas', 'Hats', 'Kettles', 'Socks'],
];

function pick(words: string[]): string {
  return words[Math.floor(Math.random() * words.length)] ?? '';
}

/** /sandbox: the hidden easter egg, a headline slot machine. */
export function SandboxPage() {
  const [words, setWords] = useState(['Vintage', 'Garden', 'Gnomes']);
  const [spins, setSpins] = useState(0);
  const headline = `${words.join(' ')} | Shop Now`;
  const length = [...headline].length;
  const fits = length <= RSA_HEADLINE_MAX_CHARS;

  return (
    <div className={classes.page}>
      <Title order={1} mb={4}>
        You found the sandbox
      </Title>
      <Text c="dimmed" mb="xl">
        A headline slot machine. Pull the lever and see whether the ad fits in{' '}
        {RSA_HEADLINE_MAX_CHARS} characters.
      </Text>
      <div className={classes.machine}>
        <div className={classes.reels} aria-live="polite">
          {words.map((word, i) => (
            <span key={`${i}-${spins}`} className={classes.reel}>
              {word}
            </span>
          ))}
        </div>
        <Text className={classes.headline}>{headline}</Text>
        <Badge color={fits ? 'green' : 'red'} variant="light" size="lg">
          {length}/{RSA_HEADLINE_MAX_CHARS} {fits ? 'fits' : 'too long'}
        </Badge>
        <Button
          mt="lg"
          size="md"
          onClick={() => {
            setWords(REELS.map(pick));
            setSpins((n) => n + 1);
          }}
        >
          Spin
        </Button>
        {spins > 0 && (
          <Text size="xs" c="dimmed" mt="sm">
            {spins} {spins === 1 ? 'spin' : 'spins'}
          </Text>
        )}
      </div>
    </div>
  );
}
