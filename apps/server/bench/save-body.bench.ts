/**
 * What preparing one feed save body costs in memory and time in a save worker thread (issue
 * 37: at most about twice the body), without the database: the process's peak RSS above its RSS
 * before, sampled every 5 ms from the event loop while the worker works.
 *
 *   npx tsx apps/server/bench/save-body.bench.ts [--mb 20] [--path rows|whole]
 *
 * `--path whole` writes one letter of the client's name as a `\u` escape, which sends the body
 * down the whole-body path (JSON.parse of the text, as before the row-by-row path).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSaveWorkers } from '../src/services/save-workers.ts';

const { values: args } = parseArgs({
  options: { mb: { type: 'string', default: '20' }, path: { type: 'string', default: 'rows' } },
});
const rowCount = Math.round((Number(args.mb) * 1_000_000) / 270);
function body(): Uint8Array {
  const rows = Array.from({ length: rowCount }, (_, i) => ({
    root: `brand ${i} ${'r'.repeat(15)}`,
    mod: `model ${i % 977} ${'m'.repeat(15)}`,
    var1: `colour ${i % 13} ${'c'.repeat(15)}`,
    var2: `size ${i % 7} ${'s'.repeat(15)}`,
    var3: `kind ${i % 5} ${'k'.repeat(15)}`,
    url: `https://shop.example.com/p/${i}/${'u'.repeat(40)}`,
  }));
  const name = args.path === 'whole' ? 'Big\\u0041' : 'Big';
  return Buffer.from(`{"name":"${name}","feeds":${JSON.stringify([{ name: 'p', rows }])}}`);
}

const rssMiB = () =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const workers = createSaveWorkers(1);
// A first small save starts the worker, so its start is not counted.
await workers.prepare('feeds', [Buffer.from('{"name":"a","feeds":[]}')] as never, undefined);
/** The body in 64 KiB pieces, as from a socket (the whole is let go once cut). */
function cut(bytes: Uint8Array): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) pieces.push(bytes.slice(at, at + 65_536));
  return pieces;
}
const pieces = cut(body());
const bodyMiB = pieces.reduce((sum, piece) => sum + piece.length, 0) / 1024 / 1024;
await sleep(500);
const before = rssMiB();
let peak = before;
const timer = setInterval(() => (peak = Math.max(peak, rssMiB())), 5);
const started = performance.now();
async function* stream() {
  while (pieces.length > 0) yield pieces.shift()!;
}
const save = await workers.prepare('feeds', stream(), Math.round(bodyMiB * 1024 * 1024));
const ms = Math.round(performance.now() - started);
clearInterval(timer);
const aboveMiB = Math.round(peak - before);
console.log(
  `${args.path}: ${bodyMiB.toFixed(1)} MiB body, ${save.feeds[0]!.rowCount} rows, ${ms} ms; ` +
    `peak RSS ${Math.round(before)} -> ${Math.round(peak)} MiB: +${aboveMiB} MiB, ${(aboveMiB / bodyMiB).toFixed(1)}x the body`,
);
await workers.stop();
