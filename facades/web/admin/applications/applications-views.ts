import type { AdminApplicationsQuery } from '../../../generated/web-admin.ts';
import { html, type Html } from '../../../kit/html.ts';
import { ABILITIES } from '../../../kit/page-support.ts';
import { at } from '../../../kit/dates.ts';

export type MemberGrant = AdminApplicationsQuery['organizationAssistantGrants'][number];

/** The table of the members' connected applications; `revoke` renders each row's form. */
export function applicationsTable(grants: MemberGrant[], revoke: (g: MemberGrant) => Html): Html {
  if (grants.length === 0) return html`<p class="note">No member has connected an assistant application.</p>`;
  return html`<table class="list"><thead><tr><th>Member</th><th>Application</th><th>What it may do</th>\
<th>Connected</th><th>Last used</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${grants.map(
  (g) => html`<tr><td data-label="Member">${g.memberName}<br><span class="note">${g.memberEmail}</span></td>
<td data-label="Application">${g.grant.application.name} <span class="note">(name given by the application)</span></td>
<td data-label="What it may do"><ul>${g.grant.scopes.map((s) => html`<li><code>${s}</code>: ${ABILITIES[s] ?? s}</li>`)}</ul></td>
<td data-label="Connected">${at(g.grant.createdAt)}</td><td data-label="Last used">${g.grant.lastUsedAt ? at(g.grant.lastUsedAt) : 'never'}</td>
<td>${revoke(g)}</td></tr>`,
)}
</tbody></table>`;
}
