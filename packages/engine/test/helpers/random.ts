/** Seeded random cases for the comparison tests: a failing case can be replayed by its seed. */

/** The engine's seeded random source (mulberry32). */
export { seededRandom as random } from '../../src/preview.ts';

/** One of `xs`, chosen by `next`. */
export function pick<T>(next: () => number, xs: readonly T[]): T {
  return xs[Math.floor(next() * xs.length)] as T;
}
