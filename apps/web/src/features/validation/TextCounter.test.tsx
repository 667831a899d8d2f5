import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { FeedRow } from '@adloom/engine';
import { TextCounter } from './TextCounter.tsx';
import { measureLongest } from './longest.ts';

function row(id: string, root: string, mod = ''): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url: '' };
}

function counter(): string {
  return document.getElementById('c')?.textContent ?? '';
}

function show(text: string, max: number, rows: readonly FeedRow[]) {
  render(
    <MantineProvider>
      <TextCounter id="c" text={text} max={max} rows={rows} />
    </MantineProvider>,
  );
}

describe('TextCounter', () => {
  it('counts as Google does: wide characters 2, a keyword insertion as its default', () => {
    show('東京 {KeyWord:Shoes}', 30, []);
    expect(counter()).toBe('10/30');
  });

  it('marks a typed text over the limit', () => {
    show('x'.repeat(31), 30, []);
    expect(counter()).toBe('31/30 over the limit');
    expect(document.querySelector('[data-over="true"]')).not.toBeNull();
  });

  it('shows the longest text after substitution over the rows, with its row', async () => {
    const rows = [row('a', 'Nike'), row('b', 'Emporio Armani Collection'), row('c', 'Puma')];
    show('Buy {Root} shoes', 30, rows);
    expect(counter()).toContain('16/30');
    await waitFor(() => expect(counter()).toBe('16/30 · longest 35/30 (row 2) over the limit'));
    expect(document.querySelector('[data-over="true"]')).not.toBeNull();
  });

  it('does not mark a text whose longest substitution fits', async () => {
    const rows = [row('a', 'Nike'), row('b', 'Puma')];
    show('Buy {root}', 30, rows);
    await waitFor(() => expect(counter()).toBe('10/30 · longest 8/30 (row 1)'));
    expect(document.querySelector('[data-over="true"]')).toBeNull();
  });

  it('shows no longest part for a text without placeholders', () => {
    show('Free delivery', 30, [row('a', 'Nike')]);
    expect(document.getElementById('c')?.textContent).toBe('13/30');
    expect(screen.queryByText(/longest/)).toBeNull();
  });
});

describe('measureLongest', () => {
  it('tidies spaces left by empty values, as generation does', async () => {
    const rows = [row('a', 'Nike', ''), row('b', 'Nike', 'Air')];
    const longest = await measureLongest('{root} {mod} shoes', rows);
    expect(longest).toEqual({ length: 14, rowIndex: 1 });
  });

  it('measures many rows in slices and finds the longest', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => row(String(i), `r${i}`));
    const longest = await measureLongest('{root}!', rows);
    expect(longest).toEqual({ length: 7, rowIndex: 10_000 });
  });

  it('stops when cancelled', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(String(i), 'x'));
    const controller = new AbortController();
    controller.abort();
    await expect(measureLongest('{mod}{root}', rows, controller.signal)).rejects.toThrow(
      'cancelled',
    );
  });
});
