import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { newRsaFallback, type FeedRow, type RsaFallback } from '@adloom/engine';
import {
  VALIDATION_SHOW_DELAY_MS,
  VALIDATOR_DEBOUNCE_MS,
  ValidatorScore,
} from './ValidatorScore.tsx';
import { validatorFromRows } from './validator.ts';
import type { FallbackCheck } from './checks.ts';

function row(id: string, root: string): FeedRow {
  return { id, root, mod: '', var1: '', var2: '', var3: '', url: 'https://example.com' };
}

function fallback(headline: string): RsaFallback {
  const f = newRsaFallback();
  f.headlines = [
    { text: headline, pos: 0 },
    { text: 'Free delivery', pos: 0 },
    { text: 'Official store', pos: 0 },
  ];
  f.descriptions = [
    { text: 'Shop now.', pos: 0 },
    { text: 'Great prices.', pos: 0 },
  ];
  return f;
}

const ROWS = [row('a', 'Nike'), row('b', 'Emporio Armani Collection'), row('c', 'Puma')];

function show(check: FallbackCheck, rows: readonly FeedRow[], label = 'Fallback 1') {
  render(
    <MantineProvider>
      <ValidatorScore label={label} check={check} validator={validatorFromRows(rows)} />
    </MantineProvider>,
  );
}

describe('ValidatorScore', () => {
  it('recalculates 300 ms after a change and first shows after 500 ms (spec section 9)', () => {
    expect(VALIDATOR_DEBOUNCE_MS).toBe(300);
    expect(VALIDATION_SHOW_DELAY_MS).toBe(500);
  });

  it('says NO FEED SELECTED! without rows', () => {
    show({ kind: 'rsa', fallbacks: [fallback('Buy {root}')] }, []);
    expect(
      screen.getByRole('button', { name: 'Fallback 1 validator: NO FEED SELECTED!' }),
    ).toBeTruthy();
  });

  it('shows Calculating... in red, then the fraction, percent and reaction', async () => {
    show({ kind: 'rsa', fallbacks: [fallback('Buy {root} shoes')] }, ROWS);
    const value = screen.getByText('Calculating...');
    expect(value.style.color).toBe('#c92a2a');
    await waitFor(() => expect(screen.getByText('2/3 (66%) 😐')).toBeTruthy(), {
      timeout: 3000,
    });
  });

  it('counts a row as valid when a later fallback serves it', async () => {
    show(
      { kind: 'rsa', fallbacks: [fallback('Buy {root} shoes'), fallback('{root}')] },
      ROWS,
      'Template',
    );
    await waitFor(
      () =>
        expect(
          screen.getByRole('button', { name: 'Template validator: 3/3 (100%) 🤩' }),
        ).toBeTruthy(),
      { timeout: 3000 },
    );
  });

  it('lists the failing rows with the field and the reason', async () => {
    show({ kind: 'rsa', fallbacks: [fallback('Buy {root} shoes')] }, ROWS);
    const button = await screen.findByRole(
      'button',
      { name: 'Fallback 1 validator: 2/3 (66%) 😐' },
      { timeout: 3000 },
    );
    fireEvent.click(button);
    const table = await screen.findByRole('table', { name: 'Failing rows' });
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(cells).toEqual([
      [
        '2',
        'Emporio Armani Collection',
        'Headline 1',
        'Headline 1 has 35 characters (max 30): "Buy Emporio Armani Collection shoes"',
      ],
    ]);
  });

  it('rounds the percent down from 1 and up below 1', async () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      row(String(i), i === 0 ? 'x' : 'y'.repeat(40)),
    );
    show({ kind: 'rsa', fallbacks: [fallback('{root}')] }, many);
    await waitFor(() => expect(screen.getByText('1/200 (1%) 😱')).toBeTruthy(), { timeout: 3000 });
  });
});
