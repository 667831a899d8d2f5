import { test as base, expect } from '@playwright/test';
import { startMailbox, type Mailbox } from './support/mailbox.ts';
import { startServer, type RunningServer } from './support/server.ts';

/** What every journey gets: the running app and the mailbox that catches its mail. */
interface StackFixtures {
  stack: { server: RunningServer; mailbox: Mailbox };
}

/** Unique addresses per test, so journeys never collide. */
let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

/**
 * One SMTP capture server and one real Adloom server (fresh data folder) per worker; the
 * journeys' baseURL points at it.
 */
export const test = base.extend<{ mailbox: Mailbox }, StackFixtures>({
  stack: [
    // Playwright reads the fixture's dependencies from this (empty) pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mailbox = await startMailbox();
      const server = await startServer({ smtpUrl: `smtp://127.0.0.1:${mailbox.port}` });
      try {
        await use({ server, mailbox });
      } finally {
        await server.stop();
        await mailbox.close();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ stack }, use) => use(stack.server.url),
  mailbox: async ({ stack }, use) => use(stack.mailbox),
});

export { expect };

/**
 * The journeys' `test` against a server of their own started with `env` (one per worker, as the
 * shared one): `server` names it, and the baseURL points at it.
 */
export function testOnServer(env: Record<string, string>) {
  return test.extend<object, { server: RunningServer }>({
    server: [
      // Playwright reads the fixture's dependencies from this (empty) pattern.
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const server = await startServer({ env });
        try {
          await use(server);
        } finally {
          await server.stop();
        }
      },
      { scope: 'worker', timeout: 120_000 },
    ],
    baseURL: async ({ server }, use) => use(server.url),
  });
}
