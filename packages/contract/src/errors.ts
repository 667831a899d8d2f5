import { z } from 'zod';

/** Every error code the API can answer, with the HTTP status it is sent with. */
export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  /**
   * A tool the account's address grants (the AI helper, the XML tools) waits until the address
   * is verified through the mailed link; `details.tool` names the tool.
   */
  email_unverified: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  not_configured: 501,
  upstream_failed: 502,
  /** No Google account linked (spec section 6: sheet calls answer 401); the session stays. */
  not_linked: 401,
  /** Google refused the stored token (invalid_grant): the account must be linked again. */
  relink_needed: 401,
  /** The sheet has no header row, repeated headers or no feed column (spec section 8: 400). */
  sheet_headers: 400,
  /** The sheet URL names no spreadsheet this Google account can open (spec section 8: 404). */
  sheet_not_found: 404,
  /** Google kept answering 429 after the retries. */
  quota_exhausted: 429,
  /** Upload would replace sheet rows the feed does not hold; send `replace: true` to confirm. */
  sheet_has_other_rows: 409,
  /** No geo targets release is loaded on this server (an operator loads one). */
  geo_not_loaded: 409,
  /** A geo search matches more targets than a feed holds. */
  geo_too_many: 413,
  /** A feed URL the server will not fetch: not http(s), a private or loopback address, too many redirects. */
  url_refused: 400,
  /** The shop's server could not be reached, answered an error status, or was too slow. */
  feed_unreachable: 422,
  /** The feed's decoded body is larger than the server's cap. */
  feed_too_large: 413,
  /** The feed is not well-formed XML (details name the line and column), or not a product feed. */
  xml_malformed: 422,
  /** This user already has the most feed fetches running at once. */
  fetch_busy: 429,
  /** This account already has a large save running (one at a time); try again after Retry-After. */
  save_in_progress: 429,
  /**
   * The server is busy (the most large saves it takes at once, or every database connection in
   * use); not an outage: try again after Retry-After.
   */
  server_busy: 429,
  /** The AI model's service answered 429. */
  ai_rate_limited: 429,
  /** The AI model's service failed (5xx), could not be reached or was too slow. */
  ai_unavailable: 502,
  /** The AI model declined the request (a refusal or a content filter). */
  ai_refused: 422,
} as const;

/** A machine-readable error code. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** One validation problem, in the `errors: [{ msg }]` shape the spec uses for register. */
export const FieldErrorSchema = z.object({ msg: z.string(), path: z.string().optional() });
/** One validation problem. */
export type FieldError = z.infer<typeof FieldErrorSchema>;

/** The one error shape every failed API call answers with. */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
  /** Present on validation failures, as the spec's register call describes. */
  errors: z.array(FieldErrorSchema).optional(),
  /** Present on account calls where the spec answers `{ type, message }`. */
  type: z.string().optional(),
  message: z.string().optional(),
});
/** The one error shape every failed API call answers with. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Status code for an error code (500 for an unknown one). */
export function statusForCode(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}
