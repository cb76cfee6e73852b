// The parsing helpers of loadConfig (config.ts): values read from the environment or the data directory.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDirectory } from './private-files.ts';

/** A host name, IPv4 address or bracketed IPv6 address, optionally with a port. */
export const ALLOWED_HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/;

/** `raw` as an integer in [min, max]; otherwise a problem is noted and `min` stands in. */
export function integer(raw: string, name: string, min: number, max: number, problems: string[]): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    problems.push(`${name} must be an integer between ${min} and ${max} (got '${raw}')`);
    return min;
  }
  return n;
}

/** A random secret kept in the data directory (mode 0600) so it survives restarts. */
export function developmentSecret(
  dataDir: string,
  file: string,
  persist: boolean,
  generate = () => randomBytes(24).toString('base64url'),
): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = generate();
  if (persist) {
    privateDirectory(dataDir);
    writeFileSync(path, `${secret}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return secret;
}

/** An absolute http(s) address without its trailing slashes; undefined when unset. */
export function baseAddress(raw: string | undefined, name: string, problems: string[]): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    return raw.replace(/\/+$/, '');
  } catch {
    problems.push(`${name} must be an absolute http(s) URL (got '${raw}')`);
    return undefined;
  }
}
