import type { Browser } from './browser.ts';

// The hand-off between the member connector's `/authorize` and the consent page: the
// authorization request travels sealed in the consent page's address, so no server state waits
// for the member's answer.

/** The authorization request waiting for the member's answer. */
export interface PendingConsent {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  state?: string;
  resource: string;
}

export const CONSENT_PATH = '/oauth/consent';
/** How long the member has to sign in and answer. */
export const CONSENT_TTL_SECONDS = 600;

/** The consent page's address for this request. */
export function consentAddress(browser: Browser, pending: PendingConsent): string {
  return `${CONSENT_PATH}?request=${encodeURIComponent(browser.seal(pending, CONSENT_TTL_SECONDS))}`;
}
