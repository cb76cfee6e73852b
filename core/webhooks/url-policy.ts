import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { invalidInput } from '../errors.ts';

// Outbound webhooks go to URLs chosen by organizations, so every destination is a potential
// server-side request forgery. Two checks defend against it:
//  - `checkDestinationUrl` when a destination is created or changed: shape, scheme, host name
//    and every address the host resolves to right now;
//  - `guardedLookup` at every connection: the address actually connected to, which defeats DNS
//    rebinding (a name that resolved to a public address at creation and to 10.0.0.1 later).
// Neither check alone is enough; the delivery worker must also refuse to follow redirects
// (or re-check each hop), and re-check IP-literal hosts, which `net` connects to without a lookup.

/** Relaxations for tests that deliver to a local server. Production uses both `false`. */
export interface UrlPolicy {
  /** Tests only: accept `http:` as well as `https:`. */
  allowHttp: boolean;
  /** Tests only: accept loopback, private and reserved addresses (and local host names), without consulting DNS. */
  allowPrivateNetworks: boolean;
}

const MAX_URL_LENGTH = 2048;
const RESOLVE_TIMEOUT_MS = 5_000;

// ---------------------------------------------------------------------------------------------
// Addresses

/** [network, prefix length] */
type V4Range = readonly [string, number];
type V6Range = readonly [string, number];

/** IPv4 ranges that are not a public unicast destination (IANA special-purpose registry and friends). */
const FORBIDDEN_V4: readonly V4Range[] = [
  ['0.0.0.0', 8], // "this network", includes the unspecified 0.0.0.0
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space / CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, includes cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
  ['192.0.2.0', 24], // TEST-NET-1 documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2 documentation
  ['203.0.113.0', 24], // TEST-NET-3 documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes the limited broadcast 255.255.255.255
];

/**
 * IPv6 ranges inside global unicast 2000::/3 that are not a public destination. Everything
 * outside 2000::/3 (loopback, unspecified, ULA fc00::/7, link-local fe80::/10, site-local,
 * multicast ff00::/8, discard 100::/64, NAT64 local-use 64:ff9b:1::/48, SRv6 5f00::/16, ...)
 * is refused wholesale, except the forms that embed an IPv4 address (see `embeddedV4`).
 */
const FORBIDDEN_V6_IN_GLOBAL: readonly V6Range[] = [
  ['2001::', 23], // IETF protocol assignments, includes Teredo 2001::/32, ORCHID, AMT, benchmarking 2001:2::/48
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
];

const V6_GLOBAL_UNICAST: V6Range = ['2000::', 3];
const V6_MAPPED: V6Range = ['::ffff:0:0', 96]; // IPv4-mapped ::ffff:a.b.c.d
const V6_COMPATIBLE: V6Range = ['::', 96]; // IPv4-compatible ::a.b.c.d (deprecated), includes :: and ::1
const V6_NAT64: V6Range = ['64:ff9b::', 96]; // well-known NAT64 prefix
const V6_6TO4: V6Range = ['2002::', 16]; // 6to4: 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD

