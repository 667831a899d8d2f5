import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { API } from '@adloom/contract';
import { loadConfig } from '../src/config.ts';
import { startTestApp, type TestApp } from './helpers.ts';

/** An HTTP answer read off a raw socket. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A raw connection to the listening app: what we write, and everything the server sends back. */
interface RawConnection {
  socket: Socket;
  /** Resolves with the first complete answer (head plus a Content-Length body). */
  answer: Promise<RawAnswer>;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
}

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

function parseAnswer(text: string): RawAnswer | undefined {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(headEnd + 4);
  const length = Number(headers['content-length'] ?? 0);
  if (Buffer.byteLength(body) < length) return undefined;
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: body && headers['content-type']?.includes('json') ? JSON.parse(body) : body,
  };
}

/** Opens a socket and sends the request head; the body is written by the test, in parts. */
function openRequest(
  port: number,
  head: { method: string; path: string; headers: Record<string, string> },
): RawConnection {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {
    // The server may reset a connection whose body it did not read: the answer was read already.
  });
  let received = '';
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const parsed = parseAnswer(received);
      if (parsed) resolve(parsed);
    });
    socket.on('close', () => reject(new Error(`closed without an answer: ${received}`)));
  });
  answer.catch(() => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const lines = [`${head.method} ${head.path} HTTP/1.1`, 'host: 127.0.0.1'];
  for (const [name, value] of Object.entries(head.headers)) lines.push(`${name}: ${value}`);
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  return { socket, answer, closed };
}

