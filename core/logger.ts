import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

/**
 * JSON logs (pretty when stdout is a terminal). Authorization headers and anything named like a
 * secret are redacted; callers never log key, token or secret values in the first place.
 */
export function createLogger(level: LogLevel, options: { pretty?: boolean; destination?: NodeJS.WritableStream } = {}): Logger {
  const pretty = options.pretty ?? (process.stdout.isTTY === true && !options.destination);
  const base = {
    level,
    base: { service: 'packline' },
    redact: { paths: ['authorization', '*.authorization', 'key', '*.key', 'token', '*.token', 'secret', '*.secret', 'password', '*.password'], censor: '[redacted]' },
  };
  if (pretty) return pino({ ...base, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } } });
  return options.destination ? pino(base, options.destination as pino.DestinationStream) : pino(base);
}
