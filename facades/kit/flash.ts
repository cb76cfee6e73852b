import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { OnceMarks } from '../../core/index.ts';
import { FLASH_COOKIE, type Browser } from './browser.ts';

// A one-time secret (a new API key, a signing secret) crosses the POST → 303 → GET of its form in
// a flash: an encrypted, HttpOnly cookie that lives two minutes, is bound to the session and to the
// page that shows it, and is cleared by that page's first answer. Never in a URL, so it stays out
// of history, logs and Referer headers; a reload shows the page without it. The flash's id is
// claimed in shared storage (OnceMarks: Redis, or the database) when it is shown, so the same
// cookie replayed shows nothing, on this instance or another, before or after a restart.

const FLASH_TTL_SECONDS = 120;
const FLASH_PATH = '/admin';

export interface Flash {
  label: string;
  secret: string;
  warning: string;
  /** The title the page takes while it shows the secret, such as "Destination added". */
  title?: string;
}

interface Boxed extends Flash {
  id: string;
  /** A hash of the session token: another session cannot use it. */
  session: string;
  /** The page that shows it. */
  at: string;
  exp: number;
}

const sessionHash = (token: string) => createHash('sha256').update(`flash\n${token}`).digest('base64url');

/** The Set-Cookie value that carries `flash` to the page at `at` (a path, without query). */
export function flashCookie(browser: Browser, sessionToken: string, at: string, flash: Flash): string {
  const value = browser.encrypt(
    { ...flash, id: randomBytes(12).toString('base64url'), session: sessionHash(sessionToken), at },
    FLASH_TTL_SECONDS,
  );
  return browser.cookie(FLASH_COOKIE, value, { maxAgeSeconds: FLASH_TTL_SECONDS, path: FLASH_PATH });
}

/**
 * The flash meant for this page and session, once: the answer clears the cookie. Null when there
 * is none, it expired, it was shown already, or it belongs to another page or session.
 */
export async function takeFlash(
  { browser, onceMarks }: { browser: Browser; onceMarks: OnceMarks },
  req: Request,
  res: Response,
  sessionToken: string,
): Promise<Flash | null> {
  const raw = browser.read(req, FLASH_COOKIE);
  if (!raw) return null;
  const boxed = browser.decrypt<Boxed>(raw);
  if (boxed && boxed.at !== req.path) return null; // For another page: left for it.
  res.append('set-cookie', browser.cookie(FLASH_COOKIE, '', { maxAgeSeconds: 0, path: FLASH_PATH }));
  if (!boxed || boxed.session !== sessionHash(sessionToken)) return null;
  if (!(await onceMarks.claim(`flash:${boxed.id}`, new Date(boxed.exp * 1000)))) return null;
  return { label: boxed.label, secret: boxed.secret, warning: boxed.warning, ...(boxed.title ? { title: boxed.title } : {}) };
}
