import { test as base } from '../fixtures.ts';
import { startGoogleStandIn, type GoogleStandIn } from '../../apps/server/test/google-stand-in.ts';
import { startServer, type RunningServer } from './server.ts';

/** The Google stand-in and an Adloom server configured against it. */
export interface GoogleStack {
  standIn: GoogleStandIn;
  server: RunningServer;
}

/**
 * Journeys against a server with Google Sheets set up: one Google stand-in on loopback and one
 * Adloom server pointed at it per worker (APP_URL is the server's own address, so the consent
 * page sends the browser back to it). Retries wait milliseconds, not seconds.
 */
export const test = base.extend<object, { google: GoogleStack }>({
  google: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const standIn = await startGoogleStandIn();
      const server = await startServer({
        env: { ...standIn.settings, GOOGLE_RETRY_BASE_MS: '5' },
      });
      try {
        await use({ standIn, server });
      } finally {
        await server.stop();
        await standIn.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ google }, use) => use(google.server.url),
});

/** A tab's rows as a person sees them: trailing empty cells and rows left out. */
export function sheetCells(standIn: GoogleStandIn, spreadsheetId: string, tab = 0): string[][] {
  const rows = standIn.spreadsheet(spreadsheetId).tabs[tab]!.rows.map((row) => {
    const cells = [...row];
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    return cells;
  });
  while (rows.length > 0 && rows[rows.length - 1]!.length === 0) rows.pop();
  return rows;
}
