import { promises as dnsPromises } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import { checkDestinationUrl, guardedLookup, isForbiddenAddress, type UrlPolicy } from './url-policy.ts';

const STRICT: UrlPolicy = { allowHttp: false, allowPrivateNetworks: false };
const LOOSE: UrlPolicy = { allowHttp: true, allowPrivateNetworks: true };

/** A resolver that must not be reached (IP literals, refused shapes). */
const noDns = async (host: string): Promise<string[]> => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};
const resolvesTo =
  (...addresses: string[]) =>
  async (): Promise<string[]> =>
    addresses;

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const domainError = error as DomainError;
  expect(domainError.code).toBe('invalid_input');
  expect(domainError.field).toBe('url');
  return domainError;
}

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '192.0.0.8',
    '192.0.2.10',
    '198.51.100.7',
    '203.0.113.9',
    '198.18.0.1',
    '198.19.255.255',
    '192.88.99.1',
    '::',
    '::1',
    '[::1]',
    'fc00::1',
    'fd00::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '3fff::1',
    '100::1',
    '64:ff9b:1::1',
    '2001::1', // Teredo
    '2001:2::1', // benchmarking
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::ffff:10.0.0.1]',
    '::ffff:169.254.169.254',
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:101::', // 6to4 of 192.168.1.1
    'not-an-ip',
    '',
    'localhost',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255', // just below CGNAT
    '100.128.0.1', // just above CGNAT
    '172.15.255.255',
    '172.32.0.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700::1111',
    '[2606:4700::1111]',
    '2a00:1450:4007:80e::200e',
    '2001:4860:4860::8888', // outside 2001::/23
    '::ffff:93.184.216.34',
    '::ffff:5db8:d822',
    '64:ff9b::8.8.8.8',
    '2002:5db8:d822::1', // 6to4 of 93.184.216.34
  ])('accepts %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('checkDestinationUrl', () => {
  it('normalizes numeric IPv4 spellings before checking (WHATWG URL)', () => {
    for (const raw of ['https://0x7f000001', 'https://2130706433', 'http://0x7f.1/', 'https://0177.0.0.1', 'https://127.1']) {
      expect(new URL(raw).hostname).toBe('127.0.0.1');
    }
    expect(new URL('https://[::ffff:127.0.0.1]').hostname).toBe('[::ffff:7f00:1]');
  });

  it.each([
    ['https://127.0.0.1', /private or reserved address \(127\.0\.0\.1\)/],
    ['https://10.0.0.1/hook', /private or reserved address \(10\.0\.0\.1\)/],
    ['https://169.254.169.254/latest/meta-data/', /private or reserved address \(169\.254\.169\.254\)/],
    ['https://[::1]/', /private or reserved address \(::1\)/],
    ['https://[::ffff:127.0.0.1]/', /private or reserved address/],
    ['https://[::ffff:7f00:1]/', /private or reserved address/],
    ['https://[::ffff:10.0.0.1]/', /private or reserved address/],
    ['https://0x7f000001/', /private or reserved address \(127\.0\.0\.1\)/],
    ['https://2130706433/', /private or reserved address \(127\.0\.0\.1\)/],
    ['https://0x7f.1/', /private or reserved address \(127\.0\.0\.1\)/],
    ['https://172.16.5.4', /private or reserved address/],
    ['https://192.168.1.1', /private or reserved address/],
    ['https://100.64.0.1', /private or reserved address/],
    ['https://224.0.0.1', /private or reserved address/],
    ['https://0.0.0.0', /private or reserved address/],
    ['https://[fd00::1]', /private or reserved address/],
    ['https://[fe80::1]', /private or reserved address/],
    ['https://[64:ff9b::a00:1]', /private or reserved address/],
    ['http://example.com/hook', /^Webhook URLs must use https$/],
    ['ftp://x/', /^Webhook URLs must use https$/],
    ['https://user:pw@example.com/', /user name or password/],
    ['https://user@example.com/', /user name or password/],
    ['https://:pw@example.com/', /user name or password/],
    ['not a url', /not a valid absolute URL/],
    ['/relative/path', /not a valid absolute URL/],
    ['', /required/],
    ['https://localhost/', /local or internal host name \(localhost\)/],
    ['https://localhost./', /local or internal host name \(localhost\)/],
    ['https://api.localhost/', /local or internal host name/],
    ['https://printer.local/', /local or internal host name/],
    ['https://metadata.google.internal/', /local or internal host name/],
    ['https://router.home.arpa/', /local or internal host name/],
    [`https://example.com/${'a'.repeat(2048)}`, /at most 2048 characters/],
  ])('refuses %s', async (raw, message) => {
    const error = await refusal(checkDestinationUrl(raw, STRICT, noDns));
    expect(error.message).toMatch(message);
  });

  it('refuses a host name when any resolved address is forbidden', async () => {
    const error = await refusal(checkDestinationUrl('https://hooks.example.com/x', STRICT, resolvesTo('93.184.216.34', '10.1.2.3')));
    expect(error.message).toBe('Webhook URL resolves to a private or reserved address (10.1.2.3)');
  });

  it('refuses a host name resolving to an IPv4-mapped loopback', async () => {
    const error = await refusal(checkDestinationUrl('https://hooks.example.com/', STRICT, resolvesTo('::ffff:127.0.0.1')));
    expect(error.message).toMatch(/private or reserved address \(::ffff:127\.0\.0\.1\)/);
  });

  it.each([
    ['no addresses', resolvesTo()],
    ['a resolver failure', async (): Promise<string[]> => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }))],
  ])('refuses a host name that does not resolve (%s)', async (_, resolve) => {
    const error = await refusal(checkDestinationUrl('https://nowhere.example/', STRICT, resolve));
    expect(error.message).toBe('Webhook URL host nowhere.example does not resolve to an address');
  });

  it('refuses by address what the real resolver answers for localhost (127.0.0.1 / ::1)', async () => {
    // `localhost` itself is refused by name before any lookup, so alias another name to the real
    // resolver's answer for it.
    const realLocalhost = async () => (await dnsPromises.lookup('localhost', { all: true })).map((entry) => entry.address);
    const error = await refusal(checkDestinationUrl('https://alias.example.com/', STRICT, realLocalhost));
    expect(error.message).toMatch(/private or reserved address \((127\.0\.0\.1|::1)\)$/);
  });

  it('refuses localhost and an unresolvable name with the default resolver', async () => {
    expect((await refusal(checkDestinationUrl('https://localhost:8443/hook', STRICT))).message).toMatch(/localhost/);
    expect((await refusal(checkDestinationUrl('https://no-such-host.invalid/hook', STRICT))).message).toBe(
      'Webhook URL host no-such-host.invalid does not resolve to an address',
    );
  });

  it.each([
    ['https://93.184.216.34/hook', 'https://93.184.216.34/hook'],
    ['https://[2606:4700::1111]/x', 'https://[2606:4700::1111]/x'],
    ['https://93.184.216.34:8443/hook?a=1#frag', 'https://93.184.216.34:8443/hook?a=1'],
    ['  https://93.184.216.34/trimmed  ', 'https://93.184.216.34/trimmed'],
  ])('accepts the public literal %s', async (raw, href) => {
    const url = await checkDestinationUrl(raw, STRICT, noDns);
    expect(url.href).toBe(href);
  });

  it('accepts a host name resolving only to public addresses, and strips the fragment', async () => {
    const seen: string[] = [];
    const url = await checkDestinationUrl('https://Hooks.Example.com:444/services/T0/abc?x=1#secret', STRICT, async (host) => {
      seen.push(host);
      return ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'];
    });
    expect(seen).toEqual(['hooks.example.com']);
    expect(url.href).toBe('https://hooks.example.com:444/services/T0/abc?x=1');
    expect(url.hash).toBe('');
  });

  it('lets http and private addresses through only with allowHttp + allowPrivateNetworks', async () => {
    const url = await checkDestinationUrl('http://127.0.0.1:1234/', LOOSE, noDns);
    expect(url.href).toBe('http://127.0.0.1:1234/');
    await expect(checkDestinationUrl('http://localhost:1234/', LOOSE, noDns)).resolves.toBeInstanceOf(URL);

    await refusal(checkDestinationUrl('http://127.0.0.1:1234/', { allowHttp: true, allowPrivateNetworks: false }, noDns));
    await refusal(checkDestinationUrl('http://127.0.0.1:1234/', { allowHttp: false, allowPrivateNetworks: true }, noDns));
    await expect(
      checkDestinationUrl('https://127.0.0.1:1234/', { allowHttp: false, allowPrivateNetworks: true }, noDns),
    ).resolves.toBeInstanceOf(URL);
    // Credentials and other schemes stay refused under the loose policy.
    await refusal(checkDestinationUrl('http://u:p@127.0.0.1/', LOOSE, noDns));
    await refusal(checkDestinationUrl('ftp://127.0.0.1/', LOOSE, noDns));
  });
});

