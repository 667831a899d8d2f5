/**
 * The `adloom` command at scale: generated feeds through the command as users run it
 * (bin/adloom.js, which runs the compiled dist/adloom.cjs with the Node flags of its first line),
 * whole process, measured by /usr/bin/time: wall time, CPU (user + system) and peak RSS. The
 * generation runs write every output but the build record (`--only` the six outputs; the record
 * is measured by the account loop's runs below), as the straightforward implementation writes no
 * record either.
 *
 * Template shapes (benchInputs.mjs `SHAPES`, issue 39): `bench` (4 keyword lines a row, one
 * 15-headline RSA fallback, every row its own ad group), `mt` (`{mt}` ad groups: three a row,
 * Exact keywords as Negative Exact of the Broad group, 15 headlines in three fallbacks),
 * `big-group` (every row into one of 56 ad groups of one campaign) and `blocking-dropped`
 * (negatives that block their group's keywords, with `dropBlockingNegatives`).
 *
 * - The bench shape at each of --sizes (default 50k, 100k, 400k).
 * - At 50k rows the straightforward implementation (straightforward.ts, compiled by esbuild)
 *   beside the command on the `bench` and `mt` shapes: both three times in turn (A B A B A B),
 *   and the ratio of their medians.
 * - Every shape of --shapes (default all four) at --shape-rows (default 1M).
 *
 * The load average is printed beside each run (the machine is shared), and the cores once: the
 * command makes its ads on a second thread, so its wall time depends on a second core. One
 * untimed run on 2,000 rows comes first (the command keeps V8's compiled code from it). Prints a
 * table, then one JSON line.
 *
 * Then the account loop at --loop-rows (default 1M; 0 skips it): the same generation without its
 * build record (`--only` every output, which writes none) and with it, and `adloom plan` against
 * that record with the same inputs (nothing to change): wall, CPU, peak RSS, the record's size.
 *
 *   npx tsx apps/cli/bench/cli.bench.ts [--sizes 50000,100000] [--shapes mt,big-group]
 *     [--shape-rows 1000000] [--loop-rows 1000000]
 */
import { spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BENCH_FEED_HEADER, benchFeedLine, SHAPES } from './benchInputs.mjs';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const sizesArg = args.indexOf('--sizes');
const SIZES =
  sizesArg >= 0
    ? (args[sizesArg + 1] as string).split(',').map(Number)
    : [50_000, 100_000, 400_000];
type ShapeName = keyof typeof SHAPES;
const shapesArg = args.indexOf('--shapes');
const SHAPE_NAMES = (
  shapesArg >= 0 ? (args[shapesArg + 1] as string).split(',') : Object.keys(SHAPES)
) as ShapeName[];
for (const name of SHAPE_NAMES)
  if (!(name in SHAPES))
    throw new Error(`Unknown shape ${name}: ${Object.keys(SHAPES).join(', ')}`);
const shapeRowsArg = args.indexOf('--shape-rows');
/** Feed rows of the shapes' runs. */
const SHAPE_ROWS = shapeRowsArg >= 0 ? Number(args[shapeRowsArg + 1]) : 1_000_000;
/** The shapes the straightforward implementation runs beside the command. */
const RATIO_SHAPES: ShapeName[] = ['bench', 'mt'];
/** Every output but the build record. */
const ONLY = ['--only', 'campaigns,ad-groups,keywords,negatives,rsa,report'];
const loopArg = args.indexOf('--loop-rows');
/** Feed rows of the account loop's runs (0: none). */
const LOOP_ROWS = loopArg >= 0 ? Number(args[loopArg + 1]) : 1_000_000;
/** The size at which the straightforward implementation runs beside the command. */
const RATIO_ROWS = 50_000;
/**
 * Runs of each program at that size, in turn: the ratio is of their medians (one run of a
 * fraction of a second moves by 10% with whatever else the machine does).
 */
const RATIO_RUNS = 3;

async function writeFeed(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  let chunk = BENCH_FEED_HEADER;
  for (let i = 0; i < rows; i++) {
    chunk += benchFeedLine(i);
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'close');
}

