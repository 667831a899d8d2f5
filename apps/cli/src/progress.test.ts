import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress } from './progress.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('Progress', () => {
  it("shows the ads' thread beside the keywords, then alone, counting its lines", () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const drawn: string[] = [];
    const progress = new Progress((s) => drawn.push(s));
    progress.start(10_000);
    let ads = { ads: 0, row: 0 };
    progress.watchAds(() => ads);
    vi.setSystemTime(1000);
    ads = { ads: 500, row: 600 };
    // A line is drawn after 4,096 items at most every 250 ms.
    for (let i = 0; i < 4096; i++) progress.group('700');
    expect(drawn.at(-1)).toBe(
      '\rkeywords: rows 700 of 10,000, ads: rows 600 of 10,000, 4,596 lines written, 4,596 lines/s, 1.0 s   ',
    );
    ads = { ads: 900, row: 950 };
    vi.setSystemTime(1100);
    progress.waitingForAds();
    expect(drawn).toHaveLength(1);
    vi.setSystemTime(2000);
    progress.waitingForAds();
    expect(drawn.at(-1)).toBe(
      '\rads: rows 950 of 10,000, 4,996 lines written, 2,498 lines/s, 2.0 s   ',
    );
    progress.end();
    expect(drawn.slice(-2)).toEqual([
      '\rrows 10,000 of 10,000, 4,996 lines written, 2,498 lines/s, 2.0 s   ',
      '\n',
    ]);
  });
});
