import type { ZodType } from 'zod';
import { createStore, type Store } from '../state/store.ts';
import { ApiError, NO_RESPONSE_MESSAGE, toApiError } from './errors.ts';

/** Spec section 9: the loading indicator appears only for requests running longer than this. */
export const LOADING_DELAY_MS = 500;
/** Spec section 9: a request running longer than this raises a warning (it is not aborted). */
export const SLOW_REQUEST_WARNING_MS = 15_000;

/**
 * The 429 codes of a server that is busy rather than refusing: an account's other large save
 * still running, the server's most large saves at once, every database connection in use. A
 * call answered so is sent again after the answer's Retry-After, at most BUSY_RETRIES times.
 */
export const BUSY_CODES: ReadonlySet<string> = new Set(['save_in_progress', 'server_busy']);
/** How many times a call answered busy is sent again before its 429 is shown. */
export const BUSY_RETRIES = 5;
/** Wait before sending again when the answer names none (Retry-After missing or unreadable). */
export const BUSY_DEFAULT_WAIT_MS = 2000;
/** The longest wait a Retry-After may ask for (a larger one is cut to this). */
export const BUSY_MAX_WAIT_MS = 30_000;

/** The wait a busy answer asks for: Retry-After in seconds, within 0 and BUSY_MAX_WAIT_MS. */
export function busyWaitMs(response: Response): number {
  const raw = response.headers.get('retry-after')?.trim() ?? '';
  const seconds = Number(raw);
  if (raw === '' || !Number.isFinite(seconds) || seconds < 0) return BUSY_DEFAULT_WAIT_MS;
  return Math.min(seconds * 1000, BUSY_MAX_WAIT_MS);
}

/** Timer functions, injectable for tests. */
export interface HttpTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: HttpTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One call. */
export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** A body sent as it is (not JSON), with its content type (a gzip'd build record). */
  rawBody?: { data: Blob | Uint8Array<ArrayBuffer>; contentType: string };
  /** More request headers (the build's `adloom-build` description). */
  headers?: Record<string, string>;
  /** Validates the answer; a mismatch fails the call. */
  schema?: ZodType<T>;
  /** Skip the loading indicator (the spec exempts sheet downloads). */
  isLoadingExempt?: boolean;
  /**
   * 'generic' (default): failures also go through the generic handler of spec section 8.
   * 'caller': the caller shows its own message and may call the handler itself.
   */
  errors?: 'generic' | 'caller';
  /** Send no token even when signed in. */
  isAnonymous?: boolean;
  /** Sign with this token instead of the session's (Log Out ends a session already cleared here). */
  token?: string;
  /** Let the request finish when the page goes away (fetch `keepalive`). */
  keepalive?: boolean;
  signal?: AbortSignal;
}

/** What the client needs from the app. */
export interface HttpClientDeps {
  fetch?: typeof fetch;
  baseUrl?: string;
  getToken(): string | null;
  timers?: HttpTimers;
  /** Called once per request that runs past 15 s. */
  onSlowRequest(path: string): void;
  /** The generic handler, for calls that leave errors to it. */
  onError(error: ApiError): void;
}

/** The typed HTTP client. */
export interface HttpClient {
  request<T = unknown>(path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>): Promise<T>;
  post<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions<T>, 'method' | 'body'>,
  ): Promise<T>;
  /**
   * A streamed POST: the token header as every call, the answer's body handed over once the
   * status is 2xx (a failure status is read and thrown as an ApiError; the caller shows it).
   * No loading indicator; the 15 s warning only while no answer has begun (a stream that is
   * sending is not slow).
   */
  postStream(
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>>;
  /**
   * A GET whose answer is a file: the token header, the loading indicator and the 15 s warning as
   * every call; the body as a Blob once the status is 2xx (a failure is thrown as an ApiError and
   * also goes through the generic handler unless `errors` is 'caller').
   */
  getBlob(path: string, options?: Pick<RequestOptions<Blob>, 'errors' | 'signal'>): Promise<Blob>;
  /** True while some request has been running longer than 500 ms (appIsLoading). */
  readonly isLoading: Store<boolean>;
}

/** An answer's body: its JSON, else its first 200 characters as `{ message }`; undefined when empty. */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200) };
  }
}

/**
 * What a request that never reached the server says: the browser's own words differ by browser
 * and mean nothing to a person ('Failed to fetch', 'Load failed', 'NetworkError when attempting
 * to fetch resource.'); callers may put it after their own ('Unable to save templates: …').
 */
