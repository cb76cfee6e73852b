import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// What the pages need from the browser side: cookies, per-form CSRF tokens and signed
// hand-offs between pages.

/** Base names of the pages' cookies; on an https address each is sent as `__Host-<name>` (`cookieName`). */
export const SESSION_COOKIE = 'pl_member';
export const LOGIN_COOKIE = 'pl_login';
export const FLASH_COOKIE = 'pl_flash';
/** The GraphQL explorer's session: the internal token, encrypted, for `/graphql` in this browser. */
export const EXPLORER_COOKIE = 'pl_explorer';
/** The explorer's sign-in form secret (its CSRF binding). */
export const EXPLORER_LOGIN_COOKIE = 'pl_explorer_login';

const HOST_PREFIX = '__Host-';

/**
 * A cookie's name as sent for the service at `publicBaseUrl`: `__Host-` prefixed on https, so the
 * browser accepts it only Secure, with Path=/ and no Domain: no subdomain and no plain-http page
 * can set or shadow it. Plain http (loopback only) cannot carry the prefix.
 */
export function cookieName(base: string, publicBaseUrl: string): string {
  return new URL(publicBaseUrl).protocol === 'https:' ? `${HOST_PREFIX}${base}` : base;
}

export interface BrowserOptions {
  /** Configuration secret the page keys are derived from (DATA_ENCRYPTION_KEY). */
  secret: string;
  publicBaseUrl: string;
}

export class Browser {
  private readonly key: Buffer;
  /** A separate key for values the browser must carry but never read (the flash of a secret shown once). */
  private readonly boxKey: Buffer;
  /** Secure cookies everywhere but on a loopback address served over http. */
  readonly secureCookies: boolean;
  readonly origin: string;
  private readonly publicBaseUrl: string;

  constructor({ secret, publicBaseUrl }: BrowserOptions) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'base64'), Buffer.alloc(0), 'packline member pages v1', 32));
    this.boxKey = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'base64'), Buffer.alloc(0), 'packline page flash v1', 32));
    const url = new URL(publicBaseUrl);
    this.publicBaseUrl = publicBaseUrl;
    this.origin = url.origin;
    this.secureCookies = !(url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname));
  }

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }

  /** A tamper-evident, expiring value to carry through a redirect or a hidden field. */
  seal(payload: object, ttlSeconds: number): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) + ttlSeconds })).toString('base64url');
    return `${body}.${this.mac(`seal\n${body}`)}`;
  }

  unseal<T extends object>(sealed: string | undefined): T | null {
    if (!sealed || sealed.length > 8_000) return null;
    const [body, mac, extra] = sealed.split('.');
    if (!body || !mac || extra !== undefined || !equal(mac, this.mac(`seal\n${body}`))) return null;
    try {
      const value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { exp?: number };
      return typeof value.exp === 'number' && value.exp > Date.now() / 1000 ? value : null;
    } catch {
      return null;
    }
  }

  /** Like `seal`, but encrypted (AES-256-GCM): the browser carries the value without being able to read it. */
  encrypt(payload: object, ttlSeconds: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.boxKey, iv);
    const plain = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) + ttlSeconds }));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return `${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  decrypt<T extends object>(boxed: string | undefined): T | null {
    if (!boxed || boxed.length > 8_000) return null;
    const [iv, body, tag, extra] = boxed.split('.');
    if (!iv || !body || !tag || extra !== undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.boxKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      const value = JSON.parse(plain.toString('utf8')) as T & { exp?: number };
      return typeof value.exp === 'number' && value.exp > Date.now() / 1000 ? value : null;
    } catch {
      return null;
    }
  }

  /** One token per form and per browser secret (the session, or the sign-in cookie). */
  csrf(binding: string, form: string): string {
    return this.mac(`csrf\n${form}\n${binding}`);
  }

  checkCsrf(binding: string | undefined, form: string, given: unknown): boolean {
    return typeof binding === 'string' && typeof given === 'string' && equal(given, this.csrf(binding, form));
  }

  /** Refuses a form posted from another site when the browser says where it comes from. */
  sameOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    return origin === undefined || origin === this.origin;
  }

  /** The name the cookie `base` (SESSION_COOKIE, …) is sent under: `__Host-` prefixed on https. */
  name(base: string): string {
    return cookieName(base, this.publicBaseUrl);
  }

  /** The value of the cookie `base` (under its sent name), if the request carries it. */
  read(req: IncomingMessage, base: string): string | undefined {
    return readCookie(req, this.name(base));
  }

  /**
   * Set-Cookie for the cookie `base`; a `__Host-` cookie is always Path=/ (the prefix requires it).
   * `sameSite` @default 'Lax'
   */
  cookie(
    base: string,
    value: string,
    { maxAgeSeconds, path = '/', sameSite = 'Lax' }: { maxAgeSeconds: number; path?: string; sameSite?: 'Lax' | 'Strict' },
  ): string {
    const name = this.name(base);
    const scope = name.startsWith(HOST_PREFIX) ? '/' : path;
    const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
    return `${name}=${value}; Path=${scope}; Max-Age=${maxAge}; HttpOnly; SameSite=${sameSite}${this.secureCookies ? '; Secure' : ''}`;
  }

  newLoginSecret = () => randomBytes(24).toString('base64url');
}

/**
 * Whether sign-in can work at this public address: https, or plain http on loopback (cookies are
 * Secure everywhere else). The OAuth issuer obeys the same rule.
 */
export function pagesServable(publicBaseUrl: string): boolean {
  const url = new URL(publicBaseUrl);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1'].includes(url.hostname);
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
