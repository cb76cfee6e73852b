import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Browser } from './browser.ts';
import { html } from './html.ts';

const secret = Buffer.alloc(32, 7).toString('base64');

describe('member pages: browser security', () => {
  it('seals values so that any change, or time, voids them', () => {
    const browser = new Browser({ secret, publicBaseUrl: 'https://packline.test' });
    const sealed = browser.seal({ clientId: 'cli_a' }, 60);
    expect(browser.unseal<{ clientId: string }>(sealed)?.clientId).toBe('cli_a');
    const [body, mac] = sealed.split('.');
    const forged = Buffer.from(JSON.stringify({ clientId: 'cli_b', exp: 9e9 })).toString('base64url');
    expect(browser.unseal(`${forged}.${mac}`)).toBeNull();
    // One character of the MAC changed (to one it is not already).
    expect(browser.unseal(`${body}.${mac![0] === 'x' ? 'y' : 'x'}${mac!.slice(1)}`)).toBeNull();
    expect(browser.unseal(browser.seal({ clientId: 'cli_a' }, -1))).toBeNull();
    expect(
      new Browser({ secret: Buffer.alloc(32, 8).toString('base64'), publicBaseUrl: 'https://packline.test' }).unseal(sealed),
    ).toBeNull();
  });

  it('encrypts values the browser carries but cannot read, voided by any change or by time', () => {
    const browser = new Browser({ secret, publicBaseUrl: 'https://packline.test' });
    const boxed = browser.encrypt({ secret: 'whsec_abc' }, 60);
    expect(boxed).not.toContain('whsec');
    expect(Buffer.from(boxed.split('.')[1]!, 'base64url').toString('latin1')).not.toContain('whsec');
    expect(browser.decrypt<{ secret: string }>(boxed)?.secret).toBe('whsec_abc');
    const [iv, body, tag] = boxed.split('.');
    expect(browser.decrypt(`${iv}.${body!.slice(0, -2)}${body!.endsWith('AA') ? 'BB' : 'AA'}.${tag}`)).toBeNull();
    expect(browser.decrypt(browser.encrypt({ secret: 'x' }, -1))).toBeNull();
    expect(
      new Browser({ secret: Buffer.alloc(32, 8).toString('base64'), publicBaseUrl: 'https://packline.test' }).decrypt(boxed),
    ).toBeNull();
  });

  it('binds CSRF tokens to the browser secret and the form', () => {
    const browser = new Browser({ secret, publicBaseUrl: 'https://packline.test' });
    const token = browser.csrf('session-a', 'password');
    expect(browser.checkCsrf('session-a', 'password', token)).toBe(true);
    expect(browser.checkCsrf('session-b', 'password', token)).toBe(false);
    expect(browser.checkCsrf('session-a', 'sign-out', token)).toBe(false);
    expect(browser.checkCsrf(undefined, 'password', token)).toBe(false);
  });

  it('sets Secure cookies except for http on loopback', () => {
    expect(new Browser({ secret, publicBaseUrl: 'https://packline.test' }).cookie('a', 'b', { maxAgeSeconds: 5 })).toBe(
      '__Host-a=b; Path=/; Max-Age=5; HttpOnly; SameSite=Lax; Secure',
    );
    expect(new Browser({ secret, publicBaseUrl: 'http://127.0.0.1:8080' }).cookie('a', 'b', { maxAgeSeconds: 5 })).toBe(
      'a=b; Path=/; Max-Age=5; HttpOnly; SameSite=Lax',
    );
  });

  it('names cookies __Host- on https, where they are always Path=/, and reads them only under that name', () => {
    const https = new Browser({ secret, publicBaseUrl: 'https://packline.test' });
    expect(https.name('pl_member')).toBe('__Host-pl_member');
    expect(https.cookie('pl_login', 'x', { maxAgeSeconds: 60, path: '/account/login' })).toBe(
      '__Host-pl_login=x; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure',
    );
    const request = (cookie: string) => ({ headers: { cookie } }) as IncomingMessage;
    expect(https.read(request('pl_member=plain; __Host-pl_member=prefixed'), 'pl_member')).toBe('prefixed');
    expect(https.read(request('pl_member=plain'), 'pl_member')).toBeUndefined();
    const http = new Browser({ secret, publicBaseUrl: 'http://127.0.0.1:8080' });
    expect(http.cookie('pl_login', 'x', { maxAgeSeconds: 60, path: '/account/login' })).toBe(
      'pl_login=x; Path=/account/login; Max-Age=60; HttpOnly; SameSite=Lax',
    );
    expect(http.read(request('pl_member=plain'), 'pl_member')).toBe('plain');
  });

  it('escapes every interpolated value, nested markup excepted', () => {
    const name = `<img src=x onerror="alert('x')"> & co`;
    expect(html`<p>${name}</p>${html`<b>${'<i>'}</b>`}`.text).toBe(
      '<p>&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co</p><b>&lt;i&gt;</b>',
    );
  });
});
