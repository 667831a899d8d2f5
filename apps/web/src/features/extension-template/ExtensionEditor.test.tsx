import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import {
  SNIPPET_HEADERS,
  newExtensionTemplate,
  restoreCampaignTemplate,
  resolveAttachLevel,
  type ExtensionTemplate,
  type ExtensionTypeName,
  type FeedRow,
} from '@adloom/engine';
import { measurerFromRows } from '../validation/index.ts';
import {
  ExtensionEditor,
  SNIPPET_HEADER_PROMPT,
  addExtensionFallback,
  deleteExtensionFallback,
  findSnippetValuesFacts,
  setExtensionValue,
} from './ExtensionEditor.tsx';

/** The active campaign template the tab passes: one campaign per root. */
const CAMPAIGN = restoreCampaignTemplate({ name: 'Brands', campaign: '{root}', adGroup: '{mod}' });

function row(id: string, root: string, mod = ''): FeedRow {
  return { id, root, mod, var1: '', var2: '', var3: '', url: `https://shop.test/${id}` };
}

/** Renders the editor as a tab would: the template in state, every change kept. */
function edit(start: ExtensionTemplate, rows: readonly FeedRow[] = []) {
  const seen: ExtensionTemplate[] = [];
  const measurer = measurerFromRows(rows);
  function Host() {
    const [template, setTemplate] = useState(start);
    return (
      <ExtensionEditor
        template={template}
        measurer={measurer}
        attach={resolveAttachLevel(template, CAMPAIGN)}
        onChange={(next) => {
          seen.push(next);
          setTemplate(next);
        }}
      />
    );
  }
  render(
    <MantineProvider>
      <Host />
    </MantineProvider>,
  );
  return { seen, last: () => seen[seen.length - 1] };
}

function template(type: ExtensionTypeName, values: Record<string, string> = {}): ExtensionTemplate {
  const t = newExtensionTemplate('T', type);
  return { ...t, templates: [{ ...t.templates[0], ...values }] };
}

