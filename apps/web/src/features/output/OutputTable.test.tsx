import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { COLUMN_WINDOW_FROM, OutputTable, visibleColumns } from './OutputTable.tsx';
import { focusNextOutput } from './outputFocus.ts';
import { packTable } from '../generation/packTable.ts';
import type { DownloadTarget } from '../exports/downloadTarget.ts';

/** Downloads for no client, without a label. */
const NO_TARGET: DownloadTarget = { client: null, label: () => Promise.resolve(undefined) };

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
          editorExport={{ kind: 'keywords', target: NO_TARGET }}
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
    expect(
      screen.getByRole('button', { name: 'Download for Microsoft Advertising: Keywords' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Clear Keywords' })).toBeTruthy();
  });

  it('says so when there is nothing, with Copy and Download disabled', () => {
    render(
      <MantineProvider>
        <OutputTable
          label="Negatives"
          table={bigTable(0)}
          editorExport={{ kind: 'negatives', target: NO_TARGET }}
        />
      </MantineProvider>,
    );
    expect(screen.getByText('Nothing generated yet.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy Negatives' })).toHaveProperty('disabled', true);
    expect(
      screen.getByRole('button', { name: 'Download for Google Ads Editor: Negatives' }),
    ).toHaveProperty('disabled', true);
    expect(
      screen.getByRole('button', { name: 'Download for Microsoft Advertising: Negatives' }),
    ).toHaveProperty('disabled', true);
  });

  it('takes the focus when its tab has just generated it, and only then', () => {
    function Tab({ table }: { table: ReturnType<typeof bigTable> | null }) {
      return (
        <MantineProvider>
          <div role="tabpanel">
            <button type="button">Generate</button>
            <OutputTable label="Keywords" table={table} />
          </div>
        </MantineProvider>
      );
    }
    const { rerender } = render(<Tab table={bigTable(2)} />);
    const output = screen.getByRole('table', { name: 'Keywords' });
    expect(document.activeElement).not.toBe(output);
    rerender(<Tab table={bigTable(3)} />);
    expect(document.activeElement).not.toBe(output);
    focusNextOutput(screen.getByRole('button', { name: 'Generate' }));
    rerender(<Tab table={bigTable(4)} />);
    expect(document.activeElement).toBe(output);
    expect(output.tabIndex).toBe(0);
  });

  it('holds only rows: the text of an empty output sits beside the table', () => {
    render(
      <MantineProvider>
        <OutputTable label="Keywords" table={null} />
      </MantineProvider>,
    );
    const table = screen.getByRole('table', { name: 'Keywords' });
    expect(within(table).queryAllByRole('row')).toHaveLength(0);
    expect(table.textContent).toBe('');
    expect(screen.getByText('Nothing generated yet.')).toBeTruthy();
    // Nothing to scroll: not a Tab stop.
    expect(table.tabIndex).toBe(-1);
  });

  it('is a Tab stop when it holds only headers, which scroll sideways', () => {
    const headers = Array.from({ length: 45 }, (_, c) => `Column ${c + 1}`);
    render(
      <MantineProvider>
        <OutputTable label="Responsive Search Ads" table={packTable({ headers, rows: [] })} />
      </MantineProvider>,
    );
    const table = screen.getByRole('table', { name: 'Responsive Search Ads' });
    expect(within(table).getAllByRole('columnheader')).not.toHaveLength(0);
    expect(table.tabIndex).toBe(0);
  });

  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('draws only the columns in view of a table wider than the window of columns', () => {
    const headers = Array.from({ length: 45 }, (_, c) => `Column ${c + 1}`);
    const table = packTable({
      headers,
      rows: [headers.map((_, c) => `row 0 cell ${c + 1}`)],
    });
    // A frame 600 px wide: columns 1-4 are in view, and one more is drawn beside them.
    // happy-dom lays nothing out: the frame's width is the one it is given here, read without a
    // ResizeObserver (whose reports happy-dom never makes).
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
    vi.stubGlobal('ResizeObserver', undefined);
    render(
      <MantineProvider>
        <OutputTable label="Ads" table={table} />
      </MantineProvider>,
    );
    const grid = screen.getByRole('table', { name: 'Ads' });
    expect(within(grid).getAllByRole('columnheader')).toHaveLength(45);
    const cells = within(within(grid).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual([1, 2, 3, 4, 5].map((c) => `row 0 cell ${c}`));
    expect(cells.map((c) => c.getAttribute('aria-colindex'))).toEqual(['1', '2', '3', '4', '5']);
  });

  it('windows columns only past COLUMN_WINDOW_FROM columns and once the width is known', () => {
    expect(visibleColumns(COLUMN_WINDOW_FROM, 0, 300)).toEqual([0, COLUMN_WINDOW_FROM]);
    expect(visibleColumns(45, 0, 0)).toEqual([0, 45]);
    expect(visibleColumns(45, 0, 600)).toEqual([0, 5]);
    // Scrolled to column 11 (1,500 px): columns 11-14 are in view, 10 and 15 drawn beside them.
    expect(visibleColumns(45, 1500, 600)).toEqual([9, 15]);
    expect(visibleColumns(45, 45 * 150 - 600, 600)).toEqual([40, 45]);
  });

  it('brings a scrolled table back to its top when a new table comes', () => {
    const view = (table: ReturnType<typeof bigTable>) => (
      <MantineProvider>
        <OutputTable label="Keywords" table={table} />
      </MantineProvider>
    );
    const { container, rerender } = render(view(bigTable(1000)));
    const scroller = container.querySelector<HTMLDivElement>('.output-table__scroller')!;
    scroller.scrollTop = 2800;
    fireEvent.scroll(scroller);
    rerender(view(bigTable(500)));
    expect(scroller.scrollTop).toBe(0);
  });
});
