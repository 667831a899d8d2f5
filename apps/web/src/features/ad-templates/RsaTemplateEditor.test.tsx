import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import {
  newPerformanceMaxTemplate,
  newRsaTemplate,
  type FeedRow,
  type PerformanceMaxTemplate,
  type RsaTemplate,
} from '@adloom/engine';
import { measurerFromRows, validatorFromRows } from '../validation/index.ts';
import { PerformanceTemplateEditor, RsaTemplateEditor } from './RsaTemplateEditor.tsx';

const ROWS: FeedRow[] = [
  { id: 'a', root: 'Nike', mod: '', var1: '', var2: '', var3: '', url: 'https://n.example' },
  {
    id: 'b',
    root: 'Emporio Armani Collection',
    mod: '',
    var1: '',
    var2: '',
    var3: '',
    url: 'https://e.example',
  },
];

let latest: RsaTemplate | PerformanceMaxTemplate | null = null;

function Rsa({ initial }: { initial: RsaTemplate }) {
  const [template, setTemplate] = useState(initial);
  latest = template;
  return (
    <RsaTemplateEditor
      template={template}
      onChange={setTemplate}
      measurer={measurerFromRows(ROWS)}
      validator={validatorFromRows(ROWS)}
    />
  );
}

function Pmax({ initial = newPerformanceMaxTemplate('P') }: { initial?: PerformanceMaxTemplate }) {
  const [template, setTemplate] = useState(initial);
  latest = template;
  return (
    <PerformanceTemplateEditor
      template={template}
      onChange={setTemplate}
      measurer={measurerFromRows([])}
      validator={validatorFromRows([])}
    />
  );
}

function withMantine(node: React.ReactNode) {
  return render(<MantineProvider>{node}</MantineProvider>);
}

const names = (role: string, pattern: RegExp) =>
  screen
    .queryAllByRole(role, { name: pattern })
    .map((e) => e.getAttribute('aria-label') ?? (e as HTMLInputElement).labels?.[0]?.textContent);

