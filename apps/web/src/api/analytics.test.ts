import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_MESSAGE_MAX_CHARS,
  setAnalyticsSink,
  track,
  type AnalyticsSink,
} from './analytics.ts';

describe('track', () => {
  let previous: AnalyticsSink | undefined;
  afterEach(() => {
    if (previous) setAnalyticsSink(previous);
  });

  it('cuts the message to 99 characters and passes the rest on', () => {
    const sink = vi.fn();
    previous = setAnalyticsSink(sink);
    track({ name: 'error', message: 'x'.repeat(150), status: 500 });
    expect(sink).toHaveBeenCalledWith({
      name: 'error',
      message: 'x'.repeat(ANALYTICS_MESSAGE_MAX_CHARS),
      status: 500,
    });
    expect(ANALYTICS_MESSAGE_MAX_CHARS).toBe(99);
  });

  it('never throws when the sink fails', () => {
    previous = setAnalyticsSink(() => {
      throw new Error('collector down');
    });
    expect(() => track({ name: 'error', message: 'm' })).not.toThrow();
  });
});
