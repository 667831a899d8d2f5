/** File input and output of the `adloom` command: decoding, JSON with positions, all-or-nothing writes. */
// The synchronous calls of node:fs: node:fs/promises loads Node's streams at start, which cost
// every run more than the few calls it makes.
import {
  copyFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type iconvLite from 'iconv-lite';
import { CsvBytes, UTF8_BOM } from '@adloom/engine';

/** A user-facing input error: printed as is, exit code 1. */
export class InputError extends Error {
  override name = 'InputError';
}

/** The input error for a file that cannot be opened or read. */
export function inputFileError(e: unknown, file: string, what: string): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new InputError(`${what} file not found: ${file}`);
  if (code === 'EISDIR') return new InputError(`${what} path is a folder, not a file: ${file}`);
  if (code === 'EACCES')
    return new InputError(`${what} file cannot be read (permission denied): ${file}`);
  return new InputError(`${what} file cannot be read: ${file} (${(e as Error).message})`);
}

/** Reads a file or fails with a clear message naming it. */
export function readInputFile(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw inputFileError(e, file, what);
  }
}

/**
 * iconv-lite, loaded the first time a file is read as windows-1252 (a CommonJS package: loaded
 * at start, it cost every run the time of its modules and of Node's CommonJS export scan).
 */
export async function loadIconv(): Promise<typeof iconvLite> {
  return (await import('iconv-lite')).default;
}

/**
 * Text of a JSON file: UTF-8 with or without BOM; UTF-16 with a BOM; anything that is not valid
 * UTF-8 is read as windows-1252 (what spreadsheets on Windows save) by iconv-lite, which maps
 * 0x80-0x9F to € ‚ „ … – — ‘ ’ “ ” ™ ... (Node's own TextDecoder turns them into control
 * characters).
 */
export async function decodeText(buf: Buffer): Promise<{ text: string; encoding: string }> {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'utf-16le' };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'utf-16be' };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf),
      encoding: 'utf-8',
    };
  } catch {
    return { text: (await loadIconv()).decode(buf, 'windows-1252'), encoding: 'windows-1252' };
  }
}

/** Line and column (from 1) of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Parses JSON or fails naming the file, line, column and position. */
export function parseJsonFile(text: string, file: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (e) {
    const message = (e as Error).message;
    const m = /position (\d+)/.exec(message);
    const position = m ? Number(m[1]) : findJsonErrorOffset(body);
    const where =
      position === undefined
        ? ''
        : (() => {
            const { line, column } = lineAndColumn(body, position);
            return ` at line ${line}, column ${column} (position ${position})`;
          })();
    const reason = message
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/ \(line \d+ column \d+\)$/, '')
      .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
      .replace(/\s+/g, ' ');
    throw new InputError(`Invalid JSON in ${file}${where}: ${reason}`);
  }
}

/**
 * Standard output was closed by its reader (`adloom ... --stdout | head`): the reader has what it
 * wanted, so the run stops quietly.
 */
export class OutputClosed extends Error {
  override name = 'OutputClosed';
}

/**
 * An output written as it is made: CSV cells and text go straight into a buffer of UTF-8 bytes
 * (the engine's CsvBytes; long texts encoded by Node's TextEncoder), written each time it fills. Writes are synchronous: the engine's
 * generation is one synchronous run, and a write that returns has handed its bytes to the
 * system, so memory holds one buffer per file whatever the output's size.
 */
export class OutputSink extends CsvBytes {
  constructor(fd: number) {
    super(
      (bytes) => writeBytes(fd, bytes),
      WRITE_BUFFER_BYTES,
      (text, into) => encoder.encodeInto(text, into),
    );
  }
}

/** Bytes gathered before one write. */
const WRITE_BUFFER_BYTES = 1 << 20;
const encoder = new TextEncoder();

function writeBytes(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // A pipe that is full (stdout read by a slower process): try again.
      if (code === 'EAGAIN') continue;
      if (code === 'EPIPE' && fd === 1) throw new OutputClosed();
      throw e;
    }
  }
}

/**
 * The files of one run, written into a fresh folder beside `dir` as they are made and moved into
 * `dir` only by `commit`: an error before it leaves `dir` as it was. With `toStdout` the one
 * output goes to standard output (without the BOM, which is for spreadsheets) and nothing else
 * is written.
 */
export class OutputFolder {
  private readonly files = new Map<string, { fd: number; sink: OutputSink }>();
  /** Scratch files by path, with their descriptors. */
  private readonly scratches = new Map<string, number>();
  /** Files moved in whole (`adopt`). */
  private readonly adopted = new Set<string>();
  private constructor(
    private readonly dir: string,
    private readonly target: string,
    private readonly temp: string | undefined,
  ) {}

