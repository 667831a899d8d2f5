import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answer header naming the server (its index in `targets`) that answered through the proxy. */
export const UPSTREAM_HEADER = 'x-adloom-upstream';

/** A reverse proxy on loopback that hands each request to the next server in turn. */
export interface RoundRobinProxy {
  url: string;
  /** Requests handed to each server so far, in the order of `targets`. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * Starts a round-robin HTTP proxy on 127.0.0.1 in front of `targets` (base URLs, e.g.
 * http://127.0.0.1:3001), as a deployment puts one in front of several servers. Like nginx by
 * default (`proxy_request_buffering on`) it reads a request's whole body before it picks a
 * server, so a server answering early (a 503 before it read a big save) is not seen by the
 * client as a reset connection; answers stream through. It adds `x-forwarded-for` (and
 * UPSTREAM_HEADER), and answers 502 in the API's error shape when the server it picked cannot
 * be reached. Used by the cluster and outage tests and the cluster benchmark.
 */
export async function startRoundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts = targets.map(() => 0);
  let next = 0;
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const index = next;
    next = (next + 1) % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = new URL(incoming.url ?? '/', targets[index]);
    const forwardedFor = [incoming.headers['x-forwarded-for'], incoming.socket.remoteAddress]
      .filter(Boolean)
      .join(', ');
    const { 'transfer-encoding': _chunked, ...headers } = incoming.headers;
    const upstream = httpRequest(
      target,
      {
        method: incoming.method,
        headers: {
          ...headers,
          ...(body.length > 0 ? { 'content-length': String(body.length) } : {}),
          host: target.host,
          'x-forwarded-for': forwardedFor,
        },
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, {
          ...answer.headers,
          [UPSTREAM_HEADER]: String(index),
        });
        answer.pipe(outgoing);
        // An answer cut off midway is cut off for the client too.
        answer.on('close', () => {
          if (!answer.complete) outgoing.destroy();
        });
      },
    );
    // A server that answered before reading the whole body (and closed the connection) makes
    // the rest of the write fail: the answer stands.
    upstream.on('error', () => {
      if (outgoing.headersSent) return;
      outgoing.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      outgoing.end(
        JSON.stringify({
          error: { code: 'bad_gateway', message: 'The proxy could not reach the server.' },
        }),
      );
    });
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
