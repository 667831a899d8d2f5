/** Entry point of the `adloom` command. */
import { runCli } from './cli.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  stderrIsTerminal: process.stderr.isTTY,
});
