import type { StoredFeed } from '@adloom/contract';

/** A stored feed for tests: a table of `roots` (ids `<name>-<i>`), every other cell empty. */
export function storedFeed(
  name: string,
  roots: readonly string[],
  extra: Partial<StoredFeed> = {},
): StoredFeed {
  return {
    name,
    dataType: 'table',
    sheetUrl: '',
    rows: roots.map((root, i) => ({
      id: `${name}-${i}`,
      root,
      mod: '',
      var1: '',
      var2: '',
      var3: '',
      url: '',
      status: '',
    })),
    ...extra,
  };
}