/** The description (limit and counter) an input points at. */
function descriptionOf(input: HTMLElement): string {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('ExtensionEditor', () => {
  it('edits a callout with its limit and counts as Google does', async () => {
    const { last } = edit(template('Callout'));
    const input = screen.getByRole('textbox', { name: 'Callout text' });
    expect(descriptionOf(input)).toBe('Max 25 characters · 0/25');
    await userEvent.type(input, 'Free 東京 delivery');
    expect(input).toHaveProperty('value', 'Free 東京 delivery');
    expect(last()?.templates[0]?.['Callout text']).toBe('Free 東京 delivery');
    expect(descriptionOf(input)).toBe('Max 25 characters · 18/25');
    await userEvent.type(input, ' on every order');
    expect(descriptionOf(input)).toBe('Max 25 characters · 33/25 over the limit');
    expect(descriptionOf(screen.getByRole('textbox', { name: 'Upgraded extension' }))).toContain(
      'Static',
    );
  });

  it('names Google\'s editorial problems as typed: no "!" in a callout, one in a description', async () => {
    edit(template('Sitelink'));
    const link = screen.getByRole('textbox', { name: 'Link Text' });
    await userEvent.type(link, 'Sale!');
    expect(descriptionOf(link)).toContain('Text has "!"');
    const description = screen.getByRole('textbox', { name: 'Description Line 1' });
    await userEvent.type(description, 'Shop now!');
    expect(descriptionOf(description)).not.toContain('"!"');
    await userEvent.type(description, '!');
    expect(descriptionOf(description)).toContain('repeats punctuation');
  });

  it('shows the longest a callout becomes over the selected rows', async () => {
    edit(template('Callout', { 'Callout text': 'All {root} models' }), [
      row('a', 'Nike'),
      row('b', 'Emporio Armani Collection'),
    ]);
    const input = screen.getByRole('textbox', { name: 'Callout text' });
    await waitFor(() =>
      expect(descriptionOf(input)).toBe(
        'Max 25 characters · 17/25 · longest 36/25 (row 2) over the limit',
      ),
    );
  });

  it('chooses where the assets attach and says where they attach now', async () => {
    const { last } = edit(template('Callout', { 'Callout text': 'Free {root} returns' }));
    const select = screen.getByRole('combobox', { name: 'Attach to' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Automatic (from placeholders)', 'Account', 'Campaign', 'Ad group']);
    expect(select).toHaveProperty('value', 'auto');
    expect(descriptionOf(select)).toBe(
      "Automatic: {root} in the campaign name, so each asset attaches to its row's campaign.",
    );
    await userEvent.selectOptions(select, 'Ad group');
    expect(last()?.attachTo).toBe('adGroup');
    expect(descriptionOf(select)).toBe("Each asset attaches to its row's ad group.");
  });

  it('lists the sitelink fields in order with their limits', () => {
    edit(template('Sitelink'));
    const group = screen.getByRole('group', { name: 'Sitelink fields' });
    expect(within(group).getAllByRole('textbox').map(labelOf)).toEqual([
      'Link Text',
      'Description Line 1',
      'Description Line 2',
      'Upgraded extension',
      'Final URL',
    ]);
    expect(descriptionOf(screen.getByRole('textbox', { name: 'Link Text' }))).toContain(
      'Max 25 characters',
    );
    expect(descriptionOf(screen.getByRole('textbox', { name: 'Description Line 2' }))).toContain(
      'Max 35 characters, both lines or neither',
    );
    expect(descriptionOf(screen.getByRole('textbox', { name: 'Final URL' }))).toContain(
      "Leave it empty to use each row's Final URL",
    );
  });

  it('offers the fixed snippet headers and counts the snippet values', async () => {
    const { last } = edit(template('Structured Snippet'), [row('a', 'Nike'), row('b', 'Puma')]);
    const header = screen.getByRole('combobox', { name: 'Header' });
    const options = within(header)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([SNIPPET_HEADER_PROMPT, ...SNIPPET_HEADERS]);
    await userEvent.selectOptions(header, 'Brands');
    expect(last()?.templates[0]?.Header).toBe('Brands');

    const values = screen.getByRole('textbox', { name: 'Snippet Values' });
    await userEvent.type(values, '{{root};Adidas');
    expect(descriptionOf(values)).toContain('2 values (needs 3 to 10)');
    await userEvent.type(values, ';Asics Gel Nimbus Trail Runner');
    expect(descriptionOf(values)).toContain('3 values · longest value 29/25 over the limit');
    expect(last()?.templates[0]?.['Snippet Values']).toBe(
      '{root};Adidas;Asics Gel Nimbus Trail Runner',
    );
  });

  it('measures the longest snippet value after substitution', async () => {
    edit(template('Structured Snippet', { Header: 'brands', 'Snippet Values': '{root} x;B;C' }), [
      row('a', 'Nike'),
      row('b', 'Emporio Armani Collection'),
    ]);
    // A header stored in another case shows as the listed one.
    expect(screen.getByRole('combobox', { name: 'Header' })).toHaveProperty('value', 'Brands');
    const values = screen.getByRole('textbox', { name: 'Snippet Values' });
    await waitFor(() =>
      expect(descriptionOf(values)).toContain('after substitution 27/25 (row 2) over the limit'),
    );
  });

  it('keeps a stored header outside the list', () => {
    edit(template('Structured Snippet', { Header: 'Flavours' }));
    const header = screen.getByRole('combobox', { name: 'Header' });
    expect(header).toHaveProperty('value', 'Flavours');
    expect(
      within(header).getByRole('option', { name: 'Flavours (not a Google header)' }),
    ).toBeTruthy();
  });
});

function labelOf(input: HTMLElement): string {
  const id = input.getAttribute('id');
  return document.querySelector(`label[for="${id}"]`)?.textContent ?? '';
}

describe('extension fallbacks', () => {
  it('adds a fallback with the static fields of the first, edits it, and deletes it', async () => {
    const { last } = edit(
      template('Sitelink', { 'Link Text': '{root} Sale', 'Final URL': 'https://shop.test' }),
    );
    expect(screen.queryByRole('group', { name: 'Fallback 1' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add Fallback' }));
    const second = screen.getByRole('group', { name: 'Fallback 2' });
    expect(screen.getByRole('group', { name: 'Fallback 1' })).toBeTruthy();
    expect(within(second).getByRole('textbox', { name: 'Link Text' })).toHaveProperty('value', '');
    expect(within(second).getByRole('textbox', { name: 'Final URL' })).toHaveProperty(
      'value',
      'https://shop.test',
    );
    await userEvent.type(within(second).getByRole('textbox', { name: 'Link Text' }), 'Sale');
    expect(last()?.templates.map((t) => t['Link Text'])).toEqual(['{root} Sale', 'Sale']);
    // The first fallback cannot be deleted.
    expect(screen.queryByRole('button', { name: 'Delete Fallback 1' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Delete Fallback 2' }));
    expect(last()?.templates).toHaveLength(1);
    expect(screen.queryByRole('group', { name: 'Fallback 2' })).toBeNull();
  });

  it('never deletes the first entry', () => {
    const t = addExtensionFallback(template('Callout', { 'Callout text': 'a' }));
    expect(deleteExtensionFallback(t, 0)).toBe(t);
    expect(deleteExtensionFallback(t, 1).templates).toEqual([t.templates[0]]);
  });
});

describe('setExtensionValue', () => {
  it('changes the entry it is given', () => {
    const t = addExtensionFallback(template('Callout', { 'Callout text': 'a' }));
    expect(
      setExtensionValue(t, 'Callout text', 'b', 1).templates.map((e) => e['Callout text']),
    ).toEqual(['a', 'b']);
  });

  it('changes the first entry and keeps the others and the type', () => {
    const t: ExtensionTemplate = {
      ...newExtensionTemplate('T', 'Callout'),
      templates: [{ 'Callout text': 'a', 'Upgraded extension': '' }, { 'Callout text': 'b' }],
    };
    const next = setExtensionValue(t, 'Callout text', 'c');
    expect(next.templates).toEqual([
      { 'Callout text': 'c', 'Upgraded extension': '' },
      { 'Callout text': 'b' },
    ]);
    expect(next.extensionType).toBe(t.extensionType);
    expect(t.templates[0]?.['Callout text']).toBe('a');
  });
});

describe('findSnippetValuesFacts', () => {
  it.each([
    ['', 0, 0],
    ['a;bb; ccc ;', 3, 3],
    ['one\ntwo;東京', 3, 4],
  ])('%j has %i values, the longest %i', (text, count, longestTyped) => {
    expect(findSnippetValuesFacts(text)).toEqual({ count, longestTyped });
  });
});
