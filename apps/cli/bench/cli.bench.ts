/**
 * The `adloom` command at scale: generated feeds of 50k, 100k, 400k and 1M rows through the
 * command as users run it (bin/adloom.js, which runs the compiled dist/adloom.cjs with the Node
 * flags of its first line), whole process, measured by /usr/bin/time:
 * wall time, CPU (user + system) and peak RSS. At 50k rows the straightforward implementation
 * (straightforward.ts, compiled the same way) runs too, both three times in turn, and the ratio of
 * their medians is printed. Templates: 4 keyword lines per row (one a negative) and one
 * 15-headline RSA fallback. The load average is
 * printed beside each run (the machine is shared), and the cores once: the command makes its ads
 * on a second thread, so its wall time depends on a second core. One untimed run on 2,000 rows
 * comes first (the command keeps V8's compiled code from it). Prints a table, then one JSON line.
 *
 * Then the account loop at --loop-rows (default 1M; 0 skips it): the same generation without its
 * build record (`--only` every output, which writes none) and with it, and `adloom plan` against
 * that record with the same inputs (nothing to change): wall, CPU, peak RSS, the record's size.
 *
 *   npx tsx apps/cli/bench/cli.bench.ts [--sizes 50000,100000] [--loop-rows 1000000]
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
import { BENCH_FEED_HEADER, BENCH_RSA, benchFeedLine } from './benchInputs.mjs';

const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const sizesArg = args.indexOf('--sizes');
const SIZES =
  sizesArg >= 0
    ? (args[sizesArg + 1] as string).split(',').map(Number)
    : [50_000, 100_000, 400_000, 1_000_000];
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

const CAMPAIGN = {
  name: 'Bench',
  type: 'search',
  const: 'Shoes',
  campaign: '{const} {mod}',
  adGroup: '{root} {mod}',
  keywords: [
    { keyword: '{root} {mod}', matchType: 'Broad' },
    { keyword: '{root} {mod}', matchType: 'Exact' },
    { keyword: '{root} {mod} {var1}', matchType: 'Phrase' },
    { keyword: '{root} {mod} cheap', matchType: 'Negative Broad' },
  ],
};
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
  const campaignFile = path.join(work, 'campaign.json');
  const rsaFile = path.join(work, 'rsa.json');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(campaignFile, JSON.stringify(CAMPAIGN));
  writeFileSync(rsaFile, JSON.stringify(BENCH_RSA));
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
      `${String(rows).padStart(9)}  ${what.padEnd(16)} wall ${run.wall.toFixed(2).padStart(6)} s  CPU ${run.cpu.toFixed(2).padStart(6)} s  peak RSS ${run.rssMb.toFixed(0).padStart(5)} MB  ${String(lines).padStart(8)} keyword lines  load ${run.load}`,
    );
  };
  const ratio: Record<string, number> = {};
  for (const rows of SIZES) {
    const feed = path.join(work, `feed-${rows}.csv`);
    await writeFeed(feed, rows);
    const out = path.join(work, `out-${rows}`);
    const runCommand = (): Run => {
      rmSync(out, { recursive: true, force: true });
      const run = timed([
        adloom,
        'generate',
        '--feed',
        feed,
        '--campaign',
        campaignFile,
        '--rsa',
        rsaFile,
        '--out',
        out,
        '--today',
        '20261126',
      ]);
      print(rows, 'adloom', run, countLines(path.join(out, 'keywords.csv')));
      return run;
    };
    if (rows !== RATIO_ROWS) {
      runCommand();
    } else {
      const plainOut = path.join(work, `plain-${rows}`);
      const runs: Run[] = [];
      const plainRuns: Run[] = [];
      for (let i = 0; i < RATIO_RUNS; i++) {
        runs.push(runCommand());
        rmSync(plainOut, { recursive: true, force: true });
        const p = timed([process.execPath, plain, feed, campaignFile, rsaFile, plainOut]);
        const lines = countLines(path.join(plainOut, 'keywords.csv'));
        print(rows, 'straightforward', p, lines);
        if (lines !== countLines(path.join(out, 'keywords.csv')))
          console.log('  (the two wrote different numbers of keyword lines)');
        plainRuns.push(p);
      }
      const median = (list: Run[], of: (r: Run) => number): number =>
        list.map(of).sort((a, b) => a - b)[list.length >> 1] as number;
      ratio.wall = median(plainRuns, (r) => r.wall) / median(runs, (r) => r.wall);
      ratio.cpu = median(plainRuns, (r) => r.cpu) / median(runs, (r) => r.cpu);
      console.log(
        `  ratio at ${rows} rows (medians of ${RATIO_RUNS} runs each): ${ratio.wall.toFixed(1)}x wall, ${ratio.cpu.toFixed(1)}x CPU`,
      );
    }
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
