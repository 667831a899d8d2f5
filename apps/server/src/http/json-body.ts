import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { noteJsonBodyText } from './text-rule.ts';

/** The 400 of a body whose bytes are not UTF-8. */
export const INVALID_UTF8_MESSAGE =
  'The request body is not valid UTF-8 text. Save the file as UTF-8 and try again.';

/** A JSON parser that receives the body as text. */
export type JsonTextParser = (
  request: FastifyRequest,
  text: string,
  done: (error: Error | null, value?: unknown) => void,
) => void;

/**
 * Makes `parse` the JSON parser of `app` (and the routes registered in it afterwards), fed only
 * bodies whose bytes are valid UTF-8. The text is also scanned for the text rule's fast path
 * (`noteJsonBodyText`), so a body without a `\u` escape is never walked. Node's decoder would turn invalid bytes (a windows-1252
 * file pasted as is) into U+FFFD without a word, changing the person's text; they answer 400.
 */
export function useUtf8JsonParser(app: FastifyInstance, parse: JsonTextParser): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(new AppError('bad_request', INVALID_UTF8_MESSAGE));
      return;
    }
    const text = bytes.toString('utf8');
    noteJsonBodyText(request, text);
    parse(request, text, done);
  });
}
