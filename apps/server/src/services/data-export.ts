import { Readable } from 'node:stream';
import { Zip, ZipDeflate, strToU8 } from 'fflate';
import type { ClientBundleAnswer, ListsAnswer, StoredFeed } from '@adloom/contract';
import { FEED_COLUMN_DEFINITIONS, formatCsv } from '@adloom/engine';
import type { Db } from '../db/index.ts';
import { findUserById } from '../db/users.ts';
import { listClientNames } from '../db/workspace.ts';
import { FeedRowsCache } from './workspace-cache.ts';
import { jsonText } from '../presenters/workspace.ts';
import { loadClientBundleJson, loadListsJson } from './workspace.ts';

// "Download my data": everything a person keeps in Adloom, as one zip they can read without
// Adloom: per client its templates as JSON and each feed as CSV, the lists likewise, the account.

/** The zip's own explanation, first in it. */
export const DATA_EXPORT_README = `Your Adloom data

account.json                 your account: email, role, tools, tutorial progress
lists/lists.json             your lists and data tables (names, types, linked sheets)
lists/<name>.csv             the rows of each list or data table
clients/<client>/client.json the client's templates of every kind, and its feeds' names and links
clients/<client>/feeds/<name>.csv
                             the rows of each feed, with the columns the feed grid shows

CSV files are UTF-8 with a byte order mark (Excel reads them as UTF-8), commas, CRLF.
`;

/** A file name part: no path separators or control characters, at most 100 characters. */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').trim();
  const short = cleaned.slice(0, 100);
  return short === '' || short === '.' || short === '..' ? '_' : short;
}

/** `base` made unique among `taken` with ' (2)', ' (3)'… (file systems ignoring case too). */
function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base} (${n})`;
  taken.add(name.toLowerCase());
  return name;
}

/**
 * A feed's rows as CSV text in chunks (a BOM, a header of the grid's column names, one line per
 * row): a big feed is never one string.
 */
function* feedCsvChunks(feed: StoredFeed): Generator<string> {
  yield '\uFEFF';
  const headers = FEED_COLUMN_DEFINITIONS.map((column) => column.label);
  const rows = feed.rows.map((row) =>
    FEED_COLUMN_DEFINITIONS.map((column) => String(row[column.key] ?? '')),
  );
  yield* formatCsv({ headers, rows });
}

/** A feed without its rows, for the JSON beside the CSV files. */
function feedSummary(feed: StoredFeed, csvFile: string) {
  const { rows, ...rest } = feed;
  return { ...rest, rowCount: rows.length, rowsFile: csvFile };
}

/**
 * The zip of everything `userId` keeps, made as it is read: one client's bundle is held at a time
 * (a bundle's JSON is parsed, written, and let go before the next client is read).
 */
export function userDataZip(db: Db, userId: string): Readable {
  const cache = new FeedRowsCache(0);
  const output = new Readable({ read() {} });
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      output.destroy(error);
      return;
    }
    output.push(chunk);
    if (final) output.push(null);
  });
  const addFile = (name: string, text: string | Iterable<string>) => {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    if (typeof text === 'string') {
      file.push(strToU8(text), true);
      return;
    }
    for (const chunk of text) file.push(strToU8(chunk));
    file.push(new Uint8Array(0), true);
  };

  async function write(): Promise<void> {
    addFile('README.txt', DATA_EXPORT_README);
    const user = await findUserById(db, userId);
    if (!user) throw new Error('The account is gone');
    addFile(
      'account.json',
      JSON.stringify(
        {
          email: user.email,
          role: user.role,
          tools: user.integrations,
          tutorial: user.tutorial,
          exportedAt: new Date().toISOString(),
        },
        null,
        2,
      ),
    );

    const lists = JSON.parse(jsonText(await loadListsJson(db, cache, userId))) as ListsAnswer;
    const listNames = new Set<string>(['lists.json']);
    const listSummaries = lists.feeds.map((feed) => {
      const file = `${uniqueName(safeFileName(feed.name), listNames)}.csv`;
      addFile(`lists/${file}`, feedCsvChunks(feed));
      return feedSummary(feed, file);
    });
    addFile('lists/lists.json', JSON.stringify({ lists: listSummaries }, null, 2));

    const clientFolders = new Set<string>();
    for (const client of await listClientNames(db, userId)) {
      const folder = `clients/${uniqueName(safeFileName(client), clientFolders)}`;
      const bundle = JSON.parse(
        jsonText(await loadClientBundleJson(db, cache, userId, client)),
      ) as ClientBundleAnswer;
      const feedNames = new Set<string>();
      const feeds = bundle.feeds.map((feed) => {
        const file = `${uniqueName(safeFileName(feed.name), feedNames)}.csv`;
        addFile(`${folder}/feeds/${file}`, feedCsvChunks(feed));
        return feedSummary(feed, `feeds/${file}`);
      });
      const { revisions: _revisions, feeds: _feeds, ...templates } = bundle;
      addFile(
        `${folder}/client.json`,
        JSON.stringify({ name: client, feeds, ...templates }, null, 2),
      );
    }
    zip.end();
  }

  write().catch((error: unknown) => {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
