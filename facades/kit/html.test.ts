import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { headerSafe, seeOther } from './html.ts';

describe('seeOther', () => {
  it('writes any location as printable ASCII, percent-encoding what a header cannot carry', () => {
    expect(headerSafe('/account/settings?done=password')).toBe('/account/settings?done=password');
    expect(headerSafe('/admin\r\nSet-Cookie: x=1')).toBe('/admin%0D%0ASet-Cookie:%20x=1');
    expect(headerSafe('/admin/\u4e2d')).toBe('/admin/%E4%B8%AD');
    expect(headerSafe('/caf\u00e9')).toBe('/caf%C3%A9');
    expect(headerSafe('/x\ud800')).toBe('/x%EF%BF%BD');

    const written: { status?: number; headers?: Record<string, unknown> } = {};
    const res = {
      writeHead(status: number, headers: Record<string, unknown>) {
        Object.assign(written, { status, headers });
        return this;
      },
      end() {},
    } as unknown as ServerResponse;
    seeOther(res, '/admin\n\u4e2d', 'req-1');
    expect(written).toEqual({ status: 303, headers: expect.objectContaining({ location: '/admin%0A%E4%B8%AD' }) });
  });
});