describe('guardedLookup with undici', () => {
  let server: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((_, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  });

  const codesInCauseChain = (error: unknown): unknown[] => {
    const codes: unknown[] = [];
    for (let e = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
      codes.push((e as NodeJS.ErrnoException).code);
      if (e instanceof AggregateError) for (const inner of e.errors) codes.push(...codesInCauseChain(inner));
    }
    return codes;
  };

  it('refuses to connect to a name resolving to loopback', async () => {
    const agent = new Agent({ connect: { lookup: guardedLookup(STRICT) } });
    try {
      const before = hits;
      const error = await request(`http://localhost:${port}/`, { dispatcher: agent }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(codesInCauseChain(error)).toContain('EFORBIDDENADDRESS');
      expect(hits).toBe(before);

      // fetch wraps the failure in TypeError('fetch failed') with the lookup error as cause.
      const { fetch } = await import('undici');
      const fetchError = await fetch(`http://localhost:${port}/`, { dispatcher: agent }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(codesInCauseChain(fetchError)).toContain('EFORBIDDENADDRESS');
      expect(hits).toBe(before);
    } finally {
      await agent.close();
    }
  });

  it('connects when private networks are allowed (so undici passes lookup through)', async () => {
    let calls = 0;
    const inner = guardedLookup(LOOSE);
    const agent = new Agent({
      connect: {
        lookup: (hostname, options, callback) => {
          calls++;
          inner(hostname, options, callback);
        },
      },
    });
    try {
      const before = hits;
      const response = await request(`http://localhost:${port}/`, { dispatcher: agent });
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe('ok');
      expect(hits).toBe(before + 1);
      expect(calls).toBeGreaterThan(0);
    } finally {
      await agent.close();
    }
  });

  it('answers single-address lookups too', async () => {
    const lookup = guardedLookup(LOOSE);
    const result = await new Promise<{ address: unknown; family: unknown }>((resolve, reject) =>
      lookup('localhost', { family: 4 }, (err, address, family) => (err ? reject(err) : resolve({ address, family }))),
    );
    expect(result).toEqual({ address: '127.0.0.1', family: 4 });

    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup(STRICT)('localhost', { family: 4 }, (err) => resolve(err)),
    );
    expect(refused?.code).toBe('EFORBIDDENADDRESS');
    expect(refused?.message).toMatch(/127\.0\.0\.1/);
  });
});
