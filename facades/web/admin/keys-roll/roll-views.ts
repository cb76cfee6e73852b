import { KEY_ROLL_OVERLAPS, OVERLAPS } from '../../../../core/index.ts';
import type { AdminKeyFragment as Key } from '../../../generated/web-admin.ts';
import { html, type Html } from '../../../kit/html.ts';
import { at } from '../../../kit/dates.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A key expiring sooner than this says so in the list. */
const SOON = 7 * DAY;

/** "in 1 h", "in 3 days", "in 12 min": how long until `iso`, rounded down. */
export function timeLeft(iso: string, now = Date.now()): string {
  const left = Date.parse(iso) - now;
  if (left >= 2 * DAY) return `in ${Math.floor(left / DAY)} days`;
  if (left >= HOUR) return `in ${Math.floor(left / HOUR)} h`;
  return `in ${Math.max(1, Math.floor(left / 60_000))} min`;
}

/** The Expires cell of the key list: the date, and how soon when within a week of a working key. */
export function keyExpiry(key: Key, now = Date.now()): Html {
  const working = key.status === 'active' || key.status === 'retiring';
  const soon = working && Date.parse(key.expiresAt) - now < SOON;
  const expiring = soon ? html`<br><strong class="expiring">expires ${timeLeft(key.expiresAt, now)}</strong>` : '';
  const retiring = key.status === 'retiring' ? html`<br><span class="note">rolled: winding down, outside the plan’s limit</span>` : '';
  return html`${at(key.expiresAt)}${expiring}${retiring}`;
}

/** The actions of one key in the list: roll an active key, revoke a working one. */
export function keyActions(keysPath: string, key: Key): Html | '' {
  const path = `${keysPath}/${encodeURIComponent(key.id)}`;
  const roll = key.status === 'active' ? html`<a href="${path}/roll">Roll<span class="visually-hidden"> ${key.name}</span></a> ` : '';
  const revoke =
    key.status === 'active' || key.status === 'retiring'
      ? html`<a href="${path}/revoke">Revoke<span class="visually-hidden"> ${key.name}</span></a>`
      : '';
  return html`${roll}${revoke}`;
}

/** The question of the roll page, with the overlap to choose; `form` wraps the fields it is given. */
export function rollQuestion(key: Key, form: (fields: Html) => Html, error?: string): Html {
  return html`<p>Roll the key <strong>${key.name}</strong> (<code>${key.prefix}…</code>, scopes ${key.scopes.join(', ')})?</p>
<p>A new key with the same name and scopes is created and shown once. \
The old key keeps working for the time you choose, so you can put the new one in place without a break; \
meanwhile it does not count against your plan’s active keys.</p>
${form(html`<fieldset${error ? html` aria-describedby="overlap-error"` : ''}><legend>The old key keeps working</legend>
${error ? html`<p id="overlap-error" class="error">${error}</p>` : ''}
${KEY_ROLL_OVERLAPS.map(overlapChoice)}
</fieldset>
<button type="submit">Roll the key</button>`)}`;
}

/** One choice of how long the old key keeps working; the first is the field's anchor, an hour is preselected. */
function overlapChoice(o: (typeof KEY_ROLL_OVERLAPS)[number], i: number): Html {
  const anchor = i === 0 ? html` id="f-overlap"` : '';
  const checked = o === 'one_hour' ? html` checked` : '';
  return html`<label><input type="radio" name="overlap" value="${o}"${anchor}${checked}> \
${o === 'now' ? 'No: it stops now' : `for ${OVERLAPS[o].label}`}</label>`;
}

/** The warning shown with the new key. */
export function rolledWarning(rolled: Key): string {
  const old =
    rolled.status === 'revoked'
      ? 'The old key stopped working now.'
      : `The old key keeps working until ${at(rolled.expiresAt)}: put the new one in place before then.`;
  return `Copy it now and keep it secret: it is never shown again. ${old}`;
}
