import {
  API,
  BrandCategoriesSchema,
  XmlFeedAnswerSchema,
  type BrandCategories,
  type XmlFeedAnswer,
} from '@adloom/contract';
import { http } from './client.ts';
import { ApiError, NO_RESPONSE_MESSAGE } from './errors.ts';

/**
 * The XML feed call of spec section 7: `POST /api/app/fetch-xml`. Its errors are the caller's
 * (`errors: 'caller'`): the XML panel says 'Rows not added…' or 'Snippets not generated…' with
 * what `describeXmlFailure` gives.
 */

/** A shop's product feed read into `{ brand: { category: products } }`. */
export function fetchXmlFeed(url: string, categoryLevel: number): Promise<BrandCategories> {
  return http.post(
    API.app.fetchXml,
    { url, categoryLevel },
    { schema: BrandCategoriesSchema, errors: 'caller' },
  );
}

/**
 * The same with the products out of stock counted apart (`withAvailability`): what Add XML
 * reads, so a row all of whose products are out of stock is added paused.
 */
export function fetchXmlFeedWithAvailability(
  url: string,
  categoryLevel: number,
): Promise<XmlFeedAnswer> {
  return http.post(
    API.app.fetchXml,
    { url, categoryLevel, withAvailability: true },
    { schema: XmlFeedAnswerSchema, errors: 'caller' },
  );
}

/**
 * What went wrong with a feed, for the detail of the failure notice: the server's message (a
 * refused address, the line and column of broken XML, a busy or too large feed, a refused body),
 * or that the server could not be reached.
 */
export function describeXmlFailure(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.status === 0) return NO_RESPONSE_MESSAGE;
  return error.message;
}
