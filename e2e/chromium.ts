/**
 * System Chromium (Playwright cannot download browsers on these machines): the browser the
 * benchmarks and the screenshot script measure, as people run it.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests' Chromium: Debian's `chromium-headless-shell`, the same engine and version
 * without the full browser's headless window and its compositing: the journeys take about a
 * third less CPU on it (docs/decisions.md, "Each suite runs once, side by side").
 */
export const TEST_CHROMIUM_PATH =
  process.env.TEST_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/** Launch flags that work on these machines: headless, as root, with no network of its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