describe('the HTTP edge on a real socket', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('refuses an anonymous 47 MB body with 401 before reading it, and closes the connection', async () => {
    t = await startTestApp();
    const port = await listen(t);
    const connection = openRequest(port, {
      method: 'POST',
      path: API.app.feeds,
      headers: { 'content-type': 'application/json', 'content-length': String(47 * 1024 * 1024) },
    });
    connection.socket.write(`{"name":"C","feeds":[${'{"name":"f"},'.repeat(300)}`); // ~4 KB
    const answer = await connection.answer;
    // Only ~4 KB of the 47 MB were sent: the answer came without the rest of the body.
    expect(connection.socket.bytesWritten).toBeLessThan(8 * 1024);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: 'unauthorized' } });
    expect(answer.headers.connection).toBe('close');
    await connection.closed;
  });

  it('refuses an anonymous body on every kind of authed route before reading it', async () => {
    t = await startTestApp();
    const port = await listen(t);
    for (const path of [
      API.app.clients,
      API.feedback,
      API.users.delete,
      API.app.saveRsaTemplates,
    ]) {
      const connection = openRequest(port, {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'content-length': '1000000' },
      });
      connection.socket.write('{"name":');
      const answer = await connection.answer;
      expect([path, answer.status, answer.headers.connection]).toEqual([path, 401, 'close']);
      await connection.closed;
    }
  });

  it('still serves a signed-in call of normal size, keeping the connection open', async () => {
    t = await startTestApp();
    const { token } = await t.signUp();
    const port = await listen(t);
    const body = JSON.stringify({ name: 'Acme' });
    const connection = openRequest(port, {
      method: 'POST',
      path: API.app.clients,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    connection.socket.write(body);
    const answer = await connection.answer;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ name: 'Acme', clients: ['Acme'] });
    expect(answer.headers.connection).toBe('keep-alive');
    connection.socket.destroy();
  });

  it('refuses a body over the small limit from its Content-Length, before reading it', async () => {
    t = await startTestApp();
    const port = await listen(t);
    const connection = openRequest(port, {
      method: 'POST',
      path: API.users.login,
      headers: { 'content-type': 'application/json', 'content-length': String(65 * 1024) },
    });
    connection.socket.write('{"email":"a@example.com","password":"');
    const answer = await connection.answer;
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({
      error: {
        code: 'payload_too_large',
        message: 'The request body is larger than the limit of 64 KiB.',
      },
    });
    expect(answer.headers.connection).toBe('close');
    await connection.closed;
  });

  it('gives the feed, list and template saves the large limit, and names it in the 413', async () => {
    t = await startTestApp({ bodyLimitBytes: 1024 * 1024, smallBodyLimitBytes: 2048 });
    const { token } = await t.signUp();
    await t.request('POST', API.app.clients, { token, body: { name: 'C' } });
    const rows = Array.from({ length: 200 }, (_, i) => ({ root: `r${i}` }));
    const feeds = await t.request('POST', API.app.feeds, {
      token,
      body: { name: 'C', feeds: [{ name: 'f', rows }] },
    });
    expect(feeds.status).toBe(200);
    const lists = await t.request('POST', API.app.lists, {
      token,
      body: { feeds: [{ name: 'l', dataType: 'list', rows }] },
    });
    expect(lists.status).toBe(200);
    const longMessage = await t.request('POST', API.feedback, {
      token,
      body: { type: 'Idea', message: 'x'.repeat(3000) },
    });
    expect(longMessage.status).toBe(413);
    expect(longMessage.body.error.message).toBe(
      'The request body is larger than the limit of 2 KiB.',
    );
    const tooBig = await t.request('POST', API.app.feeds, {
      token,
      body: { name: 'C', feeds: [{ name: 'f', rows: 'x'.repeat(1024 * 1024) }] },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.message).toBe('The request body is larger than the limit of 1 MiB.');
  });

  it('cuts off a body that stops arriving with 408 request_timeout and closes the connection', async () => {
    t = await startTestApp({ bodyIdleTimeoutMs: 200 });
    const port = await listen(t);
    const connection = openRequest(port, {
      method: 'POST',
      path: API.users.login,
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    connection.socket.write('{"email":"a@example.com","password":"');
    const answer = await connection.answer;
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({
      error: {
        code: 'request_timeout',
        message: 'The request body stopped arriving. Please try again.',
      },
      type: 'error',
      message: 'The request body stopped arriving. Please try again.',
    });
    expect(answer.headers.connection).toBe('close');
    await connection.closed;
  });

  it('cuts off a body that trickles past the overall cap with 408', async () => {
    t = await startTestApp({ bodyIdleTimeoutMs: 60_000, requestTimeoutMs: 300 });
    const port = await listen(t);
    const connection = openRequest(port, {
      method: 'POST',
      path: API.users.login,
      headers: { 'content-type': 'application/json', 'content-length': '60000' },
    });
    // One byte at a time, each well inside the idle timeout, until the server answers.
    const trickle = setInterval(() => connection.socket.write(' '), 20);
    try {
      const answer = await connection.answer;
      expect(answer.status).toBe(408);
      expect(answer.body).toMatchObject({
        error: {
          code: 'request_timeout',
          message: 'The request body took too long to arrive. Please try again.',
        },
      });
      await connection.closed;
    } finally {
      clearInterval(trickle);
    }
  });

  it('logs a client that hangs up mid-body as such, not as the database being unavailable', async () => {
    const lines: string[] = [];
    let onLine: (() => void) | undefined;
    const logStream = {
      write(line: string) {
        lines.push(line);
        onLine?.();
      },
    };
    t = await startTestApp({ logLevel: 'info' }, { logStream });
    const port = await listen(t);
    const waitForLine = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (lines.some((line) => pattern.test(line))) resolve();
        };
        onLine = check;
        check();
      });
    const connection = openRequest(port, {
      method: 'POST',
      path: API.users.login,
      headers: { 'content-type': 'application/json', 'content-length': '10000' },
    });
    connection.socket.write(`{"email":"a@example.com","password":"${'x'.repeat(4000)}`);
    // Hang up once the server is handling the request, with most of the body unsent.
    await waitForLine(/incoming request/);
    connection.socket.destroy();
    const logged = waitForLine(/client closed|database unavailable|unexpected error/);
    await logged;
    const messages = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string; reqId?: string })
      .filter((entry) => entry.reqId !== undefined);
    const hangUp = messages.find((entry) => entry.msg === 'client closed the connection');
    expect(hangUp?.level).toBe(30);
    expect(messages.filter((entry) => entry.msg === 'database unavailable')).toEqual([]);
    expect(messages.filter((entry) => entry.level >= 40)).toEqual([]);
  });
});

describe('body limit and timeout settings', () => {
  const base = { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/adloom-unused' };

  it('has the documented defaults', () => {
    expect(loadConfig(base)).toMatchObject({
      bodyLimitBytes: 64 * 1024 * 1024,
      smallBodyLimitBytes: 64 * 1024,
      bodyIdleTimeoutMs: 30_000,
      requestTimeoutMs: 300_000,
    });
  });

  it('reads them, the small limit never above the large one', () => {
    expect(
      loadConfig({
        ...base,
        BODY_LIMIT_BYTES: '1048576',
        SMALL_BODY_LIMIT_BYTES: '4096',
        BODY_IDLE_TIMEOUT_SECONDS: '5',
        REQUEST_TIMEOUT_SECONDS: '60',
      }),
    ).toMatchObject({
      bodyLimitBytes: 1_048_576,
      smallBodyLimitBytes: 4096,
      bodyIdleTimeoutMs: 5000,
      requestTimeoutMs: 60_000,
    });
    expect(
      loadConfig({ ...base, BODY_LIMIT_BYTES: '2048', SMALL_BODY_LIMIT_BYTES: '65536' })
        .smallBodyLimitBytes,
    ).toBe(2048);
    expect(() => loadConfig({ ...base, BODY_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(
      /BODY_IDLE_TIMEOUT_SECONDS/,
    );
  });
});
