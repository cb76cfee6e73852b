import type { IncomingMessage } from 'node:http';

interface AllowedHost {
  hostname: string;
  /** Empty: any port. */
  port: string;
}

/** Only host characters: no userinfo, path or whitespace can smuggle another host in. */
const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * DNS-rebinding protection: a request whose Host, or Origin when sent, names a host outside
 * `allowed` is refused. Entries are `host` (any port) or `host:port`. Returns the reason to
 * refuse, or undefined to let the request through.
 */
export function createHostGuard(allowed: readonly string[]): (req: IncomingMessage) => string | undefined {
  const hosts = allowed.map(hostAndPort);
  const permitted = (hostname: string, port: string) => hosts.some((h) => h.hostname === hostname && (h.port === '' || h.port === port));

  return (req) => {
    const host = req.headers.host;
    const parsed = host !== undefined && HOST_HEADER.test(host) ? parseHost(host) : undefined;
    if (!parsed || !permitted(parsed.hostname, parsed.port))
      return 'Forbidden: this connector answers only on its own host names (Host header refused)';
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    const from = parseOrigin(origin);
    if (!from || !permitted(from.hostname, from.port || (from.protocol === 'https:' ? '443' : '80'))) {
      return 'Forbidden: requests from this web origin are refused (Origin header refused)';
    }
    return undefined;
  };
}

/** Host name as URLs normalize it, and the port as written (empty when absent). */
function hostAndPort(text: string): AllowedHost {
  const port = /:(\d{1,5})$/.exec(text)?.[1];
  return { hostname: new URL(`http://${text}`).hostname, port: port === undefined ? '' : String(Number(port)) };
}

function parseHost(host: string): AllowedHost | undefined {
  try {
    return hostAndPort(host);
  } catch {
    return undefined;
  }
}

function parseOrigin(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
