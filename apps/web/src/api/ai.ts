import {
  API,
  AiStreamEventSchema,
  type AiSuggestionsAnswer,
  type AiSuggestionsBodyInput,
} from '@adloom/contract';
import { http } from './client.ts';
import { ApiError } from './errors.ts';
import type { HttpClient } from './http.ts';

/** Shown when the stream ends without its `done` or `error` line. */
export const AI_STREAM_CUT_MESSAGE = 'The answer stopped before it was complete. Try again';

/**
 * Reads the NDJSON answer of `POST /api/ai/suggestions`: `onDelta` gets each piece of text as
 * it arrives; resolves with the `done` answer, rejects with an ApiError for an `error` line or a
 * stream that ends early.
 */
export async function readAiStream(
  stream: ReadableStream<Uint8Array>,
  onDelta: (text: string) => void,
): Promise<AiSuggestionsAnswer> {
  const path = API.ai.suggestions;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { done, value } = await reader.read();
    pending += decoder.decode(value, { stream: !done });
    const lines = pending.split('\n');
    pending = done ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (line.trim() === '') continue;
      const parsed = AiStreamEventSchema.safeParse(JSON.parse(line));
      if (!parsed.success) continue;
      const event = parsed.data;
      if (event.event === 'delta') onDelta(event.text);
      else if (event.event === 'done') {
        await reader.cancel();
        return event.answer;
      } else throw new ApiError({ status: 200, path, code: event.code, message: event.message });
    }
    if (done) throw new ApiError({ status: 200, path, message: AI_STREAM_CUT_MESSAGE });
  }
}

/**
 * Asks for suggestions, streamed: errors (a status before the stream, or an error line within
 * it) reject with an ApiError whose message the helper shows; `signal` stops the request.
 */
export async function streamAiSuggestions(
  body: AiSuggestionsBodyInput,
  onDelta: (text: string) => void,
  signal?: AbortSignal,
  client: HttpClient = http,
): Promise<AiSuggestionsAnswer> {
  const stream = await client.postStream(API.ai.suggestions, body, signal);
  return readAiStream(stream, onDelta);
}
