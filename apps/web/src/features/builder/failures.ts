import { ApiError, statusOf } from '../../api/errors.ts';
import { handleApiError } from '../../api/client.ts';
import { notifyError } from '../../state/notifications.ts';
import { describeError } from '../../state/revisionedSet/index.ts';

/**
 * Shows a failed workspace call: server failures (above 499) and a refused session (401) go
 * to the generic handler of spec section 8; everything else shows `message(error text)`.
 */
export function reportFailure(error: unknown, message: (error: string) => string): void {
  if (error instanceof ApiError && (error.status > 499 || error.status === 401)) {
    handleApiError(error);
    return;
  }
  notifyError(message(describeError(error)), undefined, statusOf(error));
}