export const NETWORK_FAILURE_MESSAGE = NO_RESPONSE_MESSAGE;

/** True for a 429 whose code says the server is busy (BUSY_CODES). */
function isBusy(response: Response, body: unknown): boolean {
  if (response.status !== 429) return false;
  const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

/** Creates the HTTP client: token header, loading indicator, slow warning, error mapping. */
export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const timers = deps.timers ?? realTimers;
  const doFetch =
    deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const isLoading = createStore(false);
  let slowCount = 0;

  async function request<T>(
    path: string,
    options: RequestOptions<T> = {},
    asBlob = false,
  ): Promise<T> {
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const method = options.method ?? (hasBody ? 'POST' : 'GET');
    const headers: Record<string, string> = {
      ...options.headers,
      accept: asBlob ? '*/*' : 'application/json',
    };
    const token = options.isAnonymous ? null : (options.token ?? deps.getToken());
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.rawBody) headers['content-type'] = options.rawBody.contentType;
    else if (options.body !== undefined) headers['content-type'] = 'application/json';
    const requestBody = options.rawBody
      ? options.rawBody.data
      : options.body === undefined
        ? undefined
        : JSON.stringify(options.body);

    let isCountedAsLoading = false;
    const loadingTimer = options.isLoadingExempt
      ? undefined
      : timers.setTimeout(() => {
          isCountedAsLoading = true;
          slowCount += 1;
          isLoading.set(true);
        }, LOADING_DELAY_MS);
    const warningTimer = timers.setTimeout(() => deps.onSlowRequest(path), SLOW_REQUEST_WARNING_MS);

    const send = async (): Promise<Response> => {
      try {
        return await doFetch(`${deps.baseUrl ?? ''}${path}`, {
          method,
          headers,
          body: requestBody,
          signal: options.signal,
          ...(options.keepalive ? { keepalive: true } : {}),
        });
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        throw new ApiError({
          status: 0,
          path,
          message: NETWORK_FAILURE_MESSAGE,
        });
      }
    };

    try {
      let response = await send();
      if (asBlob && response.ok) return (await response.blob()) as T;
      let body = await readBody(response);
      // Busy is not refused: the same call again, once the server said it may be.
      for (let retry = 0; retry < BUSY_RETRIES && isBusy(response, body); retry += 1) {
        await wait(busyWaitMs(response), options.signal);
        response = await send();
        if (asBlob && response.ok) return (await response.blob()) as T;
        body = await readBody(response);
      }
      if (!response.ok) throw toApiError(response.status, body, path);
      if (!options.schema) return body as T;
      const parsed = options.schema.safeParse(body);
      if (!parsed.success) {
        throw new ApiError({
          status: response.status,
          path,
          code: 'bad_response',
          message: 'The server sent an answer this app does not understand',
        });
      }
      return parsed.data;
    } catch (error) {
      if (error instanceof ApiError && (options.errors ?? 'generic') === 'generic')
        deps.onError(error);
      throw error;
    } finally {
      if (loadingTimer !== undefined) timers.clearTimeout(loadingTimer);
      timers.clearTimeout(warningTimer);
      if (isCountedAsLoading) {
        slowCount -= 1;
        if (slowCount === 0) isLoading.set(false);
      }
    }
  }

  function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const handle = timers.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      function onAbort() {
        timers.clearTimeout(handle);
        reject(signal?.reason);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function postStream(
    path: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<ReadableStream<Uint8Array>> {
    const headers: Record<string, string> = {
      accept: 'application/x-ndjson',
      'content-type': 'application/json',
    };
    const token = deps.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const warningTimer = timers.setTimeout(() => deps.onSlowRequest(path), SLOW_REQUEST_WARNING_MS);
    let response: Response;
    try {
      response = await doFetch(`${deps.baseUrl ?? ''}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal,
      });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      throw new ApiError({
        status: 0,
        path,
        message: NETWORK_FAILURE_MESSAGE,
      });
    } finally {
      timers.clearTimeout(warningTimer);
    }
    if (!response.ok || !response.body) {
      throw toApiError(response.status, await readBody(response), path);
    }
    return response.body;
  }

  return {
    request,
    postStream,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    getBlob: (path, options) => request<Blob>(path, { ...options, method: 'GET' }, true),
    post: (path, body, options) => request(path, { ...options, method: 'POST', body: body ?? {} }),
    isLoading,
  };
}
