import type { XmlFeedsConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import { createFeedFetcher } from './safe-fetch.ts';
import { readBrandCategories } from './xml-feed-parser.ts';

/** True when `email` holds the agency marker (any case): that user has the XML feed tools. */
export function hasXmlTools(email: string, xmlFeeds: Pick<XmlFeedsConfig, 'emailMarker'>): boolean {
  const marker = xmlFeeds.emailMarker;
  return marker !== undefined && email.toLowerCase().includes(marker);
}

/** Reads people's product feeds, a few per user at once. */
export interface XmlFeedReader {
  /**
   * The brands and categories of the feed at `url`, as the JSON text of BrandCategories (see
   * readBrandCategories); fetch_busy when
   * the user already has XML_FETCHES_PER_USER fetches running; `signal` ends it early.
   */
  read(
    userId: string,
    feed: { url: string; categoryLevel: number; withAvailability?: boolean },
    signal: AbortSignal,
  ): Promise<string>;
  close(): Promise<void>;
}

/** A reader with the server's XML feed settings. */
export function createXmlFeedReader(config: XmlFeedsConfig): XmlFeedReader {
  const fetcher = createFeedFetcher(config);
  const running = new Map<string, number>();
  return {
    async read(userId, feed, signal) {
      const count = running.get(userId) ?? 0;
      if (count >= config.fetchesPerUser)
        throw new AppError(
          'fetch_busy',
          `You already have ${count} ${count === 1 ? 'feed' : 'feeds'} downloading. Try again when ${count === 1 ? 'it is' : 'one is'} done.`,
        );
      running.set(userId, count + 1);
      try {
        return await readBrandCategories(
          fetcher.fetch(feed.url, signal),
          feed.categoryLevel,
          feed.withAvailability ?? false,
        );
      } finally {
        const left = (running.get(userId) ?? 1) - 1;
        if (left === 0) running.delete(userId);
        else running.set(userId, left);
      }
    },
    close: () => fetcher.close(),
  };
}
