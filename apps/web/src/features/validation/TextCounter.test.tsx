import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { FeedRow } from '@adloom/engine';
import { TextCounter } from './TextCounter.tsx';
import { measurerFromRows, createBatchMeasurer } from './measurer.ts';
import { findLongestOfTexts } from './checks.ts';

function row(id: string, root: string, mod = ''): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url: '' };
}

function counter(): string {
  return document.getElementById('c')?.textContent ?? '';
}

function show(text: string, max: number, rows: readonly FeedRow[]) {
  render(
    <MantineProvider>
      <TextCounter id="c" text={text} max={max} measurer={measurerFromRows(rows)} />
    </MantineProvider>,
  );
}

describe('TextCounter', () => {
  it('names Google editorial problems of the typed text, "!" only in headlines', () => {
    render(
      <MantineProvider>
        <TextCounter
          id="h"
          text="Big Sale!"
          max={30}
          measurer={measurerFromRows([])}
          editorial="headline"
        />
        <TextCounter
          id="d"
          text="Big Sale!"
          max={90}
          measurer={measurerFromRows([])}
          editorial="text"
        />
        <TextCounter
          id="s"
          text="Big  SALE NOW FAST"
          max={90}
          measurer={measurerFromRows([])}
          editorial="text"
        />
      </MantineProvider>,
    );
    const text = (id: string) => document.getElementById(id)?.textContent ?? '';
    expect(text('h')).toBe('9/30 · Text has "!" (Google allows none in headlines)');
    expect(text('d')).toBe('9/90');
    expect(text('s')).toContain('is in capitals');
    expect(text('s')).toContain('double spaces (the ads get them tidied)');
  });

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

  it('judges a text with placeholders by its longest substitution, not as typed', async () => {
    show('Buy {root} Running Shoes Online', 30, [row('a', 'Nike')]);
    await waitFor(() => expect(counter()).toBe('31/30 · longest 29/30 (row 1)'));
    expect(document.querySelector('[data-over="true"]')).toBeNull();
  });

  it('names unknown placeholders and insertions without default text', () => {
    show('Buy {rot} {KeyWord}', 30, []);
    expect(counter()).toBe(
      '20/30 · Unknown placeholder {rot} · {KeyWord} has no default text; it is counted as 10 characters',
    );
  });

  it('shows no longest part for a text without placeholders', () => {
    show('Free delivery', 30, [row('a', 'Nike')]);
    expect(document.getElementById('c')?.textContent).toBe('13/30');
    expect(screen.queryByText(/longest/)).toBeNull();
  });
});

describe('measurers', () => {
  it('tidies spaces left by empty values, as generation does', () => {
    const rows = [row('a', 'Nike', ''), row('b', 'Nike', 'Air')];
    expect(findLongestOfTexts(['{root} {mod} shoes'], rows)).toEqual([{ length: 14, rowIndex: 1 }]);
  });

  it('measures many rows in slices and finds the longest', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => row(String(i), `r${i}`));
    await expect(measurerFromRows(rows).measure('{root}!')).resolves.toEqual({
      length: 7,
      rowIndex: 10_000,
    });
  });

  it('stops when cancelled', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => row(String(i), 'x'));
    const controller = new AbortController();
    controller.abort();
    await expect(measurerFromRows(rows).measure('{mod}{root}', controller.signal)).rejects.toThrow(
      'cancelled',
    );
  });

  it('sends the texts asked for together in one batch and remembers the answers', async () => {
    const rows = [row('a', 'Nike'), row('b', 'Adidas')];
    const batches: string[][] = [];
    const measurer = createBatchMeasurer(rows.length, (texts) => {
      batches.push(texts);
      return Promise.resolve(findLongestOfTexts(texts, rows));
    });
    const [a, b] = await Promise.all([measurer.measure('{root}'), measurer.measure('Buy {root}')]);
    expect(a).toEqual({ length: 6, rowIndex: 1 });
    expect(b).toEqual({ length: 10, rowIndex: 1 });
    expect(batches).toEqual([['{root}', 'Buy {root}']]);
    expect(measurer.peek('{root}')).toEqual({ length: 6, rowIndex: 1 });
    expect(measurer.peek('Free')).toEqual({ length: 4, rowIndex: -1 });
  });
});
