import { buildHarness, startHarnessServer } from './harnessServer.ts';

/** Builds the harness, serves it on a free port and hands the address to the tests. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  buildHarness();
  const server = await startHarnessServer();
  process.env.GRID_HARNESS_URL = server.url;
  return () => server.close();
}
