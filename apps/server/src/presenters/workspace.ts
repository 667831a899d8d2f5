/**
 * Presenters of the workspace: stored rows -> the shapes of spec section 7. Feed rows are kept as
 * the JSON text the database hands out and spliced into the answer, so a 100k-row feed is never
 * parsed and re-serialised on its way out.
 */
import type { ClientRevisions, SheetSync, TemplateKind } from '@adloom/contract';
import { TEMPLATE_KINDS } from '@adloom/contract';
import { FEED_COLUMNS, identifiedFeedCellsFrom } from '@adloom/engine';
import type {
  ClientRecord,
  FeedMetaRecord,
  SheetSyncRecord,
  TemplateRecord,
} from '../db/workspace.ts';

/**
 * Stored rows (arrays of cells, the field of each position named by `layout`, see
 * `STORED_ROW_LAYOUT`) as the JSON text of row objects `{ id, ...FEED_COLUMNS }`. Cells are
 * mapped by key: a column the layout lacks (added after the rows were written) reads as '', a
 * key no column has any more is left out.
 */
export function presentStoredRowsJson(storedJson: string, layout: readonly string[]): string {
  const stored = JSON.parse(storedJson) as string[][];
  const idAt = layout.indexOf('id');
  const cellAt = FEED_COLUMNS.map((column) => layout.indexOf(column));
  const rows = new Array<Record<string, string>>(stored.length);
  const cells = new Array<string>(cellAt.length);
  for (let i = 0; i < stored.length; i++) {
    const r = stored[i]!;
    for (let c = 0; c < cellAt.length; c++) {
      const at = cellAt[c]!;
      cells[c] = at < 0 ? '' : (r[at] ?? '');
    }
    rows[i] = identifiedFeedCellsFrom((idAt < 0 ? undefined : r[idAt]) ?? '', cells);
  }
  return JSON.stringify(rows);
}

/** A feed's last sheet sync, when it has one. */
export function presentSheetSync(record: SheetSyncRecord): SheetSync | undefined {
  if (!record.sheet_synced_at || !record.sheet_sync_direction) return undefined;
  return {
    at: record.sheet_synced_at.toISOString(),
    direction: record.sheet_sync_direction,
    rows: record.sheet_rows_moved ?? 0,
  };
}

/**
 * JSON text in pieces: text, and UTF-8 bytes of JSON (a feed's rows as its save answered them,
 * kept as bytes: sent as they are, never decoded). `sendJson` streams them; `jsonText` joins.
 */
export type JsonPieces = Array<string | Uint8Array>;

/** A feed's rows as answer JSON: text, or its UTF-8 bytes. */
export type RowsJson = string | Uint8Array;

/** The pieces as one text. */
export function jsonText(pieces: JsonPieces): string {
  const decoder = new TextDecoder();
  return pieces
    .map((piece) => (typeof piece === 'string' ? piece : decoder.decode(piece)))
    .join('');
}

/**
 * A feed as JSON: `{ _id, name, dataType, sheetUrl, sheetName, sheetSync?, rows }`, rows
 * given as JSON. A linked feed's rows are its kept copy, `sheetSync` says when it was made.
 */
export function presentFeedJson(feed: FeedMetaRecord, rowsJson: RowsJson): JsonPieces {
  const sheetSync = feed.sheet_url ? presentSheetSync(feed) : undefined;
  const head = JSON.stringify({
    _id: feed.id,
    name: feed.name,
    dataType: feed.data_type,
    sheetUrl: feed.sheet_url ?? '',
    sheetName: feed.sheet_name ?? '',
    ...(sheetSync ? { sheetSync } : {}),
  });
  return [`${head.slice(0, -1)},"rows":`, rowsJson, '}'];
}

/** A list of feeds as JSON; `rowsJsonOf` gives each feed's rows as answer JSON. */
export function presentFeedsJson(
  feeds: readonly FeedMetaRecord[],
  rowsJsonOf: (feedId: string) => RowsJson,
): JsonPieces {
  const pieces: JsonPieces = ['['];
  feeds.forEach((feed, i) => {
    if (i > 0) pieces.push(',');
    pieces.push(...presentFeedJson(feed, rowsJsonOf(feed.id)));
  });
  pieces.push(']');
  return pieces;
}

/** A template as the engine's type with its server `_id`. */
export function presentTemplate(template: TemplateRecord): Record<string, unknown> {
  return { _id: template.id, ...template.body };
}

/** The revisions of a client's six sets. */
export function presentRevisions(client: ClientRecord): ClientRevisions {
  return {
    feeds: client.feeds_revision,
    campaignTemplates: client.campaign_templates_revision,
    adTemplates: client.ad_templates_revision,
    rsaTemplates: client.rsa_templates_revision,
    performanceMaxTemplates: client.performance_max_templates_revision,
    extensionTemplates: client.extension_templates_revision,
  };
}

/** GET /api/app/clients/:name as JSON. */
export function presentClientBundleJson(
  client: ClientRecord,
  feedsJson: JsonPieces,
  templates: readonly TemplateRecord[],
): JsonPieces {
  const byKind = Object.fromEntries(
    TEMPLATE_KINDS.map((kind) => [kind, [] as unknown[]]),
  ) as Record<TemplateKind, unknown[]>;
  for (const template of templates) byKind[template.kind].push(presentTemplate(template));
  const rest = JSON.stringify({ ...byKind, revisions: presentRevisions(client) });
  return [`{"id":${JSON.stringify(client.id)},"feeds":`, ...feedsJson, `,${rest.slice(1)}`];
}

/** A feed-set answer as JSON: `{ ...extra, feeds, revision }`. */
export function presentFeedSetJson(
  extra: Record<string, unknown>,
  feedsJson: JsonPieces,
  revision: number,
): JsonPieces {
  const head = JSON.stringify({ ...extra, revision });
  return [`${head.slice(0, -1)},"feeds":`, ...feedsJson, '}'];
}
