import { errorSummary, fieldAttrs, fieldError, fieldValue, type FormState } from '../../../kit/forms.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import type { organizationJson } from '../../../representations/resources.ts';
import { orgPath } from '../admin-paths.ts';
import { adminForm, type AdminVisit } from '../layout.ts';

// The public profile's edit form, with the JSON the API and the connectors would answer for it.

/** The form's fields, by the names the services give their problems. */
export const PROFILE_FIELDS = [
  'name',
  'description',
  'website',
  'logo_url',
  'city',
  'region',
  'country',
  'sectors',
  'capabilities',
  'networks',
] as const;

const LABELS: Record<(typeof PROFILE_FIELDS)[number], string> = {
  name: 'Name',
  description: 'Description',
  website: 'Website',
  logo_url: 'Logo URL',
  city: 'City',
  region: 'Region',
  country: 'Country',
  sectors: 'Sectors',
  capabilities: 'Capabilities',
  networks: 'Networks',
};

const HELP: Partial<Record<(typeof PROFILE_FIELDS)[number], string>> = {
  website: 'An address starting with https:// or http://. Leave empty for none.',
  logo_url: 'The address of an image, starting with https:// or http://. Leave empty for none.',
  country: 'Two letters, like FR or GB.',
  sectors: 'Separated by commas.',
  capabilities: 'Separated by commas: skills, trades, services.',
  networks: 'Separated by commas: networks and federations you belong to.',
};

const LONG = new Set(['description']);

function input(form: FormState, name: (typeof PROFILE_FIELDS)[number]): Html {
  const help = HELP[name] ? `${name}-help` : undefined;
  const attrs = fieldAttrs(form, name, help);
  const value = fieldValue(form, name);
  const control = LONG.has(name)
    ? html`<textarea name="${name}" rows="4" maxlength="5000"${attrs}>${value}</textarea>`
    : html`<input name="${name}" value="${value}"${attrs}>`;
  return html`<label for="f-${name}">${LABELS[name]}</label>${control}
${fieldError(form, name)}${help ? html`<p id="${help}" class="note">${HELP[name]}</p>` : ''}`;
}

export function profileEditView(deps: PageDeps, visit: AdminVisit, form: FormState, preview?: ReturnType<typeof organizationJson>): Html {
  const path = orgPath(visit.org.id, '/profile');
  const fields = html`${PROFILE_FIELDS.map((name) => input(form, name))}
<p><button type="submit" name="action" value="preview">Preview</button> \
<button type="submit" name="action" value="save">Save</button> <a href="${orgPath(visit.org.id)}">Cancel</a></p>`;
  const shown = preview
    ? html`<section aria-labelledby="preview-title"><h2 id="preview-title">Preview: what the API and the connectors show</h2>
<p class="note">The answer of <code>GET /api/v1/organization</code> once saved. Nothing is saved yet.</p>
<pre>${JSON.stringify(preview, null, 2)}</pre></section>`
    : '';
  return html`${errorSummary(form, LABELS)}
<p class="note">Everything here is public: the API, the directory and the assistant connectors show it. \
The plan and the listing are changed by Packline’s team.</p>
${shown}
${adminForm(deps, visit, path, 'profile', fields)}`;
}
