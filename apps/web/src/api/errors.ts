import { ErrorBodySchema } from '@adloom/contract';

/** Spec section 8: the text for 401 answers. */
export const UNAUTHORIZED_MESSAGE = 'Unauthorized. Please log in to continue 🔒';
/** Spec section 8: the text for answers above 499. */
export const SERVER_PROBLEM_MESSAGE =
  'There seems to be a problem with the server. Please try again later 🛠️';
/** Spec section 8, with its spelling: the warning for a request running over 15 s. */
export const SLOW_REQUEST_MESSAGE =
  'Request is taking longer than expected. Server may be experienceing problems';
/** Shown when no answer arrives at all (network down, server stopped). */
export const NO_RESPONSE_MESSAGE =
  'Could not reach the server. Check your connection and try again';

/** A failed API call: the HTTP status (0 when no answer arrived) and what the server said. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  /** The error code of the contract's error shape, when the server sent one. */
  readonly code: string | undefined;
  /** Validation messages (`errors: [{ msg }]`), one per problem. */
  readonly fieldErrors: string[];
  /** The field each of fieldErrors names (`errors: [{ msg, path }]`), undefined when none. */
  readonly fieldPaths: (string | undefined)[];
  /** `type` of `{ type, message }` answers, when present. */
  readonly type: string | undefined;
  /** `error.details` of the contract's error shape, when the server sent any. */
  readonly details: unknown;
  readonly path: string;

  constructor(options: {
    status: number;
    message: string;
    path: string;
    code?: string;
    fieldErrors?: string[];
    fieldPaths?: (string | undefined)[];
    type?: string;
    details?: unknown;
  }) {
    super(options.message);
    this.status = options.status;
    this.code = options.code;
    this.fieldErrors = options.fieldErrors ?? [];
    this.fieldPaths = options.fieldPaths ?? [];
    this.type = options.type;
    this.details = options.details;
    this.path = options.path;
  }

  /** True when the server answered (any status). */
  get hasResponse(): boolean {
    return this.status > 0;
  }
}

/** Builds an ApiError from a status and a parsed (or unparseable) body. */
export function toApiError(status: number, body: unknown, path: string): ApiError {
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { error, errors, type, message } = parsed.data;
    return new ApiError({
      status,
      path,
      code: error.code,
      message: message ?? error.message,
      fieldErrors: errors?.map((e) => e.msg) ?? [],
      fieldPaths: errors?.map((e) => e.path) ?? [],
      type,
      details: error.details,
    });
  }
  const loose = (body ?? {}) as { message?: unknown; type?: unknown; errors?: unknown };
  const fieldErrors = Array.isArray(loose.errors)
    ? loose.errors
        .map((e: { msg?: unknown }) => (typeof e?.msg === 'string' ? e.msg : ''))
        .filter(Boolean)
    : [];
  return new ApiError({
    status,
    path,
    message:
      typeof loose.message === 'string' && loose.message
        ? loose.message
        : `Request failed with status ${status}`,
    fieldErrors,
    type: typeof loose.type === 'string' ? loose.type : undefined,
  });
}

/** The HTTP status of a failed call's answer, or undefined when none came (or not a call). */
export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError && error.status > 0 ? error.status : undefined;
}

/** What the generic handler does with a failed call. */
export type ErrorOutcome =
  | { kind: 'redirect'; to: '/service-down?service=mongo' | '/service-down?service=server' }
  | { kind: 'notify'; message: string; signOut: boolean; status?: number };

/**
 * Spec section 8, the generic handler: 503 goes to /service-down?service=mongo, 500 to
 * /service-down?service=server; other statuses above 499 show the server-problem text, 401
 * the unauthorized text (and ends a session the server no longer accepts), anything else the
 * supplied message.
 */
export function decideErrorOutcome(error: ApiError, fallbackMessage?: string): ErrorOutcome {
  const status = error.status;
  if (status === 503) return { kind: 'redirect', to: '/service-down?service=mongo' };
  if (status === 500) return { kind: 'redirect', to: '/service-down?service=server' };
  if (status > 499)
    return { kind: 'notify', message: SERVER_PROBLEM_MESSAGE, signOut: false, status };
  if (status === 401)
    return {
      kind: 'notify',
      message: UNAUTHORIZED_MESSAGE,
      signOut: error.code === 'unauthorized',
      status,
    };
  // No answer came: plain words, and no status to show.
  if (status === 0)
    return { kind: 'notify', message: fallbackMessage ?? NO_RESPONSE_MESSAGE, signOut: false };
  return { kind: 'notify', message: fallbackMessage ?? error.message, signOut: false, status };
}

/** What the generic handler needs from the app. */
export interface ErrorHandlerDeps {
  /** Shows an error toast with the HTTP status of the answer (none when no answer came). */
  notifyError(message: string, status?: number): void;
  navigate(to: string): void;
  track(event: { name: string; message: string; status: number; path: string }): void;
  /** Ends the session after the server rejected the token. */
  signOut(): void;
}

/** Creates the generic handler: logs the analytics event, then redirects or shows a toast. */
export function createErrorHandler(deps: ErrorHandlerDeps) {
  return function handleError(error: unknown, fallbackMessage?: string): void {
    const apiError =
      error instanceof ApiError
        ? error
        : new ApiError({
            status: 0,
            path: '',
            message: error instanceof Error ? error.message : String(error),
          });
    deps.track({
      name: 'error',
      message: fallbackMessage ?? apiError.message,
      status: apiError.status,
      path: apiError.path,
    });
    const outcome = decideErrorOutcome(apiError, fallbackMessage);
    if (outcome.kind === 'redirect') {
      deps.navigate(outcome.to);
      return;
    }
    deps.notifyError(outcome.message, outcome.status);
    if (outcome.signOut) deps.signOut();
  };
}
