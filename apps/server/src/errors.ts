import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { ERROR_STATUS, type ErrorBody, type ErrorCode, type FieldError } from '@adloom/contract';

/** Extra top-level fields of an error answer (the spec's `errors: [{ msg }]`). */
export interface AppErrorExtras {
  errors?: FieldError[];
  /** Seconds until a rate-limited call may be tried again (sent as Retry-After). */
  retryAfterSeconds?: number;
}

/** An error with a code from the contract and a message that is safe to show a person. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly extras: AppErrorExtras;

  constructor(code: ErrorCode, message: string, details?: unknown, extras: AppErrorExtras = {}) {
    super(message);
    this.code = code;
    this.details = details;
    this.extras = extras;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * Every connection of the pool was in use for as long as a request may wait for one
 * (db/index.ts): the database is busy, not unreachable.
 */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  /** The statement's name: its verb and first table, e.g. 'select clients'. */
  readonly statement: string;

  /** `why`: what kept the statement from a connection, for the log. */
  constructor(statement: string, why: string) {
    super(`query "${statement}" got no database connection: ${why} (busy, not unreachable)`);
    this.statement = statement;
  }
}

/** Seconds a request that found the database busy is told to wait (Retry-After). */
export const SERVER_BUSY_RETRY_AFTER_SECONDS = 1;
/** Message of a request that found every database connection in use. */
export const SERVER_BUSY_MESSAGE = 'The server is busy right now. Please try again in a moment.';

/** Message shown when the database cannot be reached. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is unavailable right now. Please try again shortly.';

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:was )?(?:closed|ended)/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
];

/** True for errors that mean "the database is not reachable" rather than "the query is wrong". */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown / cannot connect now), 53300 (too many connections).
    if (
      /^08/.test(code) ||
      code === '57P01' ||
      code === '57P02' ||
      code === '57P03' ||
      code === '53300'
    )
      return true;
  }
  if (error instanceof AggregateError && error.errors.some((inner) => isDatabaseUnavailable(inner)))
    return true;
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** Turns zod issues into the spec's `errors: [{ msg, path }]` list. */
export function fieldErrorsFromZod(error: ZodError): FieldError[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const msg =
      issue.code === 'invalid_type' && path
        ? describeInvalidType(path, issue.message)
        : issue.message;
    return path ? { msg, path } : { msg };
  });
}

function describeInvalidType(path: string, message: string): string {
  if (/received undefined/i.test(message)) return `${path} is required`;
  return `${path}: ${message}`;
}

/** An AppError for a failed zod parse: 400 validation_failed with `errors: [{ msg, path }]`. */
export function validationError(errors: FieldError[]): AppError {
  const message = errors.map((error) => error.msg).join('. ') || 'The request is not valid';
  return new AppError('validation_failed', message, undefined, { errors });
}

const FASTIFY_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

function fromFastifyError(error: FastifyError, bodyLimitBytes: number): AppError | undefined {
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const code = FASTIFY_STATUS_CODES[status] ?? 'bad_request';
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'payload_too_large',
        `The request body is larger than the limit of ${formatBytes(bodyLimitBytes)}.`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        'Unsupported content type: send the request body as application/json.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(
        'bad_request',
        'The request body is empty but the content type says JSON.',
      );
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('bad_request', 'The request body is not valid JSON.');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return new AppError(
      'bad_request',
      error instanceof SyntaxError
        ? 'The request body is not valid JSON.'
        : 'The request body does not match its Content-Length.',
    );
  }
  return new AppError(code, error.message || 'The request could not be handled.');
}

/** Human-readable size, e.g. "64 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** Converts anything thrown into an AppError; unknown errors become internal_error. */
export function toAppError(error: unknown, bodyLimitBytes: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return validationError(fieldErrorsFromZod(error));
  if (error instanceof DatabaseBusyError)
    return new AppError('server_busy', SERVER_BUSY_MESSAGE, undefined, {
      retryAfterSeconds: SERVER_BUSY_RETRY_AFTER_SECONDS,
    });
  if (isDatabaseUnavailable(error))
    return new AppError('service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
  if (error instanceof Error && typeof (error as FastifyError).statusCode === 'number') {
    const converted = fromFastifyError(error as FastifyError, bodyLimitBytes);
    if (converted) return converted;
  }
  return new AppError(
    'internal_error',
    'Something went wrong on our side. Please try again later.',
  );
}

/** The one error body every failed call answers with. */
export function presentError(error: AppError): ErrorBody {
  const body: ErrorBody = {
    error: { code: error.code, message: error.message },
    type: 'error',
    message: error.message,
  };
  if (error.details !== undefined) body.error.details = error.details;
  if (error.extras.errors) body.errors = error.extras.errors;
  return body;
}

/** Writes an AppError as the response. */
export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.extras.retryAfterSeconds !== undefined)
    reply.header('retry-after', String(error.extras.retryAfterSeconds));
  return reply.code(error.status).type('application/json; charset=utf-8').send(presentError(error));
}

/**
 * True when the error is the client hanging up while its body was still arriving (the request
 * stream's ECONNRESET "aborted"), not a database connection failing.
 */
export function isClientHangUp(error: unknown, request: FastifyRequest): boolean {
  const raw = request.raw;
  if (raw.complete !== false || !(raw.destroyed || raw.socket?.destroyed)) return false;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted'
  );
}

/** Answer (nobody reads it) to a client that hung up mid-body. */
const CLIENT_CLOSED_MESSAGE = 'The client closed the connection before the request was sent.';

const LOG_MESSAGE_MAX_CHARS = 300;

/** The logged form of an error. */
export interface ErrorLogFields {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string | number;
  statement?: string;
  statusCode?: number;
}

/**
 * What the log keeps of an error: its class, code, statement name (database errors), a
 * shortened message and the stack frames. Never the error's other properties: drivers and
 * libraries hang parameters, rows, request bodies and headers on their errors.
 */
export function errorLogFields(error: unknown): ErrorLogFields {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const { code, statement, statusCode } = error as {
    code?: unknown;
    statement?: unknown;
    statusCode?: unknown;
  };
  const message =
    error.message.length > LOG_MESSAGE_MAX_CHARS
      ? `${error.message.slice(0, LOG_MESSAGE_MAX_CHARS)}… (${error.message.length} chars)`
      : error.message;
  return {
    type: error.name,
    message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof statement === 'string' ? { statement } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    // The frames only: the stack's first line repeats the (unshortened) message.
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}

/**
 * Registers the one error handler: every error leaves the server as `{ error: { code, message } }`.
 * A 413 names the limit of the route it was sent to (`defaultBodyLimitBytes` outside routes).
 */
export function registerErrorHandler(app: FastifyInstance, defaultBodyLimitBytes: number): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (isClientHangUp(error, request)) {
      request.log.info('client closed the connection');
      return sendError(reply, new AppError('bad_request', CLIENT_CLOSED_MESSAGE));
    }
    const appError = toAppError(error, request.routeOptions.bodyLimit ?? defaultBodyLimitBytes);
    if (appError.code === 'internal_error') {
      request.log.error({ err: errorLogFields(error) }, 'unexpected error');
    } else if (error instanceof DatabaseBusyError) {
      request.log.warn({ err: errorLogFields(error) }, 'database busy');
    } else if (appError.code === 'service_unavailable') {
      request.log.warn({ err: errorLogFields(error) }, 'database unavailable');
    } else {
      request.log.info({ code: appError.code, message: appError.message }, 'request rejected');
    }
    return sendError(reply, appError);
  });
}