interface Run {
  wall: number;
  cpu: number;
  rssMb: number;
  load: string;
}

/** One whole process under /usr/bin/time. */
function timed(command: string[]): Run {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', ...command], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${command.join(' ')} failed:\n${r.stderr}`);
  return {
    wall: Number(m[1]),
    cpu: Number(m[2]) + Number(m[3]),
    rssMb: Number(m[4]) / 1024,
    load,
  };
}

function countLines(file: string): number {
  let n = 0;
  const text = readFileSync(file, 'latin1');
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

const work = mkdtempSync(path.join(os.tmpdir(), 'adloom-cli-bench-'));
try {
  const { writeFileSync } = await import('node:fs');
  const shapeFiles = {} as Record<ShapeName, { campaign: string; rsa: string }>;
  for (const [name, shape] of Object.entries(SHAPES) as Array<
    [ShapeName, (typeof SHAPES)[ShapeName]]
  >) {
    const files = {
      campaign: path.join(work, `campaign-${name}.json`),
      rsa: path.join(work, `rsa-${name}.json`),
    };
    writeFileSync(files.campaign, JSON.stringify(shape.campaign));
    writeFileSync(files.rsa, JSON.stringify(shape.rsa));
    shapeFiles[name] = files;
  }
  const campaignFile = shapeFiles.bench.campaign;
  const rsaFile = shapeFiles.bench.rsa;
  // Both programs compiled before any run: the command by its own build, the other by esbuild.
  const adloom = path.join(cliRoot, 'bin', 'adloom.js');
  // A first generation keeps V8's compiled code (bin/compiled.cjs), as any earlier run on the
  // machine has: the runs timed are the runs a scheduled job makes every day after its first.
  const warmFeed = path.join(work, 'feed-warm.csv');
  await writeFeed(warmFeed, 2_000);
  const warm = spawnSync(adloom, [
    'generate',
    '--feed',
    warmFeed,
    '--campaign',
    campaignFile,
    '--rsa',
    rsaFile,
    '--out',
    path.join(work, 'out-warm'),
    '--today',
    '20261126',
  ]);
  if (warm.status !== 0) throw new Error(`The warm-up run failed:\n${warm.stderr}`);
  const plain = path.join(work, 'straightforward.mjs');
  await build({
    entryPoints: [path.join(cliRoot, 'bench', 'straightforward.ts')],
    outfile: plain,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });

  console.log(`${os.availableParallelism()} cores`);
  const results: Array<Record<string, number | string>> = [];
  const print = (rows: number, what: string, run: Run, lines: number) => {
    results.push({
      rows,
      what,
      wall: run.wall,
      cpu: run.cpu,
      rssMb: Math.round(run.rssMb),
      lines,
      load: run.load,
    });
    console.log(
      `${String(rows).padStart(9)}  ${what.padEnd(32)} wall ${run.wall.toFixed(2).padStart(6)} s  CPU ${run.cpu.toFixed(2).padStart(6)} s  peak RSS ${run.rssMb.toFixed(0).padStart(5)} MB  ${String(lines).padStart(8)} keyword lines  load ${run.load}`,
    );
  };
  const ratio: Record<string, { wall: number; cpu: number }> = {};
  /** One timed run of the command on `feed` with `shape`'s templates into `out`. */
  const runCommand = (rows: number, shape: ShapeName, feed: string, out: string): Run => {
    rmSync(out, { recursive: true, force: true });
    const files = shapeFiles[shape];
    const run = timed([
      adloom,
      'generate',
      '--feed',
      feed,
      '--campaign',
      files.campaign,
      '--rsa',
      files.rsa,
      '--out',
      out,
      '--today',
      '20261126',
      ...ONLY,
    ]);
    print(
      rows,
      shape === 'bench' ? 'adloom' : `adloom ${shape}`,
      run,
      countLines(path.join(out, 'keywords.csv')),
    );
    return run;
  };
  const median = (list: Run[], of: (r: Run) => number): number =>
    list.map(of).sort((a, b) => a - b)[list.length >> 1] as number;
  for (const rows of SIZES) {
    const feed = path.join(work, `feed-${rows}.csv`);
    await writeFeed(feed, rows);
    const out = path.join(work, `out-${rows}`);
    if (rows !== RATIO_ROWS) runCommand(rows, 'bench', feed, out);
    else
      for (const shape of RATIO_SHAPES) {
        const plainOut = path.join(work, `plain-${rows}`);
        const runs: Run[] = [];
        const plainRuns: Run[] = [];
        const files = shapeFiles[shape];
        for (let i = 0; i < RATIO_RUNS; i++) {
          runs.push(runCommand(rows, shape, feed, out));
          rmSync(plainOut, { recursive: true, force: true });
          const p = timed([process.execPath, plain, feed, files.campaign, files.rsa, plainOut]);
          const lines = countLines(path.join(plainOut, 'keywords.csv'));
          print(rows, `straightforward ${shape}`, p, lines);
          for (const name of [
            'keywords.csv',
            'negatives.csv',
            'ad-groups.csv',
            'responsive-search-ads.csv',
          ])
            if (countLines(path.join(plainOut, name)) !== countLines(path.join(out, name)))
              console.log(`  (the two wrote different numbers of lines in ${name})`);
          plainRuns.push(p);
        }
        ratio[shape] = {
          wall: median(plainRuns, (r) => r.wall) / median(runs, (r) => r.wall),
          cpu: median(plainRuns, (r) => r.cpu) / median(runs, (r) => r.cpu),
        };
        console.log(
          `  ratio at ${rows} rows, ${shape} (medians of ${RATIO_RUNS} runs each): ${ratio[shape].wall.toFixed(1)}x wall, ${ratio[shape].cpu.toFixed(1)}x CPU`,
        );
        rmSync(plainOut, { recursive: true, force: true });
      }
    rmSync(out, { recursive: true, force: true });
    rmSync(feed, { force: true });
  }
  if (SHAPE_ROWS > 0 && SHAPE_NAMES.length > 0) {
    const feed = path.join(work, `feed-shapes.csv`);
    await writeFeed(feed, SHAPE_ROWS);
    const out = path.join(work, 'out-shapes');
    for (const shape of SHAPE_NAMES) runCommand(SHAPE_ROWS, shape, feed, out);
    rmSync(out, { recursive: true, force: true });
    rmSync(feed, { force: true });
  }
  const loop: Array<Record<string, number | string>> = [];
  if (LOOP_ROWS > 0) {
    const feed = path.join(work, `feed-loop.csv`);
    await writeFeed(feed, LOOP_ROWS);
    const inputs = ['--feed', feed, '--campaign', campaignFile, '--rsa', rsaFile];
    const dirs = ['loop-without', 'loop-with', 'loop-plan'].map((d) => path.join(work, d));
    const steps: Array<[string, string[]]> = [
      [
        'generate, no record',
        ['generate', ...inputs, '--only', 'campaigns,ad-groups,keywords,negatives,rsa,report'],
      ],
      ['generate + record', ['generate', ...inputs]],
      ['plan (own record)', ['plan', ...inputs, '--previous', dirs[1]!]],
    ];
    steps.forEach(([what, command], i) => {
      const run = timed([adloom, ...command, '--out', dirs[i]!, '--today', '20261126']);
      const record = path.join(dirs[i]!, 'adloom-build.json');
      const recordMb = existsSync(record) ? statSync(record).size / 1e6 : 0;
      loop.push({ rows: LOOP_ROWS, what, ...run, recordMb: Math.round(recordMb) });
      console.log(
        `${String(LOOP_ROWS).padStart(9)}  ${what.padEnd(20)} wall ${run.wall.toFixed(2).padStart(6)} s  CPU ${run.cpu.toFixed(2).padStart(6)} s  peak RSS ${run.rssMb.toFixed(0).padStart(5)} MB  record ${recordMb.toFixed(0)} MB  load ${run.load}`,
      );
      if (i === 0) rmSync(dirs[0]!, { recursive: true, force: true });
    });
  }
  mkdirSync(work, { recursive: true });
  console.log(
    JSON.stringify({ runs: results, ratioAt50k: ratio, loop, cores: os.availableParallelism() }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
