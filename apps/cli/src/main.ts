/** Entry point of the `adloom` command, and of its ads' thread (adsThread.ts). */
import { isMainThread } from 'node:worker_threads';
import { runAdsThread } from './adsThread.ts';
import { runCli } from './cli.ts';

if (isMainThread) {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    stderrIsTerminal: process.stderr.isTTY,
    adsThreadScript: new URL(import.meta.url),
  });
} else {
  runAdsThread();
}
