/**
 * A stand-in for an OpenAI-compatible Chat Completions endpoint on loopback, used by the server
 * tests and the browser journeys. It speaks what the server's AI client speaks:
 * `POST /v1/chat/completions` with a bearer key, answered whole (JSON) or streamed as
 * server-sent events (`data: {chunk}` lines, then `data: [DONE]`), the usage on a last chunk
 * whose `choices` is empty only when `stream_options.include_usage` is asked for, and errors in
 * OpenAI's shape (`{ error: { message, type, code } }`), also inside a stream once it began.
 * Every request is recorded (tests read `requests`; a journey reads `GET /stand-in/requests`).
 *
 * Run alone (prints the AI_* settings that point the server at it as one JSON line):
 *   node --import tsx apps/server/test/ai-stand-in.ts [--chunk-delay-ms 40]
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The key the stand-in accepts (any other bearer is 401, as OpenAI answers). */
export const STAND_IN_API_KEY = 'sk-stand-in-0123456789abcdefghijklmnopqrstuvwxyz';
/** The model the stand-in serves (any other is 404). */
export const STAND_IN_MODEL = 'stand-in-model';
/** What the stand-in writes when no answer was scheduled: three headlines, one a line. */
export const STAND_IN_DEFAULT_TEXT =
  'Handmade Leather Shoes\nFree Shipping On All Orders\nShoes Built To Last For Years';
/** Tokens the stand-in reports for its prompt (any prompt). */
export const STAND_IN_PROMPT_TOKENS = 42;

/**
 * One scheduled answer:
 * - `text`: the model writes it (streamed in pieces of `chunkChars` characters), optionally
 *   ending with a finish reason other than 'stop';
 * - `status`: an error answer (429 with Retry-After, 500...) before any byte of an answer;
 * - `failAfterChunks`: the stream begins with `chunks` pieces of `text`, then an error event of
 *   `status`'s kind (`rate_limit_exceeded` for 429, `server_error` otherwise);
 * - `stallAfterChunks`: the stream begins with `chunks` pieces, then sends nothing more (a slow
 *   model; `chunks: 0` holds back even the headers);
 * - `refusal`: the model declines, in `message.refusal` / `delta.refusal`.
 */
export type StandInAnswer =
  | { kind: 'text'; text: string; finishReason?: 'stop' | 'length' | 'content_filter' }
  | { kind: 'status'; status: number }
  | { kind: 'failAfterChunks'; text: string; chunks: number; status: number }
  | { kind: 'stallAfterChunks'; text: string; chunks: number }
  | { kind: 'refusal'; refusal: string };

/** A request the stand-in received. */
export interface AiStandInRequest {
  path: string;
  authorization: string | undefined;
  /** The parsed JSON body (model, messages, temperature, stream...). */
  body: Record<string, unknown>;
}

/** Options of `startAiStandIn`. */
export interface AiStandInOptions {
  /** Characters per streamed piece (default 8). */
  chunkChars?: number;
  /** Pause between streamed pieces (default 0), so a person can watch the text arrive. */
  chunkDelayMs?: number;
}

/** The server settings that point Adloom at the stand-in. */
export interface AiStandInSettings {
  AI_BASE_URL: string;
  AI_API_KEY: string;
  AI_MODEL: string;
}

/** A running stand-in. */
export interface AiStandIn {
  url: string;
  settings: AiStandInSettings;
  /** Every chat completion request, oldest first. */
  requests: AiStandInRequest[];
  /** The next requests get these answers, in order; then the default text again. */
  answerNext(...answers: StandInAnswer[]): void;
  /** Connections held open by a stalled answer (closed when the client gives up). */
  openStalls(): number;
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, { type: string; code: string; message: string }> = {
  400: { type: 'invalid_request_error', code: 'invalid_request', message: 'Bad request.' },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided.',
  },
  404: {
    type: 'invalid_request_error',
    code: 'model_not_found',
    message: 'The model does not exist.',
  },
  429: {
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached for requests. Please try again in 20s.',
  },
};
const SERVER_ERROR = {
  type: 'server_error',
  code: 'server_error',
  message: 'The server had an error while processing your request.',
};

