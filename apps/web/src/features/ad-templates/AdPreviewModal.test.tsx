import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { newRsaTemplate, type FeedRow, type RsaFallback, type RsaTemplate } from '@adloom/engine';
import { measurerFromRows } from '../validation/index.ts';
import { AdPreviewModal, PREVIEW_PROGRESS_MAX } from './AdPreviewModal.tsx';
import { seededRandom } from '@adloom/engine';
import { findFirstValidRow, slideFor } from '../preview/previewModel.ts';
import { previewRowsOf } from '../preview/previewRows.ts';

function row(id: string, root: string, url = ''): FeedRow {
  return { id, root, mod: '', var1: '', var2: '', var3: '', url };
}

const ROWS = [
  row('a', 'Nike', 'https://www.nike.example/x'),
  row('b', ''),
  row('c', 'Emporio Armani Collection', 'https://armani.example'),
  row('d', 'Puma', 'https://puma.example'),
];

function fallback(h1: string, pos = 0): RsaFallback {
  return {
    headlines: [
      { text: 'Free delivery', pos: 0 },
      { text: 'Official store', pos: 0 },
      { text: h1, pos },
    ],
    descriptions: [
      { text: 'Shop now.', pos: 0 },
      { text: 'Great prices.', pos: 0 },
    ],
    paths: ['shoes', ''],
    labels: [''],
  };
}

function template(...fallbacks: RsaFallback[]): RsaTemplate {
  return { ...newRsaTemplate('T'), templates: fallbacks };
}

function show(t: RsaTemplate, startRow = findFirstValidRow({ kind: 'rsa', template: t }, ROWS)) {
  const onChange = vi.fn();
  render(
    <MantineProvider>
      <AdPreviewModal
        opened
        onClose={() => undefined}
        kind="rsa"
        template={t}
        onChange={onChange}
        rows={previewRowsOf(ROWS)}
        constant=""
        startRow={startRow}
        measurer={measurerFromRows(ROWS)}
      />
    </MantineProvider>,
  );
  return onChange;
}

const heading = () =>
  screen.getByRole('article', { name: 'Ad preview' }).querySelector('h3')?.textContent;
const status = () => screen.getByRole('status').textContent;

describe('AdPreviewModal', () => {
  it('fills its progress bar to 5000 (spec section 9)', () => {
    expect(PREVIEW_PROGRESS_MAX).toBe(5000);
  });

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the mock ad with the Ad tag, display URL with paths and pinned headlines first', () => {
    show(template(fallback('Buy {root} Running Shoes', 1)));
    expect(heading()).toBe('Buy Nike Running Shoes | Free delivery | Official store');
    const ad = screen.getByRole('article', { name: 'Ad preview' });
    expect(ad.textContent).toContain('Ad');
    expect(ad.textContent).toContain('nike.example/shoes');
    expect(ad.textContent).toContain('Shop now. Great prices.');
    expect(screen.getByText('Row 1 (1 of 4 selected)')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'FB 1' })).toBeTruthy();
  });

  it('steps through the rows: EMPTY ROW!, FALLBACK NEEDED where no fallback fits, back again', () => {
    show(template(fallback('Buy {root} Running Shoes')));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(status()).toBe('EMPTY ROW!');
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(status()).toBe(
      'FALLBACK NEEDED! Make sure that no variables are 0% and click play again',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(heading()).toContain('Buy Puma Running Shoes');
    fireEvent.click(screen.getByRole('button', { name: 'Step back' }));
    expect(screen.getByText('Row 3 (3 of 4 selected)')).toBeTruthy();
  });

  it('advances every 5 seconds with the progress bar, and stops at FALLBACK NEEDED', () => {
    show(template(fallback('Buy {root} Running Shoes')));
    const bar = screen.getByRole('progressbar', { name: 'Time to the next row' });
    expect(bar.getAttribute('aria-valuemax')).toBe('5000');
    act(() => void vi.advanceTimersByTime(3000));
    expect(bar.getAttribute('aria-valuenow')).toBe('3000');
    act(() => void vi.advanceTimersByTime(2000));
    expect(screen.getByText('Row 2 (2 of 4 selected)')).toBeTruthy();
    expect(status()).toBe('EMPTY ROW!');
    act(() => void vi.advanceTimersByTime(5000));
    expect(screen.getByText('Row 3 (3 of 4 selected)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
    act(() => void vi.advanceTimersByTime(10000));
    expect(screen.getByText('Row 3 (3 of 4 selected)')).toBeTruthy();
  });

  it('opens on the row the worker found and plays from there', () => {
    show(template(fallback('{root}')), 3);
    expect(screen.getByText('Row 4 (4 of 4 selected)')).toBeTruthy();
    expect(heading()).toBe('Free delivery | Official store | Puma');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('with no row a fallback serves, opens on the first row stopped at FALLBACK NEEDED', () => {
    show(template(fallback('{var3}')), -1);
    expect(screen.getByText('Row 1 (1 of 4 selected)')).toBeTruthy();
    expect(status()).toBe(
      'FALLBACK NEEDED! Make sure that no variables are 0% and click play again',
    );
    expect(screen.getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('uses the fallback that serves the row and selects its tab', () => {
    show(template(fallback('Buy {root} Running Shoes'), fallback('{root}')));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    fireEvent.click(screen.getByRole('button', { name: 'Step forward' }));
    expect(heading()).toBe('Free delivery | Official store | Emporio Armani Collection');
    expect(screen.getByRole('tab', { name: 'FB 2', selected: true })).toBeTruthy();
  });

  it('edits the fallback of the chosen tab', () => {
    const onChange = show(template(fallback('Buy {root} Running Shoes')));
    expect(screen.queryByRole('textbox', { name: 'Headline 1' })).toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    fireEvent.change(screen.getByRole('textbox', { name: 'Headline 1' }), {
      target: { value: 'Free shipping' },
    });
    expect(onChange).toHaveBeenCalledTimes(1);
    const next = onChange.mock.calls[0]![0] as RsaTemplate;
    expect(next.templates[0]!.headlines[0]!.text).toBe('Free shipping');
  });
});

describe('slideFor', () => {
  it('says there are no rows, and shuffles free headlines reproducibly', () => {
    const t = { kind: 'rsa' as const, template: template(fallback('Buy {root}')) };
    expect(slideFor(t, undefined)).toEqual({
      status: 'no-rows',
      message: 'No rows found. Please select a feed',
    });
    const a = slideFor(t, ROWS[0], seededRandom(7));
    const b = slideFor(t, ROWS[0], seededRandom(7));
    expect(a).toEqual(b);
  });
});
