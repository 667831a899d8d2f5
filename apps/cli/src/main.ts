/**
 * Entry point of the `adloom` command, and of its ads' thread (adsThread.ts). bin/compiled.cjs
 * loads the compiled file and calls `main` on each thread.
 */
import { isMainThread } from 'node:worker_threads';
import { runAdsThread } from './adsThread.ts';
import { runCli } from './cli.ts';

/**
 * Runs the command, or on the ads' thread waits for its job. `threadScript` starts an ads'
 * thread. `keepCompiled`, when given, keeps the thread's compiled code for the next runs (V8's code
 * cache, see bin/compiled.cjs): it is called once a run has done its work (a generation), so the
 * code kept is the code a generation runs, not the help's.
 */
export function main(threadScript: URL, keepCompiled?: () => void): void {
  if (!isMainThread) {
    runAdsThread(keepCompiled);
    return;
  }
  const args = process.argv.slice(2);
  void runCli(args, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stderrIsTerminal: process.stderr.isTTY,
    adsThreadScript: threadScript,
  }).then((code) => {
    process.exitCode = code;
    if (code === 0 && args[0] === 'generate') keepCompiled?.();
  });
}
