/**
 * The engine's shape, measured: the keyword path's files and the Microsoft format's small parts
 * stay within the house style's sizes (files of at most 600 lines, functions of at most 150), and
 * no module of the engine imports itself through others (type-only imports included: a circle of
 * types is still one to read).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 150;
/**
 * The files held to those sizes: the keyword path, and every file of the Microsoft format (its
 * writer included: microsoftBulk.ts's one pass, once a generator of about 700 lines, is now one
 * reader per record kind over a shared writer state).
 */
const MICROSOFT = /^formats\/microsoft[A-Za-z]*\.ts$/;
const SIZED = (file: string): boolean =>
  file.startsWith('keywords/') ||
  file === 'keywordsCsv.ts' ||
  file === 'campaignInput.ts' ||
  MICROSOFT.test(file);

/** The engine's source files (tests left out), relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts')
      ? [path.relative(SRC, full).split(path.sep).join('/')]
      : [];
  });
}

function parse(file: string): ts.SourceFile {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
}

/** Each function's (declaration, method, arrow, accessor, constructor) name and line count. */
function functionLengths(source: ts.SourceFile): Array<{ name: string; lines: number }> {
  const found: Array<{ name: string; lines: number }> = [];
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const named = node as ts.FunctionLikeDeclaration;
      let name = named.name?.getText(source);
      if (!name && ts.isVariableDeclaration(node.parent)) name = node.parent.name.getText(source);
      if (!name && ts.isPropertyDeclaration(node.parent)) name = node.parent.name.getText(source);
      if (ts.isConstructorDeclaration(node)) name = 'constructor';
      found.push({
        name: name ?? '(anonymous)',
        lines: lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The relative modules a file imports or re-exports, as paths relative to src/. */
function importsOf(file: string, source: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const statement of source.statements) {
    const spec =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (spec?.startsWith('.'))
      out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
  }
  return out;
}

/** The import circles among `files` (each as the files around it, the first repeated last). */
function importCircles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f, parse(f))]));
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const walk = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') circles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const f of files) if (!state.has(f)) walk(f);
  return circles;
}

describe('engine shape', () => {
  const files = sourceFiles();

  it('keeps the keyword path and the Microsoft parts to 600-line files, 150-line functions', () => {
    const sized = files.filter(SIZED);
    expect(sized.length).toBeGreaterThan(10);
    expect(sized).toContain('formats/microsoftBulk.ts');
    expect(sized).toContain('formats/microsoftRecords.ts');
    const tooLong: string[] = [];
    for (const file of sized) {
      const source = parse(file);
      const lines = source.getLineAndCharacterOfPosition(source.getEnd()).line;
      if (lines > MAX_FILE_LINES) tooLong.push(`${file}: ${lines} lines`);
      for (const f of functionLengths(source))
        if (f.lines > MAX_FUNCTION_LINES) tooLong.push(`${file}: ${f.name} has ${f.lines} lines`);
    }
    expect(tooLong).toEqual([]);
  });

  it('measures functions as their lines, nested ones included', () => {
    const source = ts.createSourceFile(
      'x.ts',
      'function outer() {\n  const inner = () => {\n    return 1;\n  };\n  return inner;\n}\n',
      ts.ScriptTarget.ES2022,
      true,
    );
    expect(functionLengths(source)).toEqual([
      { name: 'outer', lines: 6 },
      { name: 'inner', lines: 3 },
    ]);
  });

  it('has no import circle among its modules', () => {
    expect(importCircles(files)).toEqual([]);
  });
});
