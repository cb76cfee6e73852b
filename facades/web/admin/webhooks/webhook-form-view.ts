import { errorSummary, fieldAttrs, fieldError, fieldValue, type FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { adminForm, type AdminVisit } from '../layout.ts';
import {
  CREATE_LABELS,
  FORMAT_LABELS,
  FORMAT_NAMES,
  labelFields,
  labelOf,
  settingsFields,
  titleOf,
  type Destination,
} from './webhook-fields.ts';
import { destinationPath } from './webhook-paths.ts';
import { destinationUrl } from '../signing/signing-views.ts';

// The forms on one destination: its edit form, and the confirmations before rotating its secret or deleting it.

const URL_KEPT = 'Leave empty to keep it. A new address keeps the signing secret and the deliveries already made.';

export function editView(deps: PageDeps, visit: AdminVisit, d: Destination, form: FormState): Html {
  const path = destinationPath(visit, d.id);
  const url = fieldValue(form, 'url');
  const urlAttrs = fieldAttrs(form, 'url', 'edit-url-help');
  const fields = html`
${labelFields(form)}
<p>Format: ${labelOf(FORMAT_LABELS, d.format)} <span class="note">(to change it, add a new destination)</span></p>
<label for="f-url">New URL <span class="note">(optional)</span></label>\
<input type="url" name="url" maxlength="2000" placeholder="https://" value="${url}"${urlAttrs}>
${fieldError(form, 'url')}<p id="edit-url-help" class="note">Now ${destinationUrl(d)}. ${URL_KEPT}</p>
${settingsFields(form)}
<button type="submit" class="primary">Save</button> <a href="${path}">Cancel</a>`;
  return html`${errorSummary(form, CREATE_LABELS)}
<p><a href="${path}">Back to the destination</a></p>
${adminForm(deps, visit, `${path}/edit`, `webhook-edit\n${d.id}`, fields)}`;
}

export type ConfirmedAction = 'delete';

export const CONFIRM_TITLES: Record<ConfirmedAction, string> = {
  delete: 'Delete a webhook destination',
};

function deleteQuestion(d: Destination, form: Html): Html {
  const which = html`<strong>${titleOf(d)}</strong> (${labelOf(FORMAT_NAMES, d.format)}, <code>${d.url}</code>)`;
  return html`<p>Delete the destination ${which} and its retained deliveries?</p>
<p>Nothing more is sent to it. This cannot be undone.</p>${form}`;
}

/** The question before an action that cannot be undone, with its form . */
export function confirmView(deps: PageDeps, visit: AdminVisit, action: ConfirmedAction, d: Destination): Html {
  const path = destinationPath(visit, d.id);
  const button = html`<button type="submit" class="danger">${CONFIRM_TITLES[action]}</button>`;
  const form = adminForm(deps, visit, `${path}/${action}`, `webhook-${action}\n${d.id}`, button);
  const question = deleteQuestion(d, form);
  return html`${question}<p><a href="${path}">Cancel</a></p>`;
}
