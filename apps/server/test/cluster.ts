import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';
import { startCompiledServer, type ListeningServer, type OutputLog } from './server-process.ts';

/** Several compiled server processes on one PostgreSQL database, behind a round-robin proxy. */
export interface Cluster {
  /** The proxy's address: what a browser would use. */
  url: string;
  proxy: RoundRobinProxy;
  servers: ListeningServer[];
  /** The settings every server shares (DATABASE_URL, JWT_SECRET ...): a further server joins with them. */
  env: Record<string, string>;
  /** Sends every server SIGTERM and closes the proxy; answers the servers' exit codes. */
  stop(): Promise<(number | null)[]>;
}

/**
 * Starts `count` servers at once (as a deployment does) on `databaseUrl`, each with its own
 * DATA_DIR under `workDir` and the one JWT_SECRET they must share, trusting the proxy's
 * x-forwarded-for; `env` adds settings. `openLog` gives each server's output a copy.
 */
export async function startCluster(options: {
  databaseUrl: string;
  workDir: string;
  count: number;
  env?: Record<string, string>;
  openLog?: () => OutputLog;
}): Promise<Cluster> {
  const shared = {
    DATABASE_URL: options.databaseUrl,
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TRUST_PROXY: 'true',
    ...options.env,
  };
  const servers = await Promise.all(
    Array.from({ length: options.count }, (_, index) =>
      startCompiledServer(
        { ...shared, DATA_DIR: join(options.workDir, `server-${index}`) },
        options.openLog?.(),
      ),
    ),
  );
  const proxy = await startRoundRobinProxy(servers.map((server) => server.url));
  return {
    url: proxy.url,
    proxy,
    servers,
    env: shared,
    async stop() {
      for (const server of servers)
        if (server.child.exitCode === null) server.child.kill('SIGTERM');
      const codes = await Promise.all(servers.map((server) => server.exited));
      await proxy.close();
      return codes;
    },
  };
}
