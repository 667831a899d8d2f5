/** For unit tests: a stand-in for the browser's engine Worker (happy-dom runs no module worker). */
import type { ToWorkerMessage } from '../jobTypes.ts';
import { takeLongStrings } from '../transferables.ts';

/** Records the messages it is sent and answers the last job when told. */
export class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly posted: ToWorkerMessage[] = [];
  isTerminated = false;
  constructor() {
    FakeWorker.made.push(this);
  }
  postMessage(message: ToWorkerMessage): void {
    this.posted.push(structuredClone(message));
  }
  terminate(): void {
    this.isTerminated = true;
  }
  jobs(): Extract<ToWorkerMessage, { type: 'job' }>[] {
    return this.posted.filter(
      (m): m is Extract<ToWorkerMessage, { type: 'job' }> => m.type === 'job',
    );
  }
  answer(result: unknown): void {
    const job = this.jobs().at(-1)!;
    this.onmessage?.({ data: { type: 'done', id: job.id, result } });
  }
  /** Answers as the worker does: each long string first, in a message of its own. */
  answerInParts(result: unknown, minChars: number): void {
    const job = this.jobs().at(-1)!;
    takeLongStrings(result, minChars).forEach((text, index) =>
      this.onmessage?.({ data: { type: 'part', id: job.id, index, text } }),
    );
    this.onmessage?.({ data: { type: 'done', id: job.id, result: structuredClone(result) } });
  }
}
