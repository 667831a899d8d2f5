import gridSetup from './grid/globalSetup.ts';
import { prepareDataTemplate } from './support/server.ts';

/**
 * Before the browser tests: the grid's harness (built and served), and the data folder every
 * journey's server starts from.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const [closeHarness, removeTemplate] = await Promise.all([gridSetup(), prepareDataTemplate()]);
  return async () => {
    removeTemplate();
    await closeHarness();
  };
}