describe('RsaTemplateEditor', () => {
  it('says when pins leave a position empty, and refuses labels with ";"', () => {
    const t = newRsaTemplate('T');
    const fallback = t.templates[0]!;
    withMantine(
      <Rsa
        initial={{
          ...t,
          templates: [
            {
              ...fallback,
              headlines: fallback.headlines.map((h, i) => ({ text: `h${i}`, pos: 1 })),
              labels: ['a;b'],
            },
          ],
        }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Headline position 2 has no headline: every headline is pinned to another position (unpin one, or pin one of the headlines to 2)',
    );
    expect(screen.getByText(/The label contains ";"/)).toBeTruthy();
  });

  it('shows the default fallback with delete buttons only where the rules allow', () => {
    withMantine(<Rsa initial={newRsaTemplate('T')} />);
    expect(screen.getAllByRole('textbox', { name: /^Headline \d+$/ })).toHaveLength(4);
    expect(screen.getAllByRole('textbox', { name: /^Description \d+$/ })).toHaveLength(2);
    expect(screen.getByRole('textbox', { name: 'Path 1' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Path 2' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Label 1' })).toBeTruthy();
    expect(names('button', /^Delete (headline|description)/)).toEqual(['Delete headline 4']);
    expect(screen.queryByRole('button', { name: 'Delete Fallback' })).toBeNull();
  });

  it('adds descriptions up to 4 and headlines up to 15', () => {
    withMantine(<Rsa initial={newRsaTemplate('T')} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add description' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add description' }));
    expect(screen.getAllByRole('textbox', { name: /^Description \d+$/ })).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Add description' })).toBeNull();
    expect(names('button', /^Delete description/)).toEqual([
      'Delete description 3',
      'Delete description 4',
    ]);
    for (let i = 0; i < 11; i++)
      fireEvent.click(screen.getByRole('button', { name: 'Add headline' }));
    expect(screen.getAllByRole('textbox', { name: /^Headline \d+$/ })).toHaveLength(15);
    expect(screen.queryByRole('button', { name: 'Add headline' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete headline 15' }));
    expect(screen.getAllByRole('textbox', { name: /^Headline \d+$/ })).toHaveLength(14);
  });

  it('edits texts and pins', () => {
    withMantine(<Rsa initial={newRsaTemplate('T')} />);
    fireEvent.change(screen.getByRole('textbox', { name: 'Headline 1' }), {
      target: { value: 'Buy {root}' },
    });
    const group = screen.getByRole('radiogroup', { name: 'Headline 1 position' });
    fireEvent.click(group.querySelector('input[value="2"]')!);
    const t = latest as RsaTemplate;
    expect(t.templates[0]!.headlines[0]).toEqual({ text: 'Buy {root}', pos: 2 });
    expect(
      screen.getByRole('radiogroup', { name: 'Description 2 position' }).querySelectorAll('input'),
    ).toHaveLength(3);
  });

  it('shows descriptions in multi-line fields, their whole text one line of ad text', () => {
    withMantine(<Rsa initial={newRsaTemplate('T')} />);
    const description = screen.getByRole('textbox', { name: 'Description 1' });
    const headline = screen.getByRole('textbox', { name: 'Headline 1' });
    expect(description.tagName).toBe('TEXTAREA');
    expect(headline.tagName).toBe('INPUT');
    const long = `Free returns on every order ${'x'.repeat(70)}`;
    fireEvent.change(description, { target: { value: `${long}\nsecond line` } });
    expect((latest as RsaTemplate).templates[0]!.descriptions[0]!.text).toBe(`${long} second line`);
    // Over 90 characters: still marked, as the one-line field was.
    expect(description.getAttribute('aria-invalid')).toBe('true');
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    description.dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
  });

  it('adds, browses and deletes fallbacks, never the first', () => {
    withMantine(<Rsa initial={newRsaTemplate('T')} />);
    expect(screen.getByText('Fallback 1 of 1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add another fallback' }));
    expect(screen.getByText('Fallback 2 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add Fallback' }));
    expect(screen.getByText('Fallback 3 of 3')).toBeTruthy();
    expect((latest as RsaTemplate).templates).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Previous fallback' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous fallback' }));
    expect(screen.getByText('Fallback 1 of 3')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Fallback' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Next fallback' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Fallback' }));
    expect(screen.getByText('Fallback 1 of 2')).toBeTruthy();
    expect((latest as RsaTemplate).templates).toHaveLength(2);
  });

  it('shows at least 3 headlines and 2 descriptions of a fallback stored with fewer, and stores them once edited', () => {
    const t = newRsaTemplate('T');
    t.templates = [
      {
        headlines: [
          { text: 'One', pos: 0 },
          { text: 'Two', pos: 1 },
        ],
        descriptions: [{ text: 'D one', pos: 0 }],
        paths: ['', ''],
        labels: [''],
      },
    ];
    withMantine(<Rsa initial={t} />);
    const headlines = screen.getAllByRole('textbox', { name: /^Headline \d+$/ });
    expect(headlines.map((e) => (e as HTMLInputElement).value)).toEqual(['One', 'Two', '']);
    const descriptions = screen.getAllByRole('textbox', { name: /^Description \d+$/ });
    expect(descriptions.map((e) => (e as HTMLInputElement).value)).toEqual(['D one', '']);
    expect(document.body.textContent).toContain('Headlines (3/15)');
    expect(names('button', /^Delete (headline|description)/)).toEqual([]);
    // Showing them changes nothing stored.
    expect((latest as RsaTemplate).templates[0]!.headlines).toHaveLength(2);
    fireEvent.change(screen.getByRole('textbox', { name: 'Headline 3' }), {
      target: { value: 'Three' },
    });
    const f = (latest as RsaTemplate).templates[0]!;
    expect(f.headlines).toEqual([
      { text: 'One', pos: 0 },
      { text: 'Two', pos: 1 },
      { text: 'Three', pos: 0 },
    ]);
    expect(f.descriptions).toEqual([{ text: 'D one', pos: 0 }]);
  });

  it('scores the shown fallback and the whole template over the rows', async () => {
    const t = newRsaTemplate('T');
    const f = (h: string) => ({
      headlines: [
        { text: h, pos: 0 },
        { text: 'Two', pos: 0 },
        { text: 'Three', pos: 0 },
      ],
      descriptions: [
        { text: 'D one', pos: 0 },
        { text: 'D two', pos: 0 },
      ],
      paths: ['', ''],
      labels: [''],
    });
    t.templates = [f('Buy {root} shoes'), f('{root}')];
    withMantine(<Rsa initial={t} />);
    await screen.findByRole(
      'button',
      { name: 'Fallback 1 validator: 1/2 (50%) 😐' },
      { timeout: 3000 },
    );
    await screen.findByRole(
      'button',
      { name: 'All fallbacks validator: 2/2 (100%) 🤩' },
      { timeout: 3000 },
    );
    await waitFor(() =>
      expect(document.body.textContent).toContain('longest 35/30 (row 2) over the limit'),
    );
  });
});

