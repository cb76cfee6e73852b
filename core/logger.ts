import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';
import { LogBuffer } from './log-buffer.ts';

export type { Logger };

/** Characters of log lines per write. */
const CHUNK_LENGTH = 4096;
/** sonic-boom's largest minLength (below its 16 KiB maxWrite): more than any chunk, even in 3-byte characters. */
const SINK_HOLD = 16 * 1024 - 1;

/**
 * JSON logs (pretty when stdout is a terminal). Authorization headers and anything named like a
 * secret are redacted; callers never log key, token or secret values in the first place.
 */
export function createLogger(level: LogLevel, options: { pretty?: boolean; destination?: NodeJS.WritableStream } = {}): Logger {
  const pretty = options.pretty ?? (process.stdout.isTTY === true && !options.destination);
  const base = {
    level,
    base: { service: 'packline' },
    redact: {
      paths: ['authorization', '*.authorization', 'key', '*.key', 'token', '*.token', 'secret', '*.secret', 'password', '*.password'],
      censor: '[redacted]',
    },
  };
  if (pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } });
  if (options.destination) return pino(base, options.destination as pino.DestinationStream);
  // Buffered writes: one write per 4 KiB of lines instead of one per line (a write per request
  // cost a fifth of the API's throughput). Flushed every second and when the process exits.
  // The destination holds what it is given (minLength above any chunk) until the buffer flushes.
  const destination = pino.destination({ dest: 1, sync: false, minLength: SINK_HOLD });
  const stream = new LogBuffer(destination, CHUNK_LENGTH, 1_000);
  process.once('exit', () => stream.flushSync());
  return pino(base, stream);
}

export interface AccessEntry {
  requestId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

/**
 * Writes one access line per request, in the logger's own format and stream, without pino's
 * generic serialization: the line has five known fields, and on the API's hot path the generic
 * path cost about a tenth of a request. Falls back to the logger when it writes through a
 * transport (pretty output in a terminal).
 */
export function createAccessLog(logger: Logger): (entry: AccessEntry) => void {
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown } | undefined>)[pino.symbols.streamSym];
  const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? '';
  const direct = stream !== undefined && typeof stream.write === 'function';
  return (entry) => {
    if (!logger.isLevelEnabled('info')) return;
    if (!direct) {
      logger.info({ req_id: entry.requestId, method: entry.method, path: entry.path, status: entry.status, ms: entry.ms }, 'request');
      return;
    }
    stream.write(
      `{"level":30,"time":${Date.now()}${bindings},"req_id":${jsonString(entry.requestId)},"method":${jsonString(entry.method)},` +
        `"path":${jsonString(entry.path)},"status":${entry.status},"ms":${entry.ms},"msg":"request"}\n`,
    );
  };
}

/** What JSON.stringify escapes in a string, and surrogates (it escapes the lone ones). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify(text), without its cost for the plain strings of an access line. */
const jsonString = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);
