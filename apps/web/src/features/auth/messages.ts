import { ApiError } from '../../api/errors.ts';

/** Spec section 8: the login failure text. */
export const LOGIN_FAILED = 'User with that email/password combination not found';
/** Spec section 8: the register fallback text. */
export const REGISTER_FAILED = 'There was a problem signing you up';
/** Spec section 8: the forgot/reset fallback text. */
export const RESET_FAILED = 'There was an error resetting your password';
/** Success notice after logging in. */
export const WELCOME_BACK = 'Welcome back!';
/** Success notice after registering. */
export const WELCOME_NEW = 'Welcome to Adloom! Your account is ready.';

/** True when the failure belongs to the generic handler (server down or broken). */
export function isServerFailure(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status > 499;
}

/** Register: the server's errors one by one, else its message, else the spec's fallback. */
export function registerErrorMessages(error: unknown): string[] {
  if (!(error instanceof ApiError) || !error.hasResponse) return [REGISTER_FAILED];
  if (error.fieldErrors.length > 0) return error.fieldErrors;
  if (error.status >= 400 && error.status < 500 && error.code && error.code !== 'bad_response')
    return [error.message];
  return [REGISTER_FAILED];
}

/** The register form's fields, by the names the server's errors give them. */
export type RegisterField = 'email' | 'password' | 'password-confirm';

const REGISTER_FIELDS: readonly string[] = ['email', 'password', 'password-confirm'];

/** Register's failure split for the form: the errors of each field, and the rest (for a toast). */
export interface RegisterFailure {
  fields: Partial<Record<RegisterField, string>>;
  others: string[];
}

/**
 * Register: the server's errors that name a field of the form go beside that field (several on
 * one field joined); everything else is as registerErrorMessages says.
 */
export function splitRegisterErrors(error: unknown): RegisterFailure {
  const failure: RegisterFailure = { fields: {}, others: [] };
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) {
    failure.others = registerErrorMessages(error);
    return failure;
  }
  error.fieldErrors.forEach((message, i) => {
    const path = error.fieldPaths[i];
    if (path !== undefined && REGISTER_FIELDS.includes(path)) {
      const field = path as RegisterField;
      const before = failure.fields[field];
      failure.fields[field] = before ? `${before} ${message}` : message;
    } else {
      failure.others.push(message);
    }
  });
  return failure;
}

/** Forgot and reset: the server's message, else the spec's fallback. */
export function resetErrorMessages(error: unknown): string[] {
  if (!(error instanceof ApiError) || !error.hasResponse) return [RESET_FAILED];
  if (error.fieldErrors.length > 0) return error.fieldErrors;
  if (error.status >= 400 && error.status < 500 && error.message && error.code !== 'bad_response')
    return [error.message];
  return [RESET_FAILED];
}

/** Login: a rate limit keeps its own message; every other refusal is the spec's text. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 429) return error.message;
  return LOGIN_FAILED;
}
