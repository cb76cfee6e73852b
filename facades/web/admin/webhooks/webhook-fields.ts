import {
  DEFAULT_SCOPE,
  DESTINATION_SCOPES,
  LANGUAGES,
  SIGNAL_TYPES,
  type DeliveryFormat,
  type DestinationScope,
  type Language,
  type SignalType,
} from '../../../../core/index.ts';
import type { AdminDestinationFragment } from '../../../generated/web-admin.ts';
import { choicesOf, fieldAttrs, fieldError, fieldValue, groupAttrs, type FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';

// How the webhook pages name a destination's settings, and the form fields they share.

export type Destination = AdminDestinationFragment;

export const FORMAT_NAMES: Record<DeliveryFormat, string> = {
  'standard-json': 'Standard JSON',
  'team-chat': 'Team-chat blocks',
  'collaboration-suite': 'Collaboration-suite adaptive card',
};
export const FORMAT_LABELS: Record<DeliveryFormat, string> = {
  'standard-json': 'Standard JSON — a signed envelope, for your own systems',
  'team-chat': 'Team-chat blocks — a message in a chat channel (its incoming webhook URL)',
  'collaboration-suite': 'Collaboration-suite adaptive card — a card in a suite channel (its incoming webhook URL)',
};
export const LANGUAGE_LABELS: Record<Language, string> = { en: 'English', fr: 'French (français)' };
const KIND_LABELS: Record<SignalType, string> = {
  'need.created': 'a public need is published',
  'need.updated': 'a public need’s content or criteria change',
  'need.withdrawn': 'a public need is withdrawn or made private',
  'event.created': 'a public event is created',
  'event.updated': 'a public event’s date, place or content change',
  'event.cancelled': 'a public event is cancelled',
};
export const SCOPE_LABELS: Record<DestinationScope, string> = {
  platform: 'Platform — every public need and event on Packline',
  own: 'Own — only your organization’s public needs and events',
};

export const CREATE_FIELDS = ['name', 'description', 'format', 'url', 'language', 'kinds', 'scope'] as const;
export const EDIT_FIELDS = ['name', 'description', 'url', 'language', 'kinds', 'scope'] as const;
export const CREATE_LABELS: Record<(typeof CREATE_FIELDS)[number], string> = {
  name: 'Name',
  description: 'Description',
  format: 'Format',
  url: 'URL',
  language: 'Language',
  kinds: 'Event kinds',
  scope: 'Scope',
};

/** A destination's setting as the page names it; the schema gives it as a string, shown as is when unknown. */
export const labelOf = (labels: Readonly<Record<string, string>>, value: string) => labels[value] ?? value;

/** What tells a destination apart: its name, or its format for one added before names. */
export const titleOf = (d: Destination) => d.name || `${labelOf(FORMAT_NAMES, d.format)} destination`;

export function statusText(d: Destination): string {
  if (d.status === 'paused') return 'paused';
  if (d.status === 'disabled') return `disabled${d.disabledReason ? ` (${d.disabledReason})` : ''}`;
  return 'active';
}

/** "97 % of 120 deliveries succeeded in the last 24 h": a share short of all never rounds up to 100. */
export function lastDayText(d: Destination): string {
  const { finished, succeeded } = d.lastDayDeliveries;
  if (finished === 0) return 'no delivery in the last 24 h';
  const share = Math.floor((succeeded / finished) * 100);
  return `${share} % of ${finished} ${finished === 1 ? 'delivery' : 'deliveries'} succeeded in the last 24 h`;
}

const checked = (on: boolean) => (on ? html` checked` : '');

/** Language, event kinds and scope: what the typed form, the team-chat connection and the edit form share. */
export function settingsFields(form: FormState, prefix = ''): Html {
  const id = (name: string) => (prefix ? html` id="${prefix}-${name}"` : fieldAttrs(form, name));
  const firstId = (name: string, i: number) => (i === 0 && !prefix ? html` id="f-${name}"` : '');
  const language = fieldValue(form, 'language', 'en');
  const kinds = choicesOf(form, 'kinds', SIGNAL_TYPES);
  const scope = fieldValue(form, 'scope', DEFAULT_SCOPE);
  const own = (part: Html | '') => (prefix ? '' : part);
  const languages = LANGUAGES.map((l) => html`<option value="${l}"${l === language ? html` selected` : ''}>${LANGUAGE_LABELS[l]}</option>`);
  return html`<label for="${prefix ? `${prefix}-language` : 'f-language'}">Language of the messages</label>
<select name="language"${id('language')}>${languages}</select>
${own(fieldError(form, 'language'))}
<fieldset${own(groupAttrs(form, 'kinds'))}><legend>Event kinds</legend>${own(fieldError(form, 'kinds'))}
${SIGNAL_TYPES.map(
  (k, i) => html`<label><input type="checkbox" name="kinds" value="${k}"${firstId('kinds', i)}${checked(kinds.includes(k))}>
 <span><code>${k}</code> — ${KIND_LABELS[k]}</span></label>`,
)}
</fieldset>
<fieldset${own(groupAttrs(form, 'scope'))}><legend>Scope</legend>${own(fieldError(form, 'scope'))}
${DESTINATION_SCOPES.map(
  (s, i) => html`<label><input type="radio" name="scope" value="${s}"${firstId('scope', i)}${checked(s === scope)}>
 ${SCOPE_LABELS[s]}</label>`,
)}
</fieldset>`;
}

/** Name and description: the add and edit forms share them. */
export function labelFields(form: FormState, fallbackName = ''): Html {
  return html`<label for="f-name">Name</label>
<input name="name" maxlength="100" required value="${fieldValue(form, 'name', fallbackName)}"${fieldAttrs(form, 'name', 'name-help')}>
${fieldError(form, 'name')}
<p id="name-help" class="note">To tell your destinations apart, such as the system or channel that receives it.</p>
<label for="f-description">Description <span class="note">(optional)</span></label>
<textarea name="description" maxlength="500" rows="2"${fieldAttrs(form, 'description')}>${fieldValue(form, 'description')}</textarea>
${fieldError(form, 'description')}`;
}
