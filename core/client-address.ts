import { isIP } from 'node:net';

// Who a request comes from, for every limit counted per client address (sign-in, password
// change, the OAuth endpoints, the public connector): one reading of X-Forwarded-For, and one
// grouping of IPv6 addresses.

/** What is read of a request: its socket's address and its X-Forwarded-For header. */
export interface AddressedRequest {
  socket: { remoteAddress?: string | undefined };
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * The caller's address: the socket's, or, behind `trustedProxies` reverse proxies, the
 * `X-Forwarded-For` entry that many hops from the right (each trusted proxy appends the address
 * it saw; entries further left are whatever the client sent, so they are never believed).
 * Falls back to the socket address when the header is absent or that entry is not an address.
 */
export function clientAddress(req: AddressedRequest, trustedProxies: number): string {
  const socket = canonical(req.socket.remoteAddress ?? '');
  if (trustedProxies <= 0) return socket;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  if (hops.length === 0) return socket;
  const entry = withoutPort(hops[Math.max(0, hops.length - trustedProxies)]!);
  return isIP(entry) === 0 ? socket : canonical(entry);
}

/**
 * The key limits are counted under: an IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber usually holds a whole /64 and could otherwise rotate through it). Anything
 * else (a name, `unknown`) is its own key.
 */
export function limitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

/** `::ffff:1.2.3.4` is the IPv4 address 1.2.3.4; IPv6 in lower case. */
function canonical(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  return address.toLowerCase();
}

/** `1.2.3.4:5678` → `1.2.3.4`; `[::1]:80` → `::1`. */
function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4 ? v4[1]! : entry;
}

/** The eight hextets of an IPv6 address, without leading zeros. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase().split('%')[0]!;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((h) => Number.parseInt(h, 16).toString(16));
}
