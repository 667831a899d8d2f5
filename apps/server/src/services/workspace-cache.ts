/**
 * A bounded, least-recently-used cache of feeds' rows as answer JSON (text, or its UTF-8 bytes as
 * a save answered them), keyed by feed id and the
 * feed's rows version. Every write of a feed's rows stores a new random version, and a load
 * reads the version from the database first, so a cached entry is only used while it is still
 * what the database holds (also with several servers on one PostgreSQL): never stale.
 * It spares a load the reading, parsing and re-serialising of a large rows document.
 */

/** Default memory budget of the cache (sum of the cached JSON lengths: characters or bytes). */
export const FEED_ROWS_CACHE_MAX_CHARS = 128 * 1024 * 1024;

/** Cached rows JSON of feeds. */
export class FeedRowsCache {
  private readonly entries = new Map<string, { version: string; json: string | Uint8Array }>();
  private size = 0;

  constructor(private readonly maxChars: number = FEED_ROWS_CACHE_MAX_CHARS) {}

  /** The rows JSON of a feed when the cached copy is of that version. */
  get(feedId: string, version: string): string | Uint8Array | undefined {
    const entry = this.entries.get(feedId);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.delete(feedId);
      return undefined;
    }
    // Re-insert: Map order is the recency order.
    this.entries.delete(feedId);
    this.entries.set(feedId, entry);
    return entry.json;
  }

  /** Remembers the rows JSON of a feed version (skipped when larger than the whole budget). */
  set(feedId: string, version: string, json: string | Uint8Array): void {
    this.delete(feedId);
    if (json.length > this.maxChars) return;
    this.entries.set(feedId, { version, json });
    this.size += json.length;
    for (const [id, entry] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(id);
      this.size -= entry.json.length;
    }
  }

  /** Forgets a feed. */
  delete(feedId: string): void {
    const entry = this.entries.get(feedId);
    if (!entry) return;
    this.entries.delete(feedId);
    this.size -= entry.json.length;
  }

  /** Characters held. */
  get heldChars(): number {
    return this.size;
  }
}
