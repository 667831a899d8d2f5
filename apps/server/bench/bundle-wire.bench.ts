/**
 * The signed-in bundle call of a client with a 100k-row feed, as it leaves the server: its bytes
 * on the wire with brotli, with gzip and as it is, and the time the server takes for each (the
 * compression is most of the difference). On the embedded database, through Fastify's inject
 * (the bytes are the same as over a socket; the network is not what is measured).
 *
 *   npx tsx apps/server/bench/bundle-wire.bench.ts [--rows 100000] [--runs 5]
 *
 * Prints a table and, as the last line, one JSON object with the figures. Target: < 2 MB on the
 * wire (issue 20).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { API, clientPath } from '@adloom/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createPgliteDb, openPglite, runMigrations } from '../src/db/index.ts';

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);

const BRANDS = ['Nike', 'Adidas', 'New Balance', 'Asics', 'Puma', 'Reebok', 'Saucony', 'Hoka'];
const PRODUCTS = ['running shoes', 'trail shoes', 'sneakers', 'boots', 'sandals', 'socks'];
const COLOURS = ['black', 'white', 'red', 'blue', 'green', 'grey', 'navy', 'pink'];

/**
 * Product-feed-like rows: repeated words (brands, kinds, colours) and a distinct URL per row;
 * with ids as the web app makes them (`row-<time and random>-<counter>`, feedStore.ts), or none
 * (the server makes them).
 */
function productRows(count: number, withIds: boolean) {
  const prefix = `row-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}-`;
  return Array.from({ length: count }, (_, i) => {
    const brand = BRANDS[i % BRANDS.length]!;
    const product = PRODUCTS[Math.floor(i / BRANDS.length) % PRODUCTS.length]!;
    return {
      ...(withIds ? { id: prefix + (i + 1).toString(36) } : {}),
      root: `${brand} ${i % 997}`,
      mod: product,
      var1: COLOURS[(i * 7) % COLOURS.length]!,
      var2: `size ${36 + (i % 12)}`,
      var3: i % 3 === 0 ? 'sale' : '',
      url: `https://shop.example.com/${brand.toLowerCase().replace(' ', '-')}/${product.replace(' ', '-')}/${i}`,
    };
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'adloom-bench-wire-'));
const db = createPgliteDb(await openPglite({ dataDir: join(dir, 'pglite') }));
await runMigrations(db);
const app = await buildApp({
  config: loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dir,
    JWT_SECRET: 'bench-'.repeat(8),
    LOG_LEVEL: 'silent',
    WEB_DIST: join(dir, 'no-web'),
  }),
  db,
});
try {
  const call = async (method: 'GET' | 'POST', url: string, headers = {}, body?: unknown) => {
    const answer = await app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
    if (answer.statusCode >= 300)
      throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body.slice(0, 300)}`);
    return answer;
  };
  const registered = await call('POST', API.users.register, undefined, {
    email: 'wire@example.com',
    password: 'bench password',
    'password-confirm': 'bench password',
  });
  const auth = { authorization: `Bearer ${(registered.json() as { token: string }).token}` };

  const figures: Record<string, Record<string, { bytes: number; serverMs: number }>> = {};
  for (const [client, withIds] of [
    ['webIds', true],
    ['serverIds', false],
  ] as const) {
    await call('POST', API.app.clients, auth, { name: client });
    await call('POST', API.app.feeds, auth, {
      name: client,
      feeds: [{ name: 'products', rows: productRows(ROWS, withIds) }],
    });
    figures[client] = {};
    for (const [label, encoding] of [
      ['identity', 'identity'],
      ['gzip', 'gzip'],
      ['br', 'br, gzip'],
    ] as const) {
      const times: number[] = [];
      let bytes = 0;
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const answer = await call('GET', clientPath(client), {
          ...auth,
          'accept-encoding': encoding,
        });
        times.push(performance.now() - started);
        if ((answer.headers['content-encoding'] ?? 'identity') !== label)
          throw new Error(`asked for ${encoding}, got ${answer.headers['content-encoding']}`);
        bytes = answer.rawPayload.length;
      }
      figures[client][label] = { bytes, serverMs: Math.round(median(times)) };
      console.log(
        `  ${ROWS} rows, ${client === 'webIds' ? "the web app's row ids" : "the server's row ids"}, ${label.padEnd(8)} ${(bytes / 1e6).toFixed(2).padStart(6)} MB on the wire   ${Math.round(median(times))} ms (median of ${RUNS})`,
      );
    }
  }
  console.log(JSON.stringify({ rows: ROWS, ...figures }));
} finally {
  await app.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
