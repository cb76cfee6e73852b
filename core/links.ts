/** Where the service's own links point: the public pages and resources it hands out. */
export interface Links {
  /** Base address of the service, without a trailing slash. */
  publicBaseUrl: string;
}

/**
 * The address the API serves under when PUBLIC_BASE_URL is unset: `http://HOST:PORT` from the same
 * variables (8080 and 127.0.0.1 by default; 0.0.0.0 and :: shown as 127.0.0.1). The serving API
 * records it, and the other processes (the dispatcher, the CLI) use the record, so they agree with
 * the server without its HOST and PORT; this rule is theirs only until a server has recorded one
 * (components/service-links.ts).
 */
export function defaultPublicBaseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
