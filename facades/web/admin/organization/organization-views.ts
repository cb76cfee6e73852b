import type { AdminAccountQuery } from '../../../generated/web-admin.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { organizationJson } from '../../../representations/resources.ts';
import { orgPath } from '../admin-paths.ts';
import type { AdminOrganization } from '../layout.ts';

// The entry page (which organization) and an organization's overview: public profile, plan, allowances.

type Administered = AdminAccountQuery['accountOrganizations'];
type Profile = ReturnType<typeof organizationJson>;

const UNLISTED = html` (this organization is <strong>unlisted</strong>: it does not appear in public searches)`;
const number = (n: number) => n.toLocaleString('en');
const NOT_ADMIN = 'You are not an admin of any organization. Ask an admin of yours to make you one.';
const INCOMPLETE = 'The profile is marked incomplete: complete it so integrators and assistants describe you well.';

export function organizationsView(administered: Administered): Html {
  if (administered.length === 0) return html`<p class="error">${NOT_ADMIN}</p>`;
  const item = (o: Administered[number]) => html`<li><a href="${orgPath(o.id)}">${o.name}</a> (${o.plan} plan)</li>`;
  return html`<p>Choose an organization:</p><ul>${administered.map(item)}</ul>`;
}

function profileList(profile: Profile): Html {
  const payment = profile.partner_payment;
  const place = [profile.place?.city, profile.place?.region, profile.place?.country].filter(Boolean).join(', ');
  const percent = payment.confirmed_rate_percent;
  const rate = percent === null ? 'no payment due yet' : `${percent} % confirmed`;
  const partners = `${payment.partners_count} partner${payment.partners_count === 1 ? '' : 's'}`;
  const { proofs } = profile;
  return html`<dl>
<dt>Name</dt><dd>${profile.name}</dd>
<dt>Description</dt><dd>${profile.description || '—'}</dd>
<dt>Website</dt><dd>${profile.website ?? '—'}</dd>
<dt>Place</dt><dd>${place || '—'}</dd>
<dt>Sectors</dt><dd>${profile.sectors.join(', ') || '—'}</dd>
<dt>Capabilities</dt><dd>${profile.capabilities.join(', ') || '—'}</dd>
<dt>Networks</dt><dd>${profile.networks.join(', ') || '—'}</dd>
<dt>Partner payment</dt><dd>${rate} · ${partners}</dd>
<dt>Track record</dt><dd>${proofs.completed_packs} completed packs · ${proofs.references} references · \
${proofs.certifications} certifications</dd>
<dt>Profile address</dt><dd><code>${profile.profile_url}</code> \
<span class="note">(the address the API gives integrators for your profile)</span></dd>
</dl>`;
}

function planPart(org: AdminOrganization): Html {
  const a = org.allowances;
  const keys = `${a.activeKeys} active key${a.activeKeys === 1 ? '' : 's'}`;
  const destinations = `${a.destinations} webhook destination${a.destinations === 1 ? '' : 's'}`;
  return html`<h2>Plan: ${org.plan}</h2>
<p>On the ${org.plan} plan your systems can call the API ${number(a.monthlyQuota)} times a month with up to ${keys}, \
and Packline sends events to up to ${destinations}.</p>
<table><tbody>
<tr><th scope="row">Active API keys at once</th><td>up to ${a.activeKeys}</td></tr>
<tr><th scope="row">API calls per month</th><td>${number(a.monthlyQuota)} (counted from the 1st, UTC)</td></tr>
<tr><th scope="row">Webhook destinations</th><td>up to ${a.destinations}</td></tr>
<tr><th scope="row">Deliveries kept per destination</th>\
<td>the newest ${a.retainedDeliveries}, to check what was sent</td></tr>
<tr><th scope="row">Sending a failed delivery again by hand</th>\
<td>${a.manualRetry ? 'yes' : 'no (part of the Clan plan)'}</td></tr>
</tbody></table>`;
}

export function organizationView(org: AdminOrganization, profile: Profile, done: Html | ''): Html {
  const unlisted = org.listed ? '' : UNLISTED;
  return html`${done}
<h2>Public profile</h2>
<p class="note">What the public API answers at <code>GET /api/v1/organization</code> for your keys, \
and what the directory shows${unlisted}.</p>
${profileList(profile)}
<p><a href="${orgPath(org.id, '/profile')}">Edit the public profile</a></p>
<details><summary>As JSON</summary><pre>${JSON.stringify(profile, null, 2)}</pre></details>
${org.complete ? '' : html`<p class="note">${INCOMPLETE}</p>`}
${planPart(org)}
<p><a href="${orgPath(org.id, '/keys')}">Manage API keys</a> · \
<a href="${orgPath(org.id, '/webhooks')}">Manage webhooks</a> · \
<a href="${orgPath(org.id, '/usage')}">See usage</a></p>`;
}
