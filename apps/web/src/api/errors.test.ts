import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createErrorHandler,
  decideErrorOutcome,
  NO_RESPONSE_MESSAGE,
  SERVER_PROBLEM_MESSAGE,
  statusOf,
  toApiError,
  UNAUTHORIZED_MESSAGE,
} from './errors.ts';

const err = (status: number, message = 'Supplied message', code?: string) =>
  new ApiError({ status, message, path: '/api/x', code });

describe('decideErrorOutcome (spec section 8)', () => {
  it.each([
    [503, { kind: 'redirect', to: '/service-down?service=mongo' }],
    [500, { kind: 'redirect', to: '/service-down?service=server' }],
    [502, { kind: 'notify', message: SERVER_PROBLEM_MESSAGE, signOut: false, status: 502 }],
    [504, { kind: 'notify', message: SERVER_PROBLEM_MESSAGE, signOut: false, status: 504 }],
    [501, { kind: 'notify', message: SERVER_PROBLEM_MESSAGE, signOut: false, status: 501 }],
    [400, { kind: 'notify', message: 'Supplied message', signOut: false, status: 400 }],
    [404, { kind: 'notify', message: 'Supplied message', signOut: false, status: 404 }],
    [413, { kind: 'notify', message: 'Supplied message', signOut: false, status: 413 }],
    // No answer: plain words and no status.
    [0, { kind: 'notify', message: NO_RESPONSE_MESSAGE, signOut: false }],
  ])('status %i', (status, expected) => {
    expect(decideErrorOutcome(err(status))).toEqual(expected);
  });

  it('401 shows the unauthorized text with an emoji and ends a rejected session', () => {
    expect(decideErrorOutcome(err(401, 'x', 'unauthorized'))).toEqual({
      kind: 'notify',
      message: UNAUTHORIZED_MESSAGE,
      signOut: true,
      status: 401,
    });
    expect(UNAUTHORIZED_MESSAGE.startsWith('Unauthorized. Please log in to continue')).toBe(true);
    expect(UNAUTHORIZED_MESSAGE).toMatch(/\p{Extended_Pictographic}/u);
    expect(
      SERVER_PROBLEM_MESSAGE.startsWith(
        'There seems to be a problem with the server. Please try again later',
      ),
    ).toBe(true);
    expect(SERVER_PROBLEM_MESSAGE).toMatch(/\p{Extended_Pictographic}/u);
  });

  it('a 401 of another kind (no Google link) keeps the session', () => {
    expect(decideErrorOutcome(err(401, 'x', 'not_linked'))).toMatchObject({ signOut: false });
  });

  it('prefers the caller’s message for statuses below 500', () => {
    expect(decideErrorOutcome(err(409), 'Unable to create client')).toMatchObject({
      message: 'Unable to create client',
    });
  });
});

describe('statusOf', () => {
  it('is the status of an answered call, else undefined', () => {
    expect(statusOf(err(409))).toBe(409);
    expect(statusOf(err(0))).toBeUndefined();
    expect(statusOf(new Error('x'))).toBeUndefined();
  });
});

describe('toApiError', () => {
  it('reads the contract error shape, field errors and type', () => {
    const e = toApiError(
      400,
      {
        error: { code: 'validation_failed', message: 'Bad' },
        errors: [{ msg: 'Email is taken', path: 'email' }, { msg: 'Too short' }],
        type: 'error',
      },
      '/api/users/register',
    );
    expect(e.status).toBe(400);
    expect(e.code).toBe('validation_failed');
    expect(e.fieldErrors).toEqual(['Email is taken', 'Too short']);
    expect(e.fieldPaths).toEqual(['email', undefined]);
    expect(e.type).toBe('error');
  });

  it('prefers the top-level message of { type, message } answers', () => {
    const e = toApiError(
      404,
      {
        error: { code: 'not_found', message: 'a' },
        type: 'error',
        message: 'User with that email/password combination not found',
      },
      '/x',
    );
    expect(e.message).toBe('User with that email/password combination not found');
  });

  it('copes with a body that is not the error shape', () => {
    expect(toApiError(502, undefined, '/x').message).toBe('Request failed with status 502');
    expect(toApiError(400, { message: 'plain' }, '/x').message).toBe('plain');
  });
});

describe('createErrorHandler', () => {
  function setup() {
    const deps = { notifyError: vi.fn(), navigate: vi.fn(), track: vi.fn(), signOut: vi.fn() };
    return { deps, handle: createErrorHandler(deps) };
  }

  it('503 and 500 redirect without a toast, after logging the analytics event', () => {
    const { deps, handle } = setup();
    handle(err(503, 'db down'));
    handle(err(500, 'boom'));
    expect(deps.navigate.mock.calls).toEqual([
      ['/service-down?service=mongo'],
      ['/service-down?service=server'],
    ]);
    expect(deps.notifyError).not.toHaveBeenCalled();
    expect(deps.track).toHaveBeenCalledWith({
      name: 'error',
      message: 'db down',
      status: 503,
      path: '/api/x',
    });
  });

  it('401 shows the unauthorized toast and signs out', () => {
    const { deps, handle } = setup();
    handle(err(401, 'Invalid token', 'unauthorized'));
    expect(deps.notifyError).toHaveBeenCalledWith(UNAUTHORIZED_MESSAGE, 401);
    expect(deps.signOut).toHaveBeenCalledTimes(1);
  });

  it('other statuses show the supplied message', () => {
    const { deps, handle } = setup();
    handle(err(422, 'Name is required'));
    expect(deps.notifyError).toHaveBeenCalledWith('Name is required', 422);
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('turns a thrown non-API error into a toast', () => {
    const { deps, handle } = setup();
    handle(new Error('kaput'), 'Unable to save data');
    expect(deps.notifyError).toHaveBeenCalledWith('Unable to save data', undefined);
  });
});
