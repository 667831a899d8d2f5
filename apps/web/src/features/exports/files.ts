import { notifyError } from '../../state/notifications.ts';
import { describeLocalFailure } from '../../state/localFailure.ts';

/** Saves a Blob as a file through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Tells the person a download could not be made, and why, in plain words. */
export function notifyFileError(error: unknown): void {
  notifyError(`Could not make the file: ${describeLocalFailure(error)}`);
}
