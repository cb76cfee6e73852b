import { OVERLAPS, SECRET_OVERLAPS } from '../../../../core/index.ts';
import type { AdminDestinationFragment as Destination } from '../../../generated/web-admin.ts';
import { html, type Html } from '../../../kit/html.ts';
import { at } from '../../../kit/dates.ts';

export const SECRET_NOTICE = 'Store it where your receiver reads it, and keep it secret.';

/** A destination's address as its admins may see it: a standard JSON receiver whole, any other masked. */
export function destinationUrl(d: Destination): Html {
  return d.receiverUrl ? html`<code>${d.receiverUrl}</code>` : html`<code>${d.url}</code> (masked)`;
}

/** The links of the signing secret on the destination page. */
export function secretActions(path: string, d: Destination): Html | '' {
  if (d.format !== 'standard-json') return '';
  return html`<li><a href="${path}/reveal">Reveal the signing secret</a></li>\
<li><a href="${path}/rotate">Rotate the signing secret</a></li>`;
}

/** The password form that reveals the secret; `form` wraps its fields. */
export function revealQuestion(d: Destination, title: string, form: (fields: Html) => Html, error?: string): Html {
  return html`<p>Show the signing secret of <strong>${title}</strong> (<code>${d.secret ?? ''}</code>) in full.</p>
<p>Confirm it is you: enter your password. Wrong passwords count against your sign-in attempts.</p>
${form(html`<label for="f-password">Your password</label>
<input type="password" id="f-password" name="password" autocomplete="current-password" required\
${error ? html` aria-invalid="true" aria-describedby="password-error"` : ''}>
${error ? html`<p id="password-error" class="error">${error}</p>` : ''}
<button type="submit">Reveal the secret</button>`)}`;
}

/** The rotation form, with the overlap to choose (24 hours preselected). */
export function rotateQuestion(d: Destination, title: string, form: (fields: Html) => Html, error?: string): Html {
  return html`<p>Replace the signing secret <code>${d.secret ?? ''}</code> \
of the destination <strong>${title}</strong> (${destinationUrl(d)})?</p>
<p>The new secret is shown once. \
The current one can keep signing deliveries beside the new one, so you can update your receiver meanwhile.</p>
${form(html`<fieldset${error ? html` aria-describedby="overlap-error"` : ''}><legend>The current secret keeps signing</legend>
${error ? html`<p id="overlap-error" class="error">${error}</p>` : ''}
${SECRET_OVERLAPS.map(overlapChoice)}
</fieldset>
<button type="submit" class="danger">Rotate the signing secret</button>`)}`;
}

/** One choice of how long the current secret keeps signing; the first is the field's anchor, a day is preselected. */
function overlapChoice(o: (typeof SECRET_OVERLAPS)[number], i: number): Html {
  const anchor = i === 0 ? html` id="f-overlap"` : '';
  const checked = o === 'one_day' ? html` checked` : '';
  return html`<label><input type="radio" name="overlap" value="${o}"${anchor}${checked}> \
${o === 'now' ? 'No: it stops now' : `for ${OVERLAPS[o].label}`}</label>`;
}

/** What the page says with the new secret about the old one. */
export function rotatedWarning(previousUntil: string | null | undefined): string {
  const old = previousUntil
    ? `The old secret keeps signing until ${at(previousUntil)}: update your receiver before then.`
    : 'The old secret stopped signing now.';
  return `This signing secret is shown once. Store it now; it cannot be displayed again. ${old}`;
}
