import type { z } from 'zod';
import { fieldErrorsFromZod, validationError } from '../errors.ts';

/**
 * Parses a request body (or params, or query) with a contract schema; a failure throws
 * 400 validation_failed with `errors: [{ msg, path }]`.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw validationError(fieldErrorsFromZod(result.error));
  return result.data;
}

/** Same as parseBody, for route params and query strings. */
export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  return parseBody(schema, params);
}
