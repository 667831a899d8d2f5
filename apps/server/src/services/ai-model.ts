/**
 * The AI helper's model: any OpenAI-compatible Chat Completions endpoint, through `openai`
 * (STACK.md), always streamed with the usage asked for on the last chunk. The whole answer has
 * AI_TIMEOUT_SECONDS: the client's own timeout only covers the wait for the first byte, and its
 * retry honours any Retry-After, so every wait here also ends at the deadline or when the
 * person hangs up. Failures become the contract's codes (ai_rate_limited, ai_unavailable,
 * ai_refused) with messages a person can read; the key stays in this client, out of every
 * answer and log line (the client's own logging is off; ours names the status and code only).
 */
import OpenAI, { APIError } from 'openai';
import type { FastifyBaseLogger } from 'fastify';
import { AI_MESSAGES } from '@adloom/contract';
import type { AiConfig, AiModelConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import type { AiSuggestionRequest } from './ai-suggestions.ts';

/** A streamed answer: yields the text as the model writes it, returns the total tokens (0 if none reported). */
export type AiTextStream = AsyncGenerator<string, number, void>;

/** The model of one server. */
export interface AiModel {
  /** Streams the model's answer; ends early (and aborts the model's request) when `signal` aborts. */
  streamText(
    request: AiSuggestionRequest,
    options: { signal: AbortSignal; log: FastifyBaseLogger },
  ): AiTextStream;
}

/** Answer (nobody reads it) when the person hung up before the model's answer was complete. */
const AI_HUNG_UP_MESSAGE = 'The client closed the connection before the answer was complete.';

/** Retries of a request that failed before its answer began (429, 5xx, connection). */
export const AI_MAX_RETRIES = 1;

/** Rejects as soon as `signal` aborts, whatever `promise` is still waiting for. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The OpenAI error body's code or type (rate_limit_exceeded, content_filter...). */
function errorCodes(error: APIError): string[] {
  const body = error.error as { code?: unknown; type?: unknown } | undefined;
  return [error.code, error.type, body?.code, body?.type].filter(
    (value): value is string => typeof value === 'string',
  );
}

/** The contract's error for a failure of the model's service. */
export function toAiError(error: unknown, hasTimedOut: boolean): AppError {
  if (error instanceof AppError) return error;
  if (!hasTimedOut && error instanceof APIError) {
    const codes = errorCodes(error);
    if (error.status === 429 || codes.some((code) => /rate_limit/.test(code)))
      return new AppError('ai_rate_limited', AI_MESSAGES.modelBusy);
    if (codes.includes('content_filter')) return new AppError('ai_refused', AI_MESSAGES.refused);
  }
  return new AppError('ai_unavailable', AI_MESSAGES.modelFailed);
}

/** What the log keeps of a model failure: its kind, status and code, never its message or headers. */
function describeFailure(error: unknown, hasTimedOut: boolean) {
  if (hasTimedOut) return { reason: 'timeout' };
  if (error instanceof APIError)
    return { reason: error.name, status: error.status, codes: errorCodes(error) };
  return { reason: error instanceof Error ? error.name : typeof error };
}

/** The model client of a configured server. */
export function createAiModel(
  model: AiModelConfig,
  settings: Pick<AiConfig, 'timeoutMs' | 'maxTokens'>,
): AiModel {
  const client = new OpenAI({
    baseURL: model.baseUrl,
    apiKey: model.apiKey,
    // Never the OPENAI_* variables of the environment: only what the AI_* settings say.
    organization: null,
    project: null,
    timeout: settings.timeoutMs,
    maxRetries: AI_MAX_RETRIES,
    logLevel: 'off',
  });

  return {
    async *streamText(request, { signal: hangUp, log }) {
      const deadline = AbortSignal.timeout(settings.timeoutMs);
      const stop = new AbortController();
      const signal = AbortSignal.any([hangUp, deadline, stop.signal]);
      const startedAt = Date.now();
      try {
        const stream = await untilAborted(
          client.chat.completions.create(
            {
              model: model.model,
              messages: request.messages,
              temperature: request.temperature,
              max_tokens: settings.maxTokens,
              stream: true,
              stream_options: { include_usage: true },
            },
            { signal },
          ),
          signal,
        );
        const chunks = stream[Symbol.asyncIterator]();
        let tokens = 0;
        let finishReason: string | undefined;
        for (;;) {
          const next = await untilAborted(chunks.next(), signal);
          if (next.done) break;
          const chunk = next.value;
          if (chunk.usage) tokens = chunk.usage.total_tokens;
          const choice = chunk.choices[0];
          if (!choice) continue;
          if (choice.delta.refusal || choice.finish_reason === 'content_filter')
            throw new AppError('ai_refused', AI_MESSAGES.refused);
          if (choice.finish_reason) finishReason = choice.finish_reason;
          if (choice.delta.content) yield choice.delta.content;
        }
        // The client ends a stream quietly when it is aborted: that is a time-out or a hang-up.
        if (signal.aborted) throw signal.reason;
        // A stream cut off before the model said why it stopped is not a whole answer.
        if (finishReason === undefined)
          throw new AppError('ai_unavailable', AI_MESSAGES.modelFailed);
        log.info({ tokens, finishReason, durationMs: Date.now() - startedAt }, 'ai model answered');
        return tokens;
      } catch (error) {
        if (hangUp.aborted && !deadline.aborted)
          throw new AppError('bad_request', AI_HUNG_UP_MESSAGE);
        const appError = toAiError(error, deadline.aborted);
        log.warn(
          { code: appError.code, ...describeFailure(error, deadline.aborted) },
          'ai model failed',
        );
        throw appError;
      } finally {
        // The consumer stopped early (the person hung up) or the answer is over: end the request.
        stop.abort();
      }
    },
  };
}
