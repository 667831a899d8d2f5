/**
 * State a module keeps for the life of the page (a cache, the one store of a feature, a counter)
 * says here how to go back to how the page started. The app never calls `resetPageState`; the
 * web test setup does after every test file, so that the files share one module graph (no
 * isolation, set up once) and each still starts from a fresh page.
 */
const resets: (() => void)[] = [];

/** Registers how to put a module's page-long state back as at the page's start. */
export function keptForPage(reset: () => void): void {
  resets.push(reset);
}

/** Puts every module's page-long state back as at the page's start. */
export function resetPageState(): void {
  for (const reset of resets) reset();
}
