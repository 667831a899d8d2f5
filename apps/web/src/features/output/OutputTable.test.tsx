import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { OutputTable } from './OutputTable.tsx';
import { packTable } from './packTable.ts';

function bigTable(rows: number) {
  return packTable({
    headers: ['Campaign', 'Keyword'],
    rows: {
      *[Symbol.iterator]() {
        for (let i = 0; i < rows; i += 1) yield [`Campaign ${i % 10}`, `keyword ${i}`];
      },
    },
  });
}

describe('OutputTable', () => {
  it('draws only the visible lines of a big output and counts them all', () => {
    render(
      <MantineProvider>
        <OutputTable
          label="Keywords"
          table={bigTable(200_000)}
          onClear={() => undefined}
          editorExport={{ fileName: 'x.csv' }}
        />
      </MantineProvider>,
    );
    const table = screen.getByRole('table', { name: 'Keywords' });
    expect(table.getAttribute('aria-rowcount')).toBe('200001');
    const rows = within(table).getAllByRole('row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Campaign 0', 'keyword 0']);
    expect(screen.getByText('200,000 lines')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Download for Google Ads Editor: Keywords' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear Keywords' })).toBeTruthy();
  });

  it('says so when there is nothing, with Copy and Download disabled', () => {
    render(
      <MantineProvider>
        <OutputTable label="Negatives" table={bigTable(0)} editorExport={{ fileName: 'x.csv' }} />
      </MantineProvider>,
    );
    expect(screen.getByText('Nothing generated yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy Negatives' })).toHaveProperty('disabled', true);
    expect(
      screen.getByRole('button', { name: 'Download for Google Ads Editor: Negatives' }),
    ).toHaveProperty('disabled', true);
  });
});