describe('PerformanceTemplateEditor', () => {
  it('has the Performance Max fields, the 60 limit on the first description and the rules', () => {
    withMantine(<Pmax />);
    expect(screen.getAllByRole('textbox', { name: /^Headline \d+$/ })).toHaveLength(3);
    expect(screen.getAllByRole('textbox', { name: /^Long Headline \d+$/ })).toHaveLength(1);
    expect(screen.getAllByRole('textbox', { name: /^Description \d+$/ })).toHaveLength(2);
    expect(screen.queryAllByRole('radiogroup')).toHaveLength(0);
    expect(document.body.textContent).toContain('0/60');
    fireEvent.click(screen.getByRole('button', { name: 'Add long headline' }));
    expect(names('button', /^Delete /)).toEqual(['Delete long headline 2']);
    fireEvent.change(screen.getByRole('textbox', { name: 'Business Name' }), {
      target: { value: 'Adloom' },
    });
    const cta = screen.getByRole('combobox', { name: 'Call To Action' }) as HTMLSelectElement;
    expect([...cta.options].map((o) => o.value)).toHaveLength(16);
    fireEvent.change(cta, { target: { value: 'Shop now' } });
    const f = (latest as PerformanceMaxTemplate).templates[0]!;
    expect([f.businessName, f.callToAction, f.longHeadlines.length]).toEqual([
      'Adloom',
      'Shop now',
      2,
    ]);
    fireEvent.change(cta, { target: { value: 'None' } });
    expect((latest as PerformanceMaxTemplate).templates[0]!.callToAction).toBe('');
  });

  it('shows at least 3 headlines, 1 long headline and 2 descriptions of a fallback stored with fewer', () => {
    const t = newPerformanceMaxTemplate('P');
    t.templates = [
      {
        ...t.templates[0]!,
        headlines: [{ text: 'One', pos: 0 }],
        longHeadlines: [],
        descriptions: [{ text: 'D one', pos: 0 }],
      },
    ];
    withMantine(<Pmax initial={t} />);
    expect(screen.getAllByRole('textbox', { name: /^Headline \d+$/ })).toHaveLength(3);
    expect(screen.getAllByRole('textbox', { name: /^Long Headline \d+$/ })).toHaveLength(1);
    expect(screen.getAllByRole('textbox', { name: /^Description \d+$/ })).toHaveLength(2);
    expect((latest as PerformanceMaxTemplate).templates[0]!.longHeadlines).toEqual([]);
    fireEvent.change(screen.getByRole('textbox', { name: 'Long Headline 1' }), {
      target: { value: 'Buy {root}' },
    });
    const f = (latest as PerformanceMaxTemplate).templates[0]!;
    expect(f.longHeadlines).toEqual([{ text: 'Buy {root}', pos: 0 }]);
    expect(f.headlines).toHaveLength(1);
  });
});
