import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import {
  LOGIN_FAILED,
  loginErrorMessage,
  REGISTER_FAILED,
  registerErrorMessages,
  RESET_FAILED,
  resetErrorMessages,
  splitRegisterErrors,
} from './messages.ts';

const apiError = (status: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({
    status,
    path: '/api/users/x',
    message: 'Server says no',
    code: 'bad_request',
    ...extra,
  });

describe('auth messages (spec section 8)', () => {
  it('register lists the server errors one by one', () => {
    expect(
      registerErrorMessages(
        apiError(400, {
          fieldErrors: ['Please enter a valid email', 'Password must be at least 6 characters'],
        }),
      ),
    ).toEqual(['Please enter a valid email', 'Password must be at least 6 characters']);
  });

  it('register falls back to the spec text without server errors', () => {
    expect(registerErrorMessages(new Error('network'))).toEqual([REGISTER_FAILED]);
    expect(registerErrorMessages(apiError(0))).toEqual([REGISTER_FAILED]);
    expect(registerErrorMessages(apiError(400, { code: undefined }))).toEqual([REGISTER_FAILED]);
    expect(REGISTER_FAILED).toBe('There was a problem signing you up');
  });

  it('register shows a single server message such as a taken email', () => {
    expect(
      registerErrorMessages(
        apiError(409, { code: 'conflict', message: 'An account with that email already exists.' }),
      ),
    ).toEqual(['An account with that email already exists.']);
  });

  it('forgot and reset show the server message, else the spec text', () => {
    expect(
      resetErrorMessages(
        apiError(400, { message: 'This password reset link is invalid or has expired.' }),
      ),
    ).toEqual(['This password reset link is invalid or has expired.']);
    expect(resetErrorMessages(new Error('x'))).toEqual([RESET_FAILED]);
    expect(RESET_FAILED).toBe('There was an error resetting your password');
  });

  it('login failure is the spec text, except a rate limit which keeps its own', () => {
    expect(loginErrorMessage(apiError(404))).toBe(LOGIN_FAILED);
    expect(loginErrorMessage(apiError(401))).toBe(LOGIN_FAILED);
    expect(loginErrorMessage(new Error('offline'))).toBe(LOGIN_FAILED);
    expect(loginErrorMessage(apiError(429, { message: 'Too many attempts.' }))).toBe(
      'Too many attempts.',
    );
    expect(LOGIN_FAILED).toBe('User with that email/password combination not found');
  });
});

describe('register errors beside their fields', () => {
  it('puts each error that names a form field beside it, the rest in the toast', () => {
    expect(
      splitRegisterErrors(
        apiError(400, {
          fieldErrors: ['Too short', 'Needs a digit', 'Passwords do not match', 'Bot check failed'],
          fieldPaths: ['password', 'password', 'password-confirm', 'recaptchaToken'],
        }),
      ),
    ).toEqual({
      fields: { password: 'Too short Needs a digit', 'password-confirm': 'Passwords do not match' },
      others: ['Bot check failed'],
    });
  });

  it('keeps the toast for errors without a field, as registerErrorMessages says', () => {
    expect(splitRegisterErrors(new Error('network'))).toEqual({
      fields: {},
      others: [REGISTER_FAILED],
    });
    expect(
      splitRegisterErrors(apiError(400, { fieldErrors: ['Something odd'], fieldPaths: [] })),
    ).toEqual({ fields: {}, others: ['Something odd'] });
  });
});
