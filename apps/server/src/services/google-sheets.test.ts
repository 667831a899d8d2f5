import { describe, expect, it } from 'vitest';
import { readRetryAfterMs } from './google-sheets.ts';

describe('readRetryAfterMs', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it.each([
    ['2', 2000],
    ['0', 0],
    ['1.5', 1500],
    ['Thu, 26 Nov 2026 12:00:07 GMT', 7000],
    ['Thu, 26 Nov 2026 11:59:00 GMT', 0],
  ])('Retry-After %s waits %i ms', (header, ms) => {
    expect(readRetryAfterMs(header, now)).toBe(ms);
  });
  it.each([[null], [''], ['soon']])('Retry-After %s says nothing', (header) => {
    expect(readRetryAfterMs(header, now)).toBeUndefined();
  });
});
