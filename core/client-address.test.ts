import { describe, expect, it } from 'vitest';
import { clientAddress, limitKey, type AddressedRequest } from './client-address.ts';

const request = (remoteAddress: string, forwardedFor?: string | string[]) =>
  ({
    socket: { remoteAddress },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  }) as AddressedRequest;

describe('clientAddress', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.7'), 0)).toBe('10.0.0.2');
    expect(clientAddress(request('::ffff:127.0.0.1'), 0)).toBe('127.0.0.1');
    expect(clientAddress(request('2001:DB8::1'), 0)).toBe('2001:db8::1');
  });

  it('takes the entry as many hops from the right as there are trusted proxies', () => {
    expect(clientAddress(request('10.0.0.2', '198.51.100.1, 203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('10.0.0.2', '198.51.100.1, 203.0.113.7, 10.0.0.9'), 2)).toBe('203.0.113.7');
    expect(clientAddress(request('10.0.0.2', ['198.51.100.1', '203.0.113.7']), 1)).toBe('203.0.113.7');
    // Fewer entries than proxies: the leftmost is the farthest address known.
    expect(clientAddress(request('10.0.0.2', '203.0.113.7'), 3)).toBe('203.0.113.7');
  });

  it('reads ports and brackets, and falls back to the socket on anything that is not an address', () => {
    expect(clientAddress(request('10.0.0.2', '203.0.113.7:4711'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('10.0.0.2', '[2001:db8::5]:443'), 1)).toBe('2001:db8::5');
    expect(clientAddress(request('10.0.0.2', '::ffff:203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(clientAddress(request('10.0.0.2', 'unknown'), 1)).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2', ' , '), 1)).toBe('10.0.0.2');
    expect(clientAddress(request('10.0.0.2'), 1)).toBe('10.0.0.2');
  });
});

describe('limitKey', () => {
  it('is an IPv4 address itself, and the /64 of an IPv6 address', () => {
    expect(limitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(limitKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(limitKey('::1')).toBe('0:0:0:0::/64');
    expect(limitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitKey('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });
});
