/** Where the service's own links point: the public pages and resources it hands out. */
export interface Links {
  /** Base address of the service, without a trailing slash. */
  publicBaseUrl: string;
}

/**
 * The one rule for links when PUBLIC_BASE_URL is unset: `http://HOST:PORT` from the same
 * variables (8080 and 127.0.0.1 by default; 0.0.0.0 and :: shown as 127.0.0.1). A process that
 * hands out links (the API, the dispatcher, the CLI) must therefore see the server's HOST and
 * PORT, or PUBLIC_BASE_URL, to agree with it.
 */
export function defaultPublicBaseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
