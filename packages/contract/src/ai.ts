import { z } from 'zod';

/**
 * The AI helper (spec sections 2, 5, 7 and 9): headline and description ideas from an
 * OpenAI-compatible Chat Completions endpoint.
 */

/** The tool a user of the AI helper's email domain has (`PublicUser.tools`). */
export const AI_HELPER_TOOL = 'ai-helper';

/** The settings that turn the AI helper on (README, "Settings"). */
export const AI_SETTINGS = ['AI_BASE_URL', 'AI_API_KEY', 'AI_MODEL'] as const;

/** Spec section 7: what the helper suggests. */
export const AI_SUGGESTION_TYPES = ['headlines', 'descriptions'] as const;
/** Headlines or descriptions. */
export type AiSuggestionType = (typeof AI_SUGGESTION_TYPES)[number];

/** Spec section 9: how many suggestions one request may ask for, per type (default 3). */
export const AI_SUGGESTION_COUNTS: Readonly<
  Record<AiSuggestionType, { min: number; max: number }>
> = { headlines: { min: 3, max: 10 }, descriptions: { min: 3, max: 5 } };
/** Spec section 9: the default number of suggestions. */
export const AI_SUGGESTIONS_DEFAULT = 3;
/** Spec section 9: the default creativity (0 to 1, step 0.01). */
export const AI_CREATIVITY_DEFAULT = 0.7;

/** Spec section 9: the optional prompt settings, in the panel's order. */
export const AI_PROMPT_SETTINGS = [
  'USPs',
  'Brand values',
  'Similar brands',
  'Audiences',
  'Promos',
  'Publication',
  'Language',
] as const;

/** Longest description a person may send. */
export const AI_DESCRIPTION_MAX_CHARS = 5000;
/** Longest joined values text of one prompt setting. */
export const AI_PARAM_VALUES_MAX_CHARS = 2000;

/**
 * The line the helper writes above the suggestions it appends to the description (spec section
 * 5: a description still holding it is refused, 'Have you remembered to delete your previous
 * suggestions?').
 */
export const AI_SUGGESTIONS_MARKER = '--- Suggestions (delete before asking again) ---';

/** `POST /api/ai/suggestions` body (spec section 7). */
export const AiSuggestionsBodySchema = z
  .object({
    type: z.enum(AI_SUGGESTION_TYPES),
    description: z.string().max(AI_DESCRIPTION_MAX_CHARS),
    params: z
      .array(
        z.object({
          promptTitle: z.string().trim().min(1).max(100),
          values: z.string().max(AI_PARAM_VALUES_MAX_CHARS),
        }),
      )
      .max(20)
      .default([]),
    suggestionsToReturn: z.number().int().default(AI_SUGGESTIONS_DEFAULT),
    creativity: z.number().min(0).max(1).default(AI_CREATIVITY_DEFAULT),
  })
  .superRefine((body, ctx) => {
    if (body.description.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['description'], message: AI_MESSAGES.noDescription });
    } else if (body.description.includes(AI_SUGGESTIONS_MARKER)) {
      ctx.addIssue({ code: 'custom', path: ['description'], message: AI_MESSAGES.deletePrevious });
    }
    const { min, max } = AI_SUGGESTION_COUNTS[body.type];
    if (body.suggestionsToReturn < min || body.suggestionsToReturn > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['suggestionsToReturn'],
        message: `Ask for ${min} to ${max} ${body.type}`,
      });
    }
  });
/** `POST /api/ai/suggestions` body, as sent. */
export type AiSuggestionsBodyInput = z.input<typeof AiSuggestionsBodySchema>;

/** One suggestion, counted with the editors' rules (double-width characters count 2). */
export const AiSuggestionSchema = z.object({
  text: z.string(),
  /** Its length as Google counts it. */
  length: z.number().int(),
  /** The limit of its type: 30 for a headline, 90 for a description. */
  limit: z.number().int(),
  /** Why Google would refuse it (too long, an editorial rule), or absent when it fits. */
  problem: z.string().optional(),
});
/** One suggestion. */
export type AiSuggestion = z.infer<typeof AiSuggestionSchema>;

/**
 * `POST /api/ai/suggestions` answer (spec section 7: text and tokens): `text` is what is appended
 * to the description (the marker line, then one suggestion a line), `tokens` the total the model
 * reported. Sent as the last event of the stream (below) or, with `accept: application/json`,
 * as the whole answer.
 */
export const AiSuggestionsAnswerSchema = z.object({
  text: z.string(),
  tokens: z.number().int(),
  suggestions: z.array(AiSuggestionSchema),
});
/** `POST /api/ai/suggestions` answer. */
export type AiSuggestionsAnswer = z.infer<typeof AiSuggestionsAnswerSchema>;

/**
 * The streamed answer (`content-type: application/x-ndjson`, one JSON object a line): `delta`
 * events carry text as the model writes it, then one `done` (the whole answer) or one `error`
 * (the error shape's code and message; the status is already 200 once streaming began).
 */
export const AiStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('delta'), text: z.string() }),
  z.object({ event: z.literal('done'), answer: AiSuggestionsAnswerSchema }),
  z.object({ event: z.literal('error'), code: z.string(), message: z.string() }),
]);
/** One line of the streamed answer. */
export type AiStreamEvent = z.infer<typeof AiStreamEventSchema>;

// ---- Messages (spec sections 5 and 7 where they have them) ----

export const AI_MESSAGES = {
  /** Spec section 5. */
  noDescription: 'Please enter a description',
  /** Spec section 5. */
  deletePrevious: 'Have you remembered to delete your previous suggestions?',
  /** Spec section 7: the notice once the answer is complete. */
  tokens: (n: number) => `Response generated with ${n} tokens.`,
  /** 501 `not_configured`. */
  notConfigured:
    'The AI helper is not set up on this server: an administrator sets AI_BASE_URL, AI_API_KEY and AI_MODEL (see the README, "Settings").',
  /** 429 `ai_rate_limited`: the model's service refused for now. */
  modelBusy: 'The AI model is busy (rate limit reached). Wait a minute and try again',
  /** 502 `ai_unavailable`: the model's service failed or was too slow. */
  modelFailed: "The AI model didn't answer in time or failed. Try again in a moment",
  /** 422 `ai_refused`: the model declined to answer. */
  refused: 'The AI model declined this request. Rephrase the description and try again',
} as const;
