import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppError,
  formatBytes,
  isDatabaseUnavailable,
  presentError,
  toAppError,
} from './errors.ts';

describe('toAppError', () => {
  it('hides unknown errors behind internal_error', () => {
    const error = toAppError(new Error('select * from users failed at /srv/app.ts:12'), 1024);
    expect(error.code).toBe('internal_error');
    expect(presentError(error)).toEqual({
      error: {
        code: 'internal_error',
        message: 'Something went wrong on our side. Please try again later.',
      },
      type: 'error',
      message: 'Something went wrong on our side. Please try again later.',
    });
  });

  it('turns zod failures into validation_failed with errors [{ msg, path }]', () => {
    const result = z
      .object({ name: z.string().min(2, 'Name is too short') })
      .safeParse({ name: 'x' });
    const error = toAppError(result.error, 1024);
    expect(error.status).toBe(400);
    expect(presentError(error).errors).toEqual([{ msg: 'Name is too short', path: 'name' }]);
  });

  it('keeps AppErrors as they are', () => {
    const error = new AppError('conflict', 'Taken', { field: 'email' });
    expect(toAppError(error, 1024)).toBe(error);
    expect(presentError(error)).toEqual({
      error: { code: 'conflict', message: 'Taken', details: { field: 'email' } },
      type: 'error',
      message: 'Taken',
    });
  });

  it.each([
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      true,
    ],
    [
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
      true,
    ],
    [new Error('Connection terminated unexpectedly'), true],
    [new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), true],
    [Object.assign(new Error('relation "users" does not exist'), { code: '42P01' }), false],
    ['a string', false],
  ])('knows whether the database is unreachable (%#)', (error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
    if (expected) expect(toAppError(error, 1024).code).toBe('service_unavailable');
  });

  it('formats sizes', () => {
    expect(formatBytes(64 * 1024 * 1024)).toBe('64 MiB');
    expect(formatBytes(4096)).toBe('4 KiB');
    expect(formatBytes(1500)).toBe('1500 bytes');
  });
});
