import { describe, expect, it } from 'vitest';
import { generateExtensions, splitSnippetValues } from './extensions.ts';
import { restoreExtensionTemplate } from './restore.ts';
import type { FeedRow } from './types.ts';
import { feedRow } from '../test/helpers/rows.ts';

const nike = { root: 'Nike', mod: 'Air', var1: 'Boost', var2: 'Flex', url: 'https://x.com/nike' };
const rows: FeedRow[] = [
  feedRow('a', nike),
  feedRow('b', nike),
  feedRow('c', { root: 'A very long brand name indeed', url: 'https://x.com/c' }),
];

describe('extensions', () => {
  it('emits identical callouts once and reports invalid rows', () => {
    const t = restoreExtensionTemplate({
      extensionType: 'Callout',
      templates: [{ 'Callout text': 'Free {root} returns' }],
    });
    const out = generateExtensions({ template: t, rows });
    expect(out.extensions.map((e) => e.values['Callout text'])).toEqual(['Free Nike returns']);
    expect(out.issues.map((i) => [i.rowId, i.code])).toEqual([['c', 'no-valid-fallback']]);
    expect(out.issues[0]?.message).toContain('Callout text has 42 characters (max 25)');
  });

  it('fills a sitelink Final URL from the row and requires every non-static field', () => {
    const t = restoreExtensionTemplate({
      extensionType: { name: 'Sitelink' },
      templates: [
        {
          'Link Text': '{root}',
          'Description Line 1': 'Shop {mod}',
          'Description Line 2': 'Today',
        },
      ],
    });
    const out = generateExtensions({ template: t, rows: rows.slice(0, 1) });
    expect(out.extensions[0]?.values).toMatchObject({
      'Link Text': 'Nike',
      'Final URL': 'https://x.com/nike',
    });
    const missing = restoreExtensionTemplate({
      extensionType: 'Sitelink',
      templates: [{ 'Link Text': 'x', 'Description Line 1': 'y' }],
    });
    expect(
      generateExtensions({ template: missing, rows: rows.slice(0, 1) }).issues[0]?.message,
    ).toBe('Description Line 2 is empty');
  });

  it.each([
    ['{root};{mod};{var1}', 'brands', true],
    ['{root};{mod}', 'Brands', false],
    ['{root};{mod};{var1}', 'Colours', false],
    ['a;b;c;d;e;f;g;h;i;j;k', 'Types', false],
    ['a;b;' + 'c'.repeat(26), 'Types', false],
  ])('snippet values %s with header %s valid: %s', (values, header, valid) => {
    const t = restoreExtensionTemplate({
      extensionType: 'Structured Snippet',
      templates: [{ Header: header, 'Snippet Values': values }],
    });
    const out = generateExtensions({ template: t, rows: rows.slice(0, 1) });
    expect(out.extensions.length).toBe(valid ? 1 : 0);
    if (valid)
      expect(out.extensions[0]?.values).toMatchObject({
        Header: 'Brands',
        'Snippet Values': 'Nike; Air; Boost',
      });
  });

  it('splits snippet values on ; and new lines', () => {
    expect(splitSnippetValues(' a ; b\nc;; ')).toEqual(['a', 'b', 'c']);
  });
});
