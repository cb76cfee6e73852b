import { describe, expect, it } from 'vitest';
import { safeReturn, SETTINGS_PATH } from './page-support.ts';

const ORIGIN = 'https://packline.test';

describe('safeReturn', () => {
  it('keeps a path of this site’s account, administration and consent pages, normalized', () => {
    expect(safeReturn('/admin', ORIGIN)).toBe('/admin');
    expect(safeReturn('/admin/orgs/atelier-nord/keys', ORIGIN)).toBe('/admin/orgs/atelier-nord/keys');
    expect(safeReturn('/oauth/consent?request=abc.def', ORIGIN)).toBe('/oauth/consent?request=abc.def');
    expect(safeReturn('/account/needs/n_1#top', ORIGIN)).toBe('/account/needs/n_1');
    expect(safeReturn('/account/a b', ORIGIN)).toBe('/account/a%20b');
    expect(safeReturn('/account/%0d%0a', ORIGIN)).toBe('/account/%0d%0a');
  });

  it('falls back to the account settings for anything else', () => {
    for (const value of [
      '/admin\r\nSet-Cookie: evil=1',
      '/admin\nx',
      '/admin/\u4e2d\u6587',
      '/account/caf\u00e9',
      '/admin/\ud800',
      '/admin\u0000',
      '/admin\t',
      '//evil.example/admin',
      '/\\evil.example',
      'https://evil.example/admin',
      'javascript:alert(1)',
      '/admin/../../elsewhere',
      '/api/v1/organization',
      'admin',
      '',
      `/admin/${'a'.repeat(4_000)}`,
      undefined,
      ['/admin'],
      42,
    ]) {
      expect(safeReturn(value, ORIGIN), JSON.stringify(value)).toBe(SETTINGS_PATH);
    }
  });
});