  /** Checks `dir` and makes the temporary folder beside it; `undefined` dir: standard output. */
  static open(dir: string | undefined): OutputFolder {
    if (dir === undefined) return new OutputFolder('', '', undefined);
    const target = path.resolve(dir);
    const parent = path.dirname(target);
    try {
      const s = statSync(target);
      if (!s.isDirectory()) throw new InputError(`--out is a file, not a folder: ${dir}`);
    } catch (e) {
      if (e instanceof InputError) throw e;
    }
    try {
      mkdirSync(parent, { recursive: true });
    } catch (e) {
      throw new InputError(`Cannot create the output folder ${dir}: ${(e as Error).message}`);
    }
    const temp = mkdtempSync(path.join(parent, `.${path.basename(target)}.adloom-`));
    return new OutputFolder(dir, target, temp);
  }

  /**
   * The sink of a new file `name`, a BOM first (Excel and Editor then read UTF-8): every file the
   * command writes into a folder starts with one, the images note too.
   */
  file(name: string, bom = true): OutputSink {
    if (this.temp === undefined) {
      const sink = new OutputSink(1);
      this.files.set(name, { fd: 1, sink });
      return sink;
    }
    const fd = openSync(path.join(this.temp, name), 'w');
    const sink = new OutputSink(fd);
    this.files.set(name, { fd, sink });
    if (bom) sink.text(UTF8_BOM);
    return sink;
  }

  /** The file descriptor of the file `name` made by `file` (another thread may write to it). */
  fdOf(name: string): number {
    const f = this.files.get(name);
    if (!f) throw new Error(`No output file ${name}`);
    return f.fd;
  }

  /**
   * A scratch file in the temporary folder (a part that the run copies into an output before it
   * commits): never moved into the output folder; `dropScratch` removes it.
   */
  scratch(name: string): { fd: number; file: string } {
    if (this.temp === undefined)
      throw new Error('No scratch files when writing to standard output');
    const file = path.join(this.temp, name);
    const fd = openSync(file, 'w+');
    this.scratches.set(file, fd);
    return { fd, file };
  }

  /** Closes and removes a scratch file. */
  dropScratch(file: string): void {
    const fd = this.scratches.get(file);
    if (fd === undefined) return;
    this.scratches.delete(file);
    closeSync(fd);
    rmSync(file, { force: true });
  }

  /**
   * An existing file (made elsewhere by this run: a scratch build's record) moved into the
   * output as `name`: renamed when it is on the same file system, else copied.
   */
  adopt(name: string, file: string): void {
    if (this.temp === undefined)
      throw new Error('No adopted files when writing to standard output');
    const into = path.join(this.temp, name);
    try {
      renameSync(file, into);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      copyFileSync(file, into);
    }
    this.adopted.add(name);
  }

  /** A whole file from its chunks (a BOM first unless `bom` is false: the build record). */
  writeFile(name: string, chunks: Iterable<string>, bom = true): void {
    const sink = this.file(name, bom);
    for (const chunk of chunks) sink.text(chunk);
  }

  /**
   * Where the file `name` is before the commit, with everything written so far on disk: the run
   * reads its own files back (the build record is made from them).
   */
  pathOf(name: string): string {
    const f = this.files.get(name);
    if (!f || this.temp === undefined) throw new Error(`No output file ${name}`);
    f.sink.end();
    return path.join(this.temp, name);
  }

  /** Writes what is left and moves every file into the output folder. */
  commit(): void {
    try {
      for (const file of [...this.scratches.keys()]) this.dropScratch(file);
      for (const { sink } of this.files.values()) sink.end();
      const names = [...this.files.keys(), ...this.adopted];
      this.close();
      if (this.temp === undefined) return;
      let targetExists = true;
      try {
        statSync(this.target);
      } catch {
        targetExists = false;
      }
      if (!targetExists) {
        renameSync(this.temp, this.target);
        return;
      }
      for (const name of names)
        renameSync(path.join(this.temp, name), path.join(this.target, name));
    } catch (e) {
      if (e instanceof OutputClosed) throw e;
      throw new InputError(`Cannot write the output into ${this.dir}: ${(e as Error).message}`);
    } finally {
      this.discard();
    }
  }

  private close(): void {
    for (const f of this.files.values()) if (f.fd !== 1) closeSync(f.fd);
    this.files.clear();
    for (const fd of this.scratches.values()) closeSync(fd);
    this.scratches.clear();
  }

  /** Drops the temporary folder (after a commit, or instead of one). */
  discard(): void {
    this.close();
    if (this.temp !== undefined) rmSync(this.temp, { recursive: true, force: true });
  }
}

/**
 * Offset of the first syntax error in JSON text (Node 20's JSON.parse does not always say where).
 * A small recursive-descent scan; returns undefined when it finds no error.
 */
export function findJsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const n = text.length;
  class Stop {
    constructor(readonly at: number) {}
  }
  const ws = () => {
    while (i < n && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const fail = (): never => {
    throw new Stop(i);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const str = () => {
    i++;
    while (i < n) {
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        i++;
        if (i >= n || !'"\\/bfnrtu'.includes(text[i] as string)) fail();
      } else if ((c as string).charCodeAt(0) < 32) fail();
      i++;
    }
    fail();
  };
  const num = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        str();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail();
      }
    }
    if (c === '"') return str();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return num();
  };
  try {
    value();
    ws();
    return i < n ? i : undefined;
  } catch (e) {
    if (e instanceof Stop) return e.at;
    throw e;
  }
}
