/**
 * Plain words for a failure that did not come from the API, so has no HTTP status to show (a
 * generation, a download made in the browser, the clipboard): what happened, in a person's
 * terms, and what to do. A job's own message meant for the person (`JobFailedError` with
 * `isForPerson`) is kept as it is; an unexpected error keeps its own words in brackets, for a
 * feedback message. Used after "Could not …:" and the like, so it starts in lower case.
 */
export function describeLocalFailure(error: unknown): string {
  if (isForPerson(error)) return error.message;
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const detail =
    error instanceof Error || error instanceof DOMException ? error.message : String(error);
  if (name === 'NotAllowedError')
    return 'the browser did not allow it (check this site’s permissions, such as the clipboard, then try again)';
  if (name === 'QuotaExceededError')
    return 'the browser’s storage is full (close other tabs or free some disk space, then try again)';
  if (isOutOfMemory(error))
    return 'the browser ran out of memory (close other tabs or select fewer rows, then try again)';
  if (name === 'JobFailedError')
    return `the browser’s background worker stopped (${detail}). Your rows and templates are kept: try again, or reload the page`;
  return `something unexpected went wrong in the browser (${detail}). Your rows and templates are kept: try again, and if it happens again, send feedback with these words`;
}

/** A failure whose message was written for the person: the worker's `JobError`. */
function isForPerson(error: unknown): error is Error {
  return (
    error instanceof Error &&
    error.name === 'JobFailedError' &&
    (error as Error & { isForPerson?: boolean }).isForPerson === true
  );
}

/** Memory the browser could not give: an allocation refused, or a worker killed for it. */
function isOutOfMemory(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    /out of memory|allocation failed|Invalid array length|Array buffer allocation/i.test(
      error.message,
    ) ||
    (error instanceof RangeError && /array|buffer|string length/i.test(error.message))
  );
}
