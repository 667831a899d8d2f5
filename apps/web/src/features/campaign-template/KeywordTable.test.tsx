import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { MATCH_TYPES, type KeywordPattern } from '@adloom/engine';
import { KeywordTable } from './KeywordTable.tsx';

function edit(start: KeywordPattern[]) {
  function Host() {
    const [keywords, setKeywords] = useState(start);
    return <KeywordTable keywords={keywords} onChange={setKeywords} />;
  }
  render(
    <MantineProvider>
      <Host />
    </MantineProvider>,
  );
}

/** The text of the elements that describe `el` (aria-describedby), as a screen reader reads it. */
function descriptionOf(el: HTMLElement): string {
  return (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('KeywordTable', () => {
  it('offers every match type, Negative Phrase among them', () => {
    edit([{ keyword: 'free', matchType: 'Negative Phrase', selected: true }]);
    const select = screen.getByRole('combobox', { name: 'Match type 1' });
    expect([...select.querySelectorAll('option')].map((o) => o.value)).toEqual([...MATCH_TYPES]);
    expect((select as HTMLSelectElement).value).toBe('Negative Phrase');
  });

  it('shows, as the person types, notation that contradicts the match type', async () => {
    const user = userEvent.setup();
    edit([{ keyword: '', matchType: 'Phrase', selected: true }]);
    const input = screen.getByRole('textbox', { name: 'Keyword 1' });
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
    await user.type(input, '[[东京]');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(input)).toBe(
      '[ ] states Exact, but the match type is Phrase: remove the [ ] or choose Exact',
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Match type 1' }), 'Exact');
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
    expect(descriptionOf(input)).toBe('Read as Exact: 东京');
  });

  it('says which match type notation under Broad is read as', () => {
    edit([{ keyword: '"{root} {mod}"', matchType: 'Broad', selected: true }]);
    expect(descriptionOf(screen.getByRole('textbox', { name: 'Keyword 1' }))).toBe(
      'Read as Phrase: {root} {mod}',
    );
  });
});
