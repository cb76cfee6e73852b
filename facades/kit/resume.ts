import type { Request } from 'express';
import type { Browser } from './browser.ts';
import type { FormState } from './forms.ts';

// A form posted after its session ended: the sign-in leads back to the form's page with what was
// typed, encrypted in the address (never a password, token or secret), and the page refills it.

export const RESUME_PARAM = 'resume';
/** Fields never carried: secrets, and the form's own token. */
const SECRET = /password|token|secret|csrf|^key$/i;
const RESUME_SECONDS = 3_600;
/** `safeReturn` keeps addresses up to 4,000 characters: past this, the typed text is left behind. */
const MAX_SEALED = 3_000;

/** The address to come back to after signing in: `page`, with the form's non-secret values when they fit. */
export function resumeAddress(browser: Browser, req: Request, page: string): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const values: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(body)) {
    if (SECRET.test(name)) continue;
    if (typeof value === 'string') values[name] = value.slice(0, 1_000);
    else if (Array.isArray(value)) values[name] = value.filter((v): v is string => typeof v === 'string').slice(0, 20);
  }
  const path = page.split('?', 1)[0]!;
  const sealed = browser.encrypt({ path, values }, RESUME_SECONDS);
  const kept = sealed.length <= MAX_SEALED ? sealed : browser.encrypt({ path, values: {} }, RESUME_SECONDS);
  return `${path}?${RESUME_PARAM}=${encodeURIComponent(kept)}`;
}

/** The form as typed before the session ended, when this page's address carries it. */
export function resumedForm(browser: Browser, req: Request): FormState | undefined {
  const given = req.query[RESUME_PARAM];
  const carried = browser.decrypt<{ path: string; values: Record<string, string | string[]> }>(
    typeof given === 'string' ? given : undefined,
  );
  // Only on the page it was typed on: a carried form cannot be replayed into another one.
  if (!carried || (carried.path !== req.path && carried.path !== req.originalUrl.split('?', 1)[0])) return undefined;
  return { values: carried.values, errors: {}, resumed: true };
}
