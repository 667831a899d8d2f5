import { describe, expect, it } from 'vitest';
import {
  makeScore,
  newExtensionTemplate,
  restoreCampaignTemplate,
  scoreExtensionTemplate,
  type ExtensionTemplate,
  type ExtensionTypeName,
  type FeedRow,
} from '@adloom/engine';
import { validateExtensionTemplate } from './extensionValidation.ts';

function row(id: string, root: string, url = ''): FeedRow {
  return { id, root, mod: '', var1: '', var2: '', var3: '', url };
}

function template(
  type: ExtensionTypeName,
  ...entries: Record<string, string>[]
): ExtensionTemplate {
  const t = newExtensionTemplate('T', type);
  return { ...t, templates: entries.map((e) => ({ ...t.templates[0], ...e })) };
}

const ROWS = [row('a', 'Nike'), row('b', 'Emporio Armani Collection'), row('c', '')];

describe('validateExtensionTemplate', () => {
  it('counts the rows a callout serves and names the field and reason of the others', () => {
    const t = template('Callout', { 'Callout text': '{root} shoes' });
    const result = validateExtensionTemplate(t, ROWS, Uint32Array.from([0, 6, 9]));
    expect(result.valid).toBe(2);
    expect(result.total).toBe(3);
    expect(result.failing).toBe(1);
    expect(result.failures).toEqual([
      {
        rowNumber: 2,
        feedRowNumber: 7,
        rowText: 'Emporio Armani Collection',
        field: 'Callout text',
        reason: 'Callout text has 31 characters (max 25): "Emporio Armani Collection shoes"',
      },
    ]);
    // Agrees with the engine's score.
    expect(makeScore(result.valid, result.total)).toEqual(scoreExtensionTemplate(t, ROWS));
  });

  it('serves a row from a later entry (fallback) when the first fails', () => {
    const t = template(
      'Callout',
      { 'Callout text': 'All {root} shoes' },
      { 'Callout text': 'Shoes' },
    );
    const result = validateExtensionTemplate(t, ROWS);
    expect(result.valid).toBe(3);
    expect(result.failures).toEqual([]);
  });

  it('names snippet values, the header and a sitelink final URL', () => {
    const snippet = template('Structured Snippet', { Header: 'Brands', 'Snippet Values': 'a;b' });
    expect(validateExtensionTemplate(snippet, [row('a', 'x')]).failures[0]?.field).toBe(
      'Snippet Values',
    );
    const badHeader = template('Structured Snippet', {
      Header: 'Flavours',
      'Snippet Values': 'a;b;c',
    });
    expect(validateExtensionTemplate(badHeader, [row('a', 'x')]).failures[0]?.field).toBe('Header');
    const sitelink = template('Sitelink', {
      'Link Text': 'Sale',
      'Description Line 1': 'One',
      'Description Line 2': 'Two',
    });
    const result = validateExtensionTemplate(sitelink, [
      row('a', 'x'),
      row('b', 'y', 'https://y.test'),
      row('c', 'z', 'ftp://z.test'),
    ]);
    expect(result.valid).toBe(1);
    expect(result.failures.map((f) => [f.field, f.reason])).toEqual([
      ['Final URL', 'Final URL is empty (neither the template nor the row has one)'],
      ['Final URL', 'Final URL "ftp://z.test" is not an http:// or https:// address'],
    ]);
  });

  it('fills {const} from the campaign template and names a lone sitelink description', () => {
    const callout = template('Callout', { 'Callout text': 'Free returns at {const}' });
    const campaign = restoreCampaignTemplate({ const: 'The Very Long Shoe Shop Name' });
    expect(validateExtensionTemplate(callout, [row('a', 'x')]).valid).toBe(1);
    expect(
      validateExtensionTemplate(callout, [row('a', 'x')], undefined, undefined, campaign)
        .failures[0]?.field,
    ).toBe('Callout text');
    const sitelink = template('Sitelink', { 'Link Text': 'Sale', 'Description Line 2': 'Two' });
    expect(
      validateExtensionTemplate(sitelink, [row('a', 'x', 'https://x.test')]).failures[0],
    ).toMatchObject({
      field: 'Description Line 1',
      reason:
        'Description Line 1 is empty while Description Line 2 is not: a sitelink has both description lines or neither',
    });
  });
});
