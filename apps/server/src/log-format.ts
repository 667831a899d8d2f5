// The server log's two forms: JSON lines (pino's own) for machines and production, readable
// lines for a person watching a terminal.

/** How log lines are written. */
type LogFormat = 'readable' | 'json';

/** Readable lines in a terminal, JSON lines when the output is not one or in production. */
export function chooseLogFormat(options: {
  isProduction: boolean;
  isTerminal: boolean;
}): LogFormat {
  return options.isTerminal && !options.isProduction ? 'readable' : 'json';
}

/**
 * What the log never shows, wherever it sits in a logged object: the session and cookie headers
 * and anything named like a password or token. (The request serializer already logs only the
 * method, the masked URL and the address.)
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'token',
  '*.token',
  'refreshToken',
  '*.refreshToken',
  'accessToken',
  '*.accessToken',
];

const LEVELS: Record<number, { name: string; color: number }> = {
  10: { name: 'TRACE', color: 90 },
  20: { name: 'DEBUG', color: 90 },
  30: { name: 'INFO ', color: 32 },
  40: { name: 'WARN ', color: 33 },
  50: { name: 'ERROR', color: 31 },
  60: { name: 'FATAL', color: 35 },
};

/** Fields every line has, shown in the line's own layout rather than as key=value. */
const LAID_OUT = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);

const two = (value: number) => String(value).padStart(2, '0');

function formatValue(value: unknown): string {
  return typeof value === 'string' && !/\s/.test(value) && value !== ''
    ? value
    : JSON.stringify(value);
}

/**
 * One pino JSON line as a person reads it:
 * `12:04:31 INFO  [req-7] request completed 200 (12 ms)  userId=…`, an error's stack below it.
 * A line that is not JSON passes as it is.
 */
export function formatLogLine(
  line: string,
  options: { color: boolean } = { color: false },
): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const level = LEVELS[Number(entry.level)] ?? { name: String(entry.level), color: 0 };
  const parts = [
    `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}`,
    options.color ? `\u001b[${level.color}m${level.name}\u001b[39m` : level.name,
  ];
  if (entry.reqId !== undefined) parts.push(`[${String(entry.reqId)}]`);
  if (typeof entry.msg === 'string') parts.push(entry.msg);
  const req = entry.req as { method?: string; url?: string; remoteAddress?: string } | undefined;
  if (req) parts.push(`${req.method ?? ''} ${req.url ?? ''}`.trim());
  const res = entry.res as { statusCode?: number } | undefined;
  if (res?.statusCode !== undefined) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`(${Math.round(entry.responseTime)} ms)`);
  const rest = Object.entries(entry)
    .filter(([key]) => !LAID_OUT.has(key))
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  let text = parts.join(' ');
  if (rest.length > 0) text += `  ${rest.join(' ')}`;
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  if (err) {
    const stack =
      err.stack
        ?.split('\n')
        .slice(1)
        .map((frame) => `    ${frame.trim()}`) ?? [];
    text += `\n  ${err.type ?? 'Error'}: ${err.message ?? ''}${stack.length > 0 ? `\n${stack.join('\n')}` : ''}`;
  }
  return `${text}\n`;
}

/** A log destination that writes each of pino's JSON lines to `out` as a readable line. */
export function createReadableLogStream(
  out: { write(text: string): unknown },
  options: { color: boolean },
): { write(line: string): void } {
  return {
    write(line) {
      out.write(formatLogLine(line, options));
    },
  };
}
