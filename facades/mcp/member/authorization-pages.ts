import { html, type Html } from '../../kit/html.ts';
import { SETTINGS_PATH } from '../../kit/page-support.ts';

// The pages a person lands on when an authorization request cannot go on: markup only, in plain
// words, with OAuth's error code kept small for the application's developers.

export const CANNOT_CONTINUE = 'This connection request cannot continue';
export const UNKNOWN_APPLICATION = 'Unknown application';
export const PACKLINE_FAILED = 'Something went wrong on Packline’s side';

const NOTHING_SHARED = 'Nothing was shared and nothing was sent to the application.';
const WHAT_NEXT = 'Go back to the application and connect again; if this keeps happening, tell its developers.';

const ways = () => html`<p><a href="${SETTINGS_PATH}">Your account</a> · <a href="/admin">Your organizations</a></p>`;

const DEVELOPERS = 'For the application’s developers:';
const forDevelopers = (error: string) => html`<p class="note">${DEVELOPERS} <code>${error}</code></p>`;

/** The request was refused before the member was asked: `description` says why, in a sentence. */
export function cannotContinueView(error: string, description: string): Html {
  return html`<p class="error">${description}</p>
<p>${NOTHING_SHARED} ${WHAT_NEXT}</p>
${forDevelopers(error)}
${ways()}`;
}

/** No application with this client id: nothing it sent can be trusted, its return address least of all. */
export function unknownApplicationView(clientId: string): Html {
  const named = clientId ? html` (client id <code>${clientId.slice(0, 60)}</code>)` : '';
  return html`<p class="error">The application that sent you here is not registered with Packline${named}.</p>
<p>It cannot connect to your account. ${NOTHING_SHARED} ${WHAT_NEXT}</p>
${forDevelopers('invalid_client')}
${ways()}`;
}

const TRY_AGAIN = 'Try again in a moment. If it keeps failing, tell Packline’s support and quote request id';

/** A failure of Packline itself, with the request id to quote. */
export function packlineFailedView(requestId: string): Html {
  return html`<p class="error">Packline could not handle this connection request. Nothing was shared.</p>
<p>${TRY_AGAIN} <code>${requestId}</code>.</p>
${ways()}`;
}

export const TOO_MANY = 'Too many connection requests';

/** The address asked too often: when to try again. */
export function tooManyView(minutes: number): Html {
  return html`<p class="error">Too many connection requests came from your network. Nothing was shared.</p>
<p>Try again in ${minutes} minute(s), from the application.</p>
${ways()}`;
}
