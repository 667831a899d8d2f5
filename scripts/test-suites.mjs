// The project's test suites: what each runs, on which Node.js, and what it waits for. One list
// for the test command (test.mjs) and for the list of test names (test-names.mjs).
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Which Node.js runs a suite: `24` is Node.js 24 LTS (the recommended runtime, from the npm
 * registry into .tmp/node24 unless the machine's Node.js is already 24); `machine` is the
 * Node.js that runs the test command (20 on these machines). Suites run once, on 24; the
 * `machine` runs repeat only the suites whose result can depend on the runtime (see
 * docs/decisions.md, "Each suite runs once").
 */
export const NODE24_VERSION = '24.21.0';

/**
 * @typedef {{
 *   name: string,
 *   kind: 'check' | 'vitest' | 'playwright',
 *   node: '24' | 'machine',
 *   cwd?: string,
 *   cmd?: string,
 *   args?: string[],
 *   env?: Record<string, string>,
 *   cores: number,
 *   after?: string[],
 *   needs?: string[],
 *   last?: boolean,
 *   config?: string,
 * }} Suite
 */

/**
 * The suites in the order they start when cores are free (the longest first among those that
 * can start). `cores` is how many cores a suite keeps busy: its worker count. A suite starts
 * after the suites named in `after` have ended, and is not run when one of `needs` failed.
 * @param {{ cores: number }} machine
 * @returns {Suite[]}
 */
export function suites({ cores }) {
  const vitest = (name, cwd, node, env = {}, workers = 1) => ({
    name,
    kind: 'vitest',
    node,
    cwd,
    env,
    cores: workers,
  });
  const check = (name, cmd, args) => ({ name, kind: 'check', node: '24', cmd, args, cores: 1 });
  const playwright = (name, config, workers) => ({
    name,
    kind: 'playwright',
    node: '24',
    config,
    cores: workers,
    env: { ADLOOM_E2E_WORKERS: String(workers), ADLOOM_E2E_RETRIES: '1' },
    after: ['build'],
    needs: ['build'],
    last: true,
  });
  return [
    // Once, on Node.js 24: the build first (the server's process tests run the compiled server,
    // and the journeys the built app), then the longest first.
    check('build', 'npm', ['run', 'build', '--silent']),
    {
      ...vitest('server-embedded', 'apps/server', '24', { ADLOOM_TEST_DB: 'pglite' }),
      after: ['build'],
    },
    {
      ...vitest('server-postgres', 'apps/server', '24', { ADLOOM_TEST_DB: 'postgres' }),
      after: ['build'],
    },
    check('typecheck', 'node', ['scripts/typecheck.mjs']),
    vitest('web', 'apps/web', '24'),
    // Again on the machine's Node.js: what can differ between runtimes.
    vitest('cli-runtime@machine', 'apps/cli', 'machine', { ADLOOM_TEST_FILES: 'runtime' }),
    check('format', 'npx', ['prettier', '--check', '.']),
    check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']),
    vitest('server-runtime@machine', 'apps/server', 'machine', {
      ADLOOM_TEST_DB: 'pglite',
      ADLOOM_TEST_FILES: 'runtime',
    }),
    vitest('engine', 'packages/engine', '24'),
    vitest('cli', 'apps/cli', '24'),
    vitest('server', 'apps/server', '24', { ADLOOM_TEST_DB: 'none' }),
    check('deadcode', 'npx', ['knip', '--no-progress']),
    vitest('contract', 'packages/contract', '24'),
    // Last: they start once every other suite has started, and take the cores as they free up
    // (the journeys and the grid's tests, one Playwright run).
    // One more worker than cores: a journey waits on its server, the mail and the page's timers,
    // so two workers kept two cores only about 80 % busy (vmstat); three keep them about 95 %.
    playwright('browser', 'e2e/playwright.config.ts', cores + 1),
  ];
}

/** Where a suite's report and log go. */
export const reportDir = join(root, '.tmp', 'test-reports');
