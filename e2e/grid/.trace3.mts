import { chromium } from '@playwright/test';
import { CHROMIUM, startHarnessServer } from './harnessServer.ts';
const server = await startHarnessServer();
const browser = await chromium.launch(CHROMIUM);
const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
await page.goto(server.url);
await page.evaluate(() => (window as any).__harness.loadSample(100000));
await page.waitForTimeout(1000);
await browser.startTracing(page, {
  categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
});
const times = await page.evaluate(async () => {
  const scroller = document.querySelector('[role="grid"]') as HTMLElement;
  const out: number[] = [];
  for (let i = 1; i <= 20; i += 1) {
    const s = performance.now();
    scroller.scrollTop = (scroller.scrollHeight * i) / 20;
    await new Promise((r) => requestAnimationFrame(r));
    out.push(Math.round(performance.now() - s));
  }
  return out;
});
const buf = await browser.stopTracing();
console.log('frames', times.join(' '));
const trace = JSON.parse(buf.toString());
const events = (trace.traceEvents ?? trace).filter((e: any) => e.ph === 'X' && e.dur);
const tasks = events
  .filter((e: any) => e.name === 'RunTask' && e.dur > 30000)
  .sort((a: any, b: any) => b.dur - a.dur)
  .slice(0, 5);
for (const t of tasks) {
  const inside = events.filter(
    (e: any) => e.tid === t.tid && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e !== t,
  );
  const sums = new Map<string, number>();
  for (const e of inside) sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
  console.log(
    `task ${(t.dur / 1000).toFixed(0)}ms:`,
    [...sums.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 9)
      .map(([k, v]) => `${k}=${v.toFixed(0)}`)
      .join(', '),
  );
}
await browser.close();
await server.close();
