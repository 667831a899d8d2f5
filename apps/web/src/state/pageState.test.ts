import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptForPage, resetPageState } from './pageState.ts';

// Vitest runs the suite from the web app's folder.
const SRC = join(process.cwd(), 'src');

/** The app's source files: no tests, no workers (each runs in a realm of its own), no harness. */
function appFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'harness' ? [] : appFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|worker)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Names a module declares at its top level that hold state changing while the page lives: a
 * `let`, or a store, Map or Set made empty (a Map or Set made from a literal is a lookup table;
 * a WeakMap forgets with its keys).
 */
export function moduleStateNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const variable = /^(?:export )?let (\w+)/.exec(line);
    if (variable) names.push(variable[1]!);
    const made =
      /^(?:export )?const (\w+)(?::[^=]+)? = (?:createStore\b|new (?:Map|Set)\b(?!\(\[))/.exec(
        line,
      );
    if (made) names.push(made[1]!);
  }
  return names;
}

/** The text of every `keptForPage(...)` call in a module. */
function resets(text: string): string {
  const calls: string[] = [];
  let at = text.indexOf('keptForPage(');
  while (at >= 0) {
    const lineEnd = text.indexOf('\n', at);
    const firstLine = text.slice(at, lineEnd);
    const close = text.indexOf('\n});', at);
    const end = firstLine.trimEnd().endsWith(');') || close < 0 ? lineEnd : close + 4;
    calls.push(text.slice(at, end));
    at = text.indexOf('keptForPage(', end);
  }
  return calls.join('\n');
}

describe('page-long state', () => {
  it('finds the module state it looks for, and leaves lookup tables alone', () => {
    expect(
      moduleStateNames(
        [
          'let a = 1;',
          'export let b: string | null = null;',
          'const c = createStore(false);',
          'export const d = createStore<X | null>(null);',
          'const e = new Map<string, number>();',
          'const f: Set<string> = new Set();',
          "const g = new Set(['ArrowUp']);",
          'const h = new WeakMap<object, string>();',
          '  let local = 2;',
        ].join('\n'),
      ),
    ).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('is put back by every module that keeps it, so test files need no isolation', () => {
    const missing = appFiles(SRC).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const kept = resets(text);
      return moduleStateNames(text)
        .filter((name) => !new RegExp(`\\b${name}\\b`).test(kept))
        .map((name) => `${relative(SRC, file)}: ${name}`);
    });
    expect(missing).toEqual([]);
  });

  it('lives in modules, never in a component file: a component keeps its state in React', () => {
    const inComponents = appFiles(SRC)
      .filter((file) => file.endsWith('.tsx'))
      .flatMap((file) =>
        moduleStateNames(readFileSync(file, 'utf8')).map(
          (name) => `${relative(SRC, file)}: ${name}`,
        ),
      );
    expect(inComponents).toEqual([]);
  });

  it('runs every registered reset, in order', () => {
    const calls: string[] = [];
    keptForPage(() => calls.push('first'));
    keptForPage(() => calls.push('second'));
    resetPageState();
    expect(calls).toEqual(['first', 'second']);
  });
});
