import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AI_HELPER_TOOL,
  AI_MESSAGES,
  API,
  AiSuggestionsBodySchema,
  type AiStreamEvent,
  type AiSuggestionType,
  type AiSuggestionsAnswer,
} from '@adloom/contract';
import type { AppDeps } from '../../deps.ts';
import { authenticate, getUser } from '../../auth/session.ts';
import { AppError } from '../../errors.ts';
import { parseBody } from '../../http/validate.ts';
import { createAiModel, toAiError, type AiTextStream } from '../../services/ai-model.ts';
import { requireVerifiedAddress } from '../../services/email-verification.ts';
import {
  AI_FORBIDDEN_MESSAGE,
  buildSuggestionRequest,
  hasAiHelper,
  presentSuggestions,
} from '../../services/ai-suggestions.ts';

/** The streamed answer's content type: one AiStreamEvent a line. */
const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

/** The whole answer, or ai_unavailable when the model's text held no suggestion. */
function answerOf(text: string, tokens: number, type: AiSuggestionType): AiSuggestionsAnswer {
  const answer = presentSuggestions(text, tokens, type);
  if (!answer) throw new AppError('ai_unavailable', AI_MESSAGES.modelFailed);
  return answer;
}

/** Whether the caller asked for the whole answer at once (`accept: application/json`) rather than the stream. */
function wantsWholeAnswer(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('application/x-ndjson');
}

const eventLine = (event: AiStreamEvent) => `${JSON.stringify(event)}\n`;

/**
 * The stream's lines from the model's first piece on: a delta per piece, then done with the
 * counted answer, or an error event (the status is already 200) when the model fails midway.
 */
async function* streamEvents(
  first: IteratorYieldResult<string>,
  rest: AiTextStream,
  type: AiSuggestionType,
): AsyncGenerator<string> {
  let text = '';
  try {
    let step: IteratorResult<string, number> = first;
    while (!step.done) {
      text += step.value;
      yield eventLine({ event: 'delta', text: step.value });
      step = await rest.next();
    }
    yield eventLine({ event: 'done', answer: answerOf(text, step.value, type) });
  } catch (error) {
    const { code, message } = toAiError(error, false);
    yield eventLine({ event: 'error', code, message });
  }
}

/**
 * POST /api/ai/suggestions (auth, users of AI_HELPER_EMAIL_DOMAIN whose address is verified): headline or description
 * ideas from the configured model, streamed as NDJSON (or whole with `accept: application/json`).
 */
export default async function aiRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { ai } = deps.config;
  const model = ai.model ? createAiModel(ai.model, ai) : undefined;

  // Not compressed: a compressor holds the stream's small pieces back until it has enough.
  app.post(
    API.ai.suggestions,
    { onRequest: authenticate, compress: false },
    async (request, reply) => {
      const user = getUser(request);
      if (!hasAiHelper(user.email, ai.helperEmailDomain))
        throw new AppError('forbidden', AI_FORBIDDEN_MESSAGE);
      requireVerifiedAddress(user, AI_HELPER_TOOL);
      if (!model) throw new AppError('not_configured', AI_MESSAGES.notConfigured);
      const body = parseBody(AiSuggestionsBodySchema, request.body);
      await deps.limits.aiSuggestions.countAttempt(user.id);

      // The person hanging up ends the model's request too.
      const hangUp = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) hangUp.abort();
      });
      const pieces = model.streamText(buildSuggestionRequest(body), {
        signal: hangUp.signal,
        log: request.log,
      });

      if (wantsWholeAnswer(request)) {
        let text = '';
        let step = await pieces.next();
        for (; !step.done; step = await pieces.next()) text += step.value;
        return answerOf(text, step.value, body.type);
      }
      // Failures before the model's first words are plain error answers, with their status:
      // blank pieces are held back until words come (an answer of blanks is a failure too).
      let held = '';
      let step = await pieces.next();
      for (; !step.done && step.value.trim() === ''; step = await pieces.next()) held += step.value;
      if (step.done) throw new AppError('ai_unavailable', AI_MESSAGES.modelFailed);
      const first = { done: false as const, value: held + step.value };
      return reply
        .type(NDJSON_CONTENT_TYPE)
        .send(Readable.from(streamEvents(first, pieces, body.type)));
    },
  );
}
