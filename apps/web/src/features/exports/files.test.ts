import { afterEach, describe, expect, it } from 'vitest';
import { notifications } from '../../state/notifications.ts';
import { JobFailedError } from '../generation/index.ts';
import { notifyFileError } from './files.ts';

/** The toast `notifyFileError` shows for `error`. */
function toastFor(error: unknown) {
  notifyFileError(error);
  const shown = notifications.get().notifications.at(-1)!;
  return { message: shown.message, status: shown.status };
}

describe('a download that fails in the browser says what happened in plain words', () => {
  afterEach(() => notifications.clear());

  it('keeps a message the worker wrote for the person', () => {
    const message = 'Generate the ads again: these ads were made before the last generation.';
    expect(toastFor(new JobFailedError(message, true))).toEqual({
      message: `Could not make the file: ${message}`,
      status: undefined,
    });
  });

  it('says the worker stopped, that nothing is lost and what to do, for a crash', () => {
    const { message } = toastFor(new JobFailedError('The engine worker failed', false));
    expect(message).toBe(
      'Could not make the file: the browser’s background worker stopped (The engine worker failed). Your rows and templates are kept: try again, or reload the page',
    );
  });

  it('names memory, storage and permissions in the words of what the person can change', () => {
    expect(toastFor(new RangeError('Array buffer allocation failed')).message).toBe(
      'Could not make the file: the browser ran out of memory (close other tabs or select fewer rows, then try again)',
    );
    expect(toastFor(new DOMException('full', 'QuotaExceededError')).message).toMatch(
      /^Could not make the file: the browser’s storage is full \(/,
    );
    expect(toastFor(new DOMException('refused', 'NotAllowedError')).message).toMatch(
      /^Could not make the file: the browser did not allow it \(/,
    );
  });

  it('keeps the words of an unexpected error in brackets, for a feedback message', () => {
    const { message, status } = toastFor(
      new TypeError("Cannot read properties of undefined (reading 'rows')"),
    );
    expect(message).toBe(
      "Could not make the file: something unexpected went wrong in the browser (Cannot read properties of undefined (reading 'rows')). Your rows and templates are kept: try again, and if it happens again, send feedback with these words",
    );
    expect(status).toBeUndefined();
  });
});
