/**
 * The AI helper's words around the model (issue 18), pure: who gets the helper, the prompt
 * sent to the model, and the suggestions read back from its text, each counted with the ad
 * editors' rules (double-width characters count 2, Google's editorial checks).
 */
import {
  AI_HELPER_TOOL,
  AI_SUGGESTIONS_MARKER,
  type AiSuggestion,
  type AiSuggestionType,
  type AiSuggestionsAnswer,
  type AiSuggestionsBodySchema,
} from '@adloom/contract';
import {
  RSA_DESCRIPTION_MAX_CHARS,
  RSA_HEADLINE_MAX_CHARS,
  countAdTextLength,
  findEditorialProblems,
} from '@adloom/engine';
import type { z } from 'zod';

/** `POST /api/ai/suggestions` body, validated. */
export type AiSuggestionsBody = z.output<typeof AiSuggestionsBodySchema>;

/** 403 for a user outside AI_HELPER_EMAIL_DOMAIN. */
export const AI_FORBIDDEN_MESSAGE = 'The AI helper is not available for this account.';

/**
 * The model's temperature at creativity 1: OpenAI's scale runs to 2, but past about 1.4 the
 * text stops reading as ad copy. The default creativity 0.7 is then about 1, OpenAI's default.
 */
export const AI_TEMPERATURE_MAX = 1.4;

/** One message of a Chat Completions request. */
export interface AiChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** What the model is asked: the messages and the temperature. */
export interface AiSuggestionRequest {
  messages: AiChatMessage[];
  temperature: number;
}

/** Whether `email` ends with `@<domain>` (case-insensitive); no domain set: nobody. */
export function hasAiHelper(email: string, domain: string | undefined): boolean {
  return domain !== undefined && email.toLowerCase().endsWith(`@${domain}`);
}

/** The tools of the AI helper this user gets (`PublicUser.tools`). */
export function findAiTools(email: string, domain: string | undefined): string[] {
  return hasAiHelper(email, domain) ? [AI_HELPER_TOOL] : [];
}

/** Google's limit for one suggestion of `type`. */
export function suggestionLimit(type: AiSuggestionType): number {
  return type === 'headlines' ? RSA_HEADLINE_MAX_CHARS : RSA_DESCRIPTION_MAX_CHARS;
}

/** The model's temperature for a creativity of 0 to 1. */
export function temperatureFor(creativity: number): number {
  return Math.round(creativity * AI_TEMPERATURE_MAX * 100) / 100;
}

/** The Language setting's value, when the person gave one. */
function findLanguage(body: AiSuggestionsBody): string | undefined {
  const param = body.params.find(
    (p) => p.promptTitle.trim().toLowerCase() === 'language' && p.values.trim() !== '',
  );
  return param?.values.trim();
}

/**
 * The Chat Completions messages for a request: a system message with Google's rules for the
 * type and count, and a user message with the description and each prompt setting that has
 * values, as "promptTitle: values".
 */
export function buildSuggestionRequest(body: AiSuggestionsBody): AiSuggestionRequest {
  const isHeadline = body.type === 'headlines';
  const noun = isHeadline ? 'headlines' : 'descriptions';
  const language = findLanguage(body);
  const system = [
    `You write Google Ads responsive search ad ${noun}.`,
    `Write exactly ${body.suggestionsToReturn} ${noun}, one per line, each different from the others.`,
    `Each is at most ${suggestionLimit(body.type)} characters, spaces included; Chinese, Japanese and Korean characters count as 2.`,
    `No numbering, no bullets, no quotes, no emoji, no words in capitals for emphasis, no repeated punctuation${isHeadline ? ', no "!"' : ', at most one "!"'}.`,
    'Write nothing else: no introduction, no headings, no explanations.',
    ...(language ? [`Write them in ${language}.`] : []),
  ].join('\n');
  const settings = body.params
    .filter((param) => param.values.trim() !== '')
    .map((param) => `${param.promptTitle.trim()}: ${param.values.trim()}`);
  const user = [body.description.trim(), ...(settings.length > 0 ? ['', ...settings] : [])].join(
    '\n',
  );
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    temperature: temperatureFor(body.creativity),
  };
}

/** "1. ", "2) ", "- ", "• ", "## " at the start of a line (not "24-hour" or "2.5 million"). */
const LINE_NUMBERING = /^(?:\d{1,2}\s*[.):]|[-*•·–—]|#+)(?:\s+|$)/;
const QUOTE_PAIRS: readonly (readonly [string, string])[] = [
  ['"', '"'],
  ["'", "'"],
  ['“', '”'],
  ['„', '“'],
  ['‘', '’'],
  ['«', '»'],
  ['「', '」'],
  ['**', '**'],
];

/** One line of the model's text as a suggestion: numbering, bullets and surrounding quotes removed. */
function cleanLine(line: string): string {
  let text = line.trim().replace(LINE_NUMBERING, '').trim();
  for (let changed = true; changed;) {
    changed = false;
    for (const [open, close] of QUOTE_PAIRS) {
      if (
        text.length > open.length + close.length &&
        text.startsWith(open) &&
        text.endsWith(close)
      ) {
        text = text.slice(open.length, -close.length).trim();
        changed = true;
      }
    }
  }
  return text;
}

/** The suggestions in the model's text: one a line, cleaned, empty lines left out. */
export function readSuggestionLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map(cleanLine)
    .filter((line) => line !== '');
}

/**
 * One suggestion counted as the editors count it, with why Google would refuse it (too long,
 * an editorial rule) or nothing when it fits.
 */
export function countSuggestion(text: string, type: AiSuggestionType): AiSuggestion {
  const length = countAdTextLength(text);
  const limit = suggestionLimit(type);
  const label = type === 'headlines' ? 'Headline' : 'Description';
  const problems = [
    ...(length > limit ? [`has ${length} characters (max ${limit})`] : []),
    ...findEditorialProblems(text, type === 'headlines').map((problem) => problem.message),
  ];
  return problems.length > 0
    ? { text, length, limit, problem: `${label} ${problems.join('; ')}` }
    : { text, length, limit };
}

/**
 * The answer for the model's whole text: the marker line then one suggestion a line (what the
 * panel appends to the description), the tokens, and every suggestion counted. Undefined when
 * the text holds no suggestion at all.
 */
export function presentSuggestions(
  modelText: string,
  tokens: number,
  type: AiSuggestionType,
): AiSuggestionsAnswer | undefined {
  const lines = readSuggestionLines(modelText);
  if (lines.length === 0) return undefined;
  return {
    text: [AI_SUGGESTIONS_MARKER, ...lines].join('\n'),
    tokens,
    suggestions: lines.map((line) => countSuggestion(line, type)),
  };
}