function parseV4(ip: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = ip.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Parses an address `isIP` already accepted as IPv6 (zone id removed) into 128 bits. */
function parseV6(ip: string): bigint {
  let text = ip;
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two hexadecimal groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseV4(tail);
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  const groups = [...headGroups, ...zeros, ...restGroups];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const v4Ranges = FORBIDDEN_V4.map(([net, bits]) => ({ net: parseV4(net), shift: 32 - bits }));
const inV4 = (addr: number, { net, shift }: { net: number; shift: number }) => shift === 32 || addr >>> shift === net >>> shift;

const compileV6 = ([net, bits]: V6Range) => ({ net: parseV6(net), shift: BigInt(128 - bits) });
const inV6 = (addr: bigint, { net, shift }: { net: bigint; shift: bigint }) => addr >> shift === net >> shift;

const v6GlobalForbidden = FORBIDDEN_V6_IN_GLOBAL.map(compileV6);
const v6Global = compileV6(V6_GLOBAL_UNICAST);
const v6Mapped = compileV6(V6_MAPPED);
const v6Compatible = compileV6(V6_COMPATIBLE);
const v6Nat64 = compileV6(V6_NAT64);
const v6SixToFour = compileV6(V6_6TO4);

const isForbiddenV4 = (addr: number) => v4Ranges.some((range) => inV4(addr, range));

/** The IPv4 address an IPv6 address stands for, when it is one of the embedding forms. */
function embeddedV4(addr: bigint): number | undefined {
  if (inV6(addr, v6Mapped) || inV6(addr, v6Compatible) || inV6(addr, v6Nat64)) return Number(addr & 0xffffffffn);
  if (inV6(addr, v6SixToFour)) return Number((addr >> 80n) & 0xffffffffn);
  return undefined;
}

/**
 * True when `ip` is not a public unicast destination: loopback, unspecified, private (RFC 1918,
 * IPv6 ULA fc00::/7), link-local (169.254/16 including cloud metadata, fe80::/10), shared/CGNAT
 * 100.64/10, multicast (224/4, ff00::/8), reserved (240/4, broadcast), documentation (192.0.2/24,
 * 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20), benchmarking (198.18/15), IETF protocol
 * assignments (192.0.0/24, 2001::/23 including Teredo), the 6to4 relay anycast 192.88.99/24, the
 * discard prefix 100::/64 and any IPv6 outside global unicast 2000::/3.
 *
 * IPv6 forms that embed an IPv4 address are judged by that address: IPv4-mapped
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`), IPv4-compatible (`::127.0.0.1`), NAT64 `64:ff9b::/96`
 * and 6to4 `2002::/16`. Brackets (`[::1]`) and a zone id (`fe80::1%eth0`) are accepted.
 *
 * Fails closed: anything that is not an IP address is reported as forbidden.
 */
export function isForbiddenAddress(ip: string): boolean {
  let text = ip.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);

  switch (isIP(text)) {
    case 4:
      return isForbiddenV4(parseV4(text));
    case 6: {
      const addr = parseV6(text);
      const v4 = embeddedV4(addr);
      if (v4 !== undefined) return isForbiddenV4(v4);
      if (!inV6(addr, v6Global)) return true;
      return v6GlobalForbidden.some((range) => inV6(addr, range));
    }
    default:
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// Destination URLs

/** Host names that only make sense inside a machine or a private network. */
function isLocalHostName(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal') ||
    host === 'home.arpa' ||
    host.endsWith('.home.arpa')
  );
}

const defaultResolve = async (host: string): Promise<string[]> =>
  (await dnsPromises.lookup(host, { all: true })).map((entry) => entry.address);

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const refuse = (message: string) => invalidInput('url', message);

/**
 * Parses and checks a webhook destination URL when it is created or changed.
 *
 * Requires an absolute `https:` URL (`http:` too with `policy.allowHttp`) of at most 2048
 * characters, without credentials (`user:pass@`); any port is accepted and the fragment is
 * removed. Unless `policy.allowPrivateNetworks`, refuses host names `localhost`, `*.localhost`,
 * `*.local`, `*.internal` and `*.home.arpa`, IP literals for which `isForbiddenAddress` holds
 * (numeric IPv4 spellings such as `2130706433` or `0x7f.1` are normalized to dotted form by the
 * WHATWG parser first), and host names that do not resolve or of which ANY resolved address is
 * forbidden. With `allowPrivateNetworks`, DNS is not consulted at all.
 *
 * @param resolve returns every address of a host name; defaults to `dns.lookup({ all: true })`.
 * @returns the normalized URL to store.
 * @throws DomainError `invalid_input` on field `url`, with a message meant for an administrator.
 */
export async function checkDestinationUrl(
  raw: string,
  policy: UrlPolicy,
  resolve: (host: string) => Promise<string[]> = defaultResolve,
): Promise<URL> {
  if (typeof raw !== 'string' || raw.trim() === '') throw refuse('A webhook URL is required');
  if (raw.length > MAX_URL_LENGTH) throw refuse(`Webhook URLs must be at most ${MAX_URL_LENGTH} characters long`);

  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse('Webhook URL is not a valid absolute URL, such as https://hooks.example.com/packline');
  }

  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw refuse(policy.allowHttp ? 'Webhook URLs must use https or http' : 'Webhook URLs must use https');
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse('Webhook URLs must not contain a user name or password');
  }
  url.hash = '';
  if (url.href.length > MAX_URL_LENGTH) throw refuse(`Webhook URLs must be at most ${MAX_URL_LENGTH} characters long`);

  if (policy.allowPrivateNetworks) return url;

  // The WHATWG parser lowercases, punycodes and canonicalizes IP literals (IPv6 in brackets).
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, '');
  if (host === '') throw refuse('Webhook URL has no host');

  if (isIP(host) !== 0) {
    if (isForbiddenAddress(host)) throw refuse(`Webhook URL points to a private or reserved address (${host})`);
    return url;
  }

  if (isLocalHostName(host)) throw refuse(`Webhook URL must not point to a local or internal host name (${host})`);

  let addresses: string[];
  try {
    addresses = await withTimeout(resolve(host), RESOLVE_TIMEOUT_MS);
  } catch {
    throw refuse(`Webhook URL host ${host} does not resolve to an address`);
  }
  if (addresses.length === 0) throw refuse(`Webhook URL host ${host} does not resolve to an address`);
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) {
    throw refuse(`Webhook URL resolves to a private or reserved address (${forbidden})`);
  }
  return url;
}

// ---------------------------------------------------------------------------------------------
// Connect-time guard

/** The `code` of the error a connection refused by `guardedLookup` fails with. */
const FORBIDDEN_ADDRESS = 'EFORBIDDENADDRESS';

function forbiddenAddressError(hostname: string, address: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `Refusing to connect to ${hostname}: it resolves to a private or reserved address (${address})`,
  );
  error.code = FORBIDDEN_ADDRESS;
  error.syscall = 'lookup';
  return Object.assign(error, { hostname, address });
}

/**
 * A `lookup` for `net.connect` / `tls.connect` options (and so undici's `connect` options:
 * `new Agent({ connect: { lookup: guardedLookup(policy) } })`) that resolves like `dns.lookup`
 * but fails the connection with an error whose `code` is `'EFORBIDDENADDRESS'` when ANY
 * resolved address is forbidden (`isForbiddenAddress`) — the check at connect time that
 * defeats DNS rebinding. With `policy.allowPrivateNetworks` it is a plain `dns.lookup`.
 *
 * Node does not call `lookup` for IP-literal hosts; check those with `isForbiddenAddress`
 * before sending.
 */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const lookupOptions: LookupOptions & { all: true } = { ...options, all: true };
    dnsLookup(hostname, lookupOptions, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (err) return callback(err, '');
      if (!policy.allowPrivateNetworks) {
        const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
        if (forbidden) return callback(forbiddenAddressError(hostname, forbidden.address), '');
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        return callback(error, '');
      }
      return callback(null, first.address, first.family);
    });
  };
}
