/**
 * A save's body is prepared row by row (save-body-stream.ts) when it is a good one, and whole
 * (JSON.parse of the text) otherwise: both must give the same stored document, answer and hash.
 * A `\u` escape sends a body down the whole path, so each body is prepared as written (row by
 * row) and with one of its letters written as an escape (whole): same value, other path.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_FIELD_AT } from '../src/db/copy-binary.ts';
import { prepareSaveBody } from '../src/services/save-body.ts';
import { prepareStreamed } from '../src/services/save-body-stream.ts';
import { answeredRowsBytes, type PreparedSave } from '../src/services/save-rows.ts';

/** A prepared feed's answered rows as text. */
function answeredRowsJson(feed: Parameters<typeof answeredRowsBytes>[0]): string {
  return new TextDecoder().decode(answeredRowsBytes(feed));
}

/** A prepared save as comparable data: made row ids masked, stored documents as text. */
function comparable(save: PreparedSave): unknown {
  const mask = (text: string) => text.replace(/row-[A-Za-z0-9_-]{11}-[0-9a-z]+/g, 'row-<made>');
  return {
    ...save,
    feeds: save.feeds.map(
      ({ storedFrame, storedBytes, rowsHash, answered, answeredBytes, ...feed }) => {
        const stored = Buffer.from(storedFrame, FIRST_FIELD_AT, storedBytes).toString('utf8');
        return {
          ...feed,
          rowsJson: mask(answeredRowsJson({ answered, answeredBytes })),
          stored: mask(stored),
          // A hash over made ids differs with them.
          rowsHash: stored.includes('row-') ? 'made' : rowsHash,
        };
      },
    ),
  };
}

function prepare(text: string): PreparedSave {
  return prepareSaveBody('feeds', { bytes: Buffer.from(text) });
}

/** The same JSON value with its first `Z` (in a string) written as `\u005A`. */
function withEscape(text: string): string {
  const at = text.indexOf('Z');
  expect(at).toBeGreaterThan(0);
  return `${text.slice(0, at)}\\u005A${text.slice(at + 1)}`;
}

const rows = [
  {
    id: 'a',
    root: ' Zebra ',
    mod: 'x "quoted" ]}',
    var1: 'back\\slash\\',
    url: 'https://e.x/?a=[1]',
  },
  { id: 7, root: 'Ünïcode 日本 😀', selected: true, extra: { nested: ['}', '"', { deep: 1 }] } },
  { root: 'no id' },
  { id: 'a', root: 'repeated id' },
  { id: '', var3: null, status: 'active' },
];

const bodies: [string, string][] = [
  ['compact', JSON.stringify({ name: 'Zed', feeds: [{ name: 'p', rows }] })],
  [
    'pretty, keys in another order, revision and unknown keys',
    JSON.stringify(
      {
        revision: 3,
        other: { a: [1, 2, { b: '}]' }] },
        feeds: [
          { rows, sheetName: ' s ', name: 'Zed feed', _id: 'x', dataType: 'list' },
          { name: 'empty', rows: [] },
          { name: 'no rows key', sheetUrl: null },
        ],
        name: 'Zed',
      },
      null,
      2,
    ).replaceAll('\n', '\r\n\t'),
  ],
  ['no feeds', JSON.stringify({ name: 'Zed', feeds: [] })],
];

describe('a save body prepared row by row', () => {
  it.each(bodies)('%s: as the whole body gives it', (_name, text) => {
    // The paths taken: row by row as written, whole with the escape.
    expect(prepareStreamed('feeds', { bytes: Buffer.from(text) })).toBeDefined();
    expect(prepareStreamed('feeds', { bytes: Buffer.from(withEscape(text)) })).toBeUndefined();
    expect(comparable(prepare(text))).toEqual(comparable(prepare(withEscape(text))));
  });

  it('makes the rows the whole body path makes: trimmed, ids kept, made or renewed', () => {
    const save = prepare(bodies[0]![1]);
    const answered = JSON.parse(answeredRowsJson(save.feeds[0]!)) as { id: string; root: string }[];
    expect(answered.map((row) => row.root)).toEqual([
      'Zebra',
      'Ünïcode 日本 😀',
      'no id',
      'repeated id',
      '',
    ]);
    expect(answered.slice(0, 2).map((row) => row.id)).toEqual(['a', '7']);
    expect(new Set(answered.map((row) => row.id)).size).toBe(5);
  });

  it.each([
    ['a repeated key', '{"name":"Zed","name":"Zed","feeds":[]}'],
    ['rows that are not an array', '{"name":"Zed","feeds":[{"name":"p","rows":null}]}'],
    ['a bad row', '{"name":"Zed","feeds":[{"name":"p","rows":[{"root":5}]}]}'],
    ['a trailing comma', '{"name":"Zed","feeds":[{"name":"p","rows":[{"root":"a"},]}]}'],
    ['text after the value', '{"name":"Zed","feeds":[]} x'],
  ])('leaves %s to the whole body path, which words the answer', (_name, text) => {
    const refusal = (body: string) => {
      try {
        prepare(body);
        return undefined;
      } catch (error) {
        return error;
      }
    };
    const error = refusal(text);
    if (error === undefined)
      expect(comparable(prepare(text))).toEqual(comparable(prepare(withEscape(text))));
    else expect(error).toEqual(refusal(withEscape(text)));
  });
});