function errorBody(status: number) {
  return { error: { ...(ERROR_TYPES[status] ?? SERVER_ERROR), param: null } };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Splits text into pieces of `size` characters (code points, so no surrogate is split). */
function pieces(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the stand-in on a free loopback port. */
export async function startAiStandIn(options: AiStandInOptions = {}): Promise<AiStandIn> {
  const chunkChars = options.chunkChars ?? 8;
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  const requests: AiStandInRequest[] = [];
  const scheduled: StandInAnswer[] = [];
  const stalls = new Set<ServerResponse>();
  let completionCount = 0;

  function usage(text: string) {
    const completion = Math.max(1, Math.ceil(text.length / 4));
    return {
      prompt_tokens: STAND_IN_PROMPT_TOKENS,
      completion_tokens: completion,
      total_tokens: STAND_IN_PROMPT_TOKENS + completion,
    };
  }

  async function complete(body: Record<string, unknown>, response: ServerResponse) {
    completionCount += 1;
    const id = `chatcmpl-standin-${completionCount}`;
    const created = Math.floor(Date.now() / 1000);
    const model = STAND_IN_MODEL;
    const answer: StandInAnswer = scheduled.shift() ?? {
      kind: 'text',
      text: STAND_IN_DEFAULT_TEXT,
    };
    if (answer.kind === 'status') {
      // OpenAI's client retries these; a short wait keeps the tests quick.
      response.setHeader('retry-after-ms', '10');
      sendJson(response, answer.status, errorBody(answer.status));
      return;
    }
    const text = answer.kind === 'refusal' ? '' : answer.text;
    const finishReason = (answer.kind === 'text' && answer.finishReason) || 'stop';

    if (body.stream !== true) {
      if (answer.kind === 'stallAfterChunks') {
        stalls.add(response);
        response.on('close', () => stalls.delete(response));
        return;
      }
      if (answer.kind === 'failAfterChunks') {
        sendJson(response, answer.status, errorBody(answer.status));
        return;
      }
      sendJson(response, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: answer.kind === 'refusal' ? null : text,
              refusal: answer.kind === 'refusal' ? answer.refusal : null,
            },
            finish_reason: finishReason,
            logprobs: null,
          },
        ],
        usage: usage(text),
      });
      return;
    }

    if (answer.kind === 'stallAfterChunks' && answer.chunks === 0) {
      stalls.add(response);
      response.on('close', () => stalls.delete(response));
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
    const write = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      write({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      });
    chunk({ role: 'assistant', content: '' });
    if (answer.kind === 'refusal') {
      for (const piece of pieces(answer.refusal, chunkChars)) chunk({ refusal: piece });
    } else {
      const all = pieces(text, chunkChars);
      const limit =
        answer.kind === 'failAfterChunks' || answer.kind === 'stallAfterChunks'
          ? answer.chunks
          : all.length;
      for (const piece of all.slice(0, limit)) {
        if (response.destroyed) return;
        chunk({ content: piece });
        if (chunkDelayMs > 0) await sleep(chunkDelayMs);
      }
      if (answer.kind === 'failAfterChunks') {
        write(errorBody(answer.status));
        response.end();
        return;
      }
      if (answer.kind === 'stallAfterChunks') {
        stalls.add(response);
        response.on('close', () => stalls.delete(response));
        return;
      }
    }
    chunk({}, finishReason);
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage === true) {
      write({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [],
        usage: usage(text),
      });
    }
    response.write('data: [DONE]\n\n');
    response.end();
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.method === 'GET' && path === '/stand-in/requests') {
      sendJson(response, 200, requests);
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(response, 404, errorBody(404));
      return;
    }
    const text = await readBody(request);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      sendJson(response, 400, errorBody(400));
      return;
    }
    requests.push({ path, authorization: request.headers.authorization, body });
    if (request.headers.authorization !== `Bearer ${STAND_IN_API_KEY}`) {
      sendJson(response, 401, errorBody(401));
      return;
    }
    if (body.model !== STAND_IN_MODEL || !Array.isArray(body.messages)) {
      sendJson(response, 404, errorBody(404));
      return;
    }
    await complete(body, response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, errorBody(500));
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    settings: { AI_BASE_URL: `${url}/v1`, AI_API_KEY: STAND_IN_API_KEY, AI_MODEL: STAND_IN_MODEL },
    requests,
    answerNext(...answers) {
      scheduled.push(...answers);
    },
    openStalls: () => stalls.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'chunk-delay-ms': { type: 'string' } } });
  const delay = values['chunk-delay-ms'];
  const standIn = await startAiStandIn(delay === undefined ? {} : { chunkDelayMs: Number(delay) });
  console.log(JSON.stringify({ settings: standIn.settings }));
}
