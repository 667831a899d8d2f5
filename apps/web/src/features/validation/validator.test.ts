import { describe, expect, it } from 'vitest';
import { newRsaFallback } from '@adloom/engine';
import type { FallbackCheck, ValidationResult } from './checks.ts';
import { createCoalescingValidator } from './validator.ts';

function deferred() {
  let resolve!: (r: ValidationResult) => void;
  const promise = new Promise<ValidationResult>((r) => (resolve = r));
  return { promise, resolve };
}

const result = (valid: number): ValidationResult => ({
  valid,
  total: 3,
  failures: [],
  failing: 3 - valid,
});
const check = (): FallbackCheck => ({ kind: 'rsa', fallbacks: [newRsaFallback()] });

describe('createCoalescingValidator', () => {
  it('runs one check at a time and keeps only the newest waiting request per caller', async () => {
    const runs: Array<ReturnType<typeof deferred>> = [];
    const seen: FallbackCheck[] = [];
    const validator = createCoalescingValidator(3, 1, (c) => {
      seen.push(c);
      const d = deferred();
      runs.push(d);
      return d.promise;
    });
    const [c1, c2, c3] = [check(), check(), check()];
    const first = validator.validate(c1, new AbortController().signal, 'Fallback 1');
    const stale = validator.validate(c2, new AbortController().signal, 'Fallback 1');
    const newest = validator.validate(c3, new AbortController().signal, 'Fallback 1');
    await expect(stale).rejects.toThrow('cancelled');
    expect(seen).toEqual([c1]);
    runs[0]!.resolve(result(1));
    await expect(first).resolves.toEqual(result(1));
    await Promise.resolve();
    expect(seen).toEqual([c1, c3]);
    runs[1]!.resolve(result(2));
    await expect(newest).resolves.toEqual(result(2));
  });

  it('drops a waiting request whose caller went away, and cancels a finished one', async () => {
    const runs: Array<ReturnType<typeof deferred>> = [];
    const validator = createCoalescingValidator(3, 1, () => {
      const d = deferred();
      runs.push(d);
      return d.promise;
    });
    const running = new AbortController();
    const p1 = validator.validate(check(), running.signal, 'a');
    const waitingCtl = new AbortController();
    const p2 = validator.validate(check(), waitingCtl.signal, 'b');
    waitingCtl.abort();
    await expect(p2).rejects.toThrow('cancelled');
    running.abort();
    runs[0]!.resolve(result(3));
    await expect(p1).rejects.toThrow('cancelled');
    expect(runs).toHaveLength(1);
  });
});
