/**
 * Cost of the text rule (NUL and unpaired surrogates, the contract's findBadText) on a
 * 200k-row feed save body, next to the JSON.parse the save pays anyway.
 *
 *   npx tsx apps/server/bench/text-rule.bench.ts
 *
 * The bulk saves scan their raw JSON text for a `\u` escape first (mayHoldBadText) and walk the
 * parsed body only on a hit. Prints medians and, as the last line, one JSON object.
 */
import { findBadText, mayHoldBadText } from '@adloom/contract';

const ROWS = 200_000;
const rows = Array.from({ length: ROWS }, (_, i) => ({
  id: `row-${i}`,
  root: `Running shoes ${i % 977}`,
  mod: 'cheap',
  var1: 'red',
  var2: 'Größe 42',
  var3: 'men',
  url: `https://shop.example.com/p/${i}?ref=ads`,
}));
const text = JSON.stringify({ name: 'Client', feeds: [{ name: 'Feed', rows }] });
const body: unknown = JSON.parse(text);

function medianMs(run: () => unknown, times: number): number {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return Math.round((samples[Math.floor(times / 2)] ?? 0) * 10) / 10;
}

const figures = {
  rows: ROWS,
  bodyMegabytes: Math.round(Buffer.byteLength(text) / 1e5) / 10,
  jsonParseMs: medianMs(() => JSON.parse(text), 5),
  textScanMs: medianMs(() => mayHoldBadText(text), 9),
  fullWalkMs: medianMs(() => findBadText(body), 9),
};
console.log(`200k-row save body, ${figures.bodyMegabytes} MB`);
console.log(`  JSON.parse                      ${figures.jsonParseMs} ms`);
console.log(`  scan of the text (the usual)    ${figures.textScanMs} ms`);
console.log(`  full walk (text with \\u escapes) ${figures.fullWalkMs} ms`);
console.log(JSON.stringify(figures));
