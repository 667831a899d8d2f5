import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { newPerformanceMaxFallback, type PerformanceMaxFallback } from '@adloom/engine';
import { measurerFromRows } from '../validation/index.ts';
import { PerformanceFallbackEditor } from './PerformanceFallbackEditor.tsx';

function edit(start: PerformanceMaxFallback) {
  const measurer = measurerFromRows([]);
  function Host() {
    const [fallback, setFallback] = useState(start);
    return (
      <PerformanceFallbackEditor fallback={fallback} measurer={measurer} onChange={setFallback} />
    );
  }
  render(
    <MantineProvider>
      <Host />
    </MantineProvider>,
  );
}

const texts = (...lengths: number[]) => lengths.map((n) => ({ text: 'x'.repeat(n), pos: 0 }));

describe('the Performance Max short headline and description rules, as the person types', () => {
  it('says when no headline is 15 characters or fewer, and when one is', async () => {
    const user = userEvent.setup();
    const fallback = newPerformanceMaxFallback();
    edit({
      ...fallback,
      headlines: texts(20, 22, 25),
      descriptions: texts(50, 80),
    });
    const headlineRule = screen.getByRole('status', { name: 'Short headline rule' });
    expect(headlineRule.textContent).toBe(
      'Google needs one headline of 15 characters or fewer: none yet (the shortest has 20).',
    );
    expect(headlineRule.getAttribute('data-ok')).toBe('false');
    expect(screen.getByRole('status', { name: 'Short description rule' }).textContent).toBe(
      'Google needs one description of 60 characters or fewer: Description 1 has 50.',
    );
    const headline2 = screen.getByRole('textbox', { name: 'Headline 2' });
    await user.clear(headline2);
    await user.type(headline2, 'Free delivery');
    expect(headlineRule.textContent).toBe(
      'Google needs one headline of 15 characters or fewer: Headline 2 has 13.',
    );
    expect(headlineRule.getAttribute('data-ok')).toBe('true');
  });
});
