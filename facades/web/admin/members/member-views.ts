import { ROLES } from '../../../../core/index.ts';
import type { AdminMembersQuery } from '../../../generated/web-admin.ts';
import { html, type Html } from '../../../kit/html.ts';
import type { PageDeps } from '../../../kit/page-support.ts';
import { orgPath } from '../admin-paths.ts';
import { adminForm, type AdminVisit } from '../layout.ts';
import { at } from '../../../kit/dates.ts';
import { errorSummary, fieldAttrs, fieldError, fieldValue, type FormState } from '../../../kit/forms.ts';

// The members page of an organization: who belongs, with which role, pending invitations, and
// the invitation form. Views only.

type Members = AdminMembersQuery['organizationMembers'];
type Member = Members['members'][number];
type Invitation = Members['invitations'][number];

export const membersPath = (orgId: string, rest = '') => orgPath(orgId, `/members${rest}`);
export const memberPath = (orgId: string, memberId: string, rest: string) => membersPath(orgId, `/${encodeURIComponent(memberId)}${rest}`);

export const MEMBER_NOTICES: Record<string, string> = {
  invited: 'The invitation was sent. Its link works once, for 7 days.',
  role: 'The role was changed. A member who lost admin rights was signed out everywhere and their connected applications were disconnected.',
  removed: 'The member was removed. Their sessions ended and their connected applications were disconnected.',
  withdrawn: 'The invitation was withdrawn: its link no longer works.',
};

const ROLE_LABELS: Record<string, string> = { admin: 'Admin', member: 'Member' };
const INVITE_LABELS = { email: 'Email', role: 'Role' };

export function membersView(deps: PageDeps, visit: AdminVisit, data: Members, invite: FormState, notice: Html | ''): Html {
  const org = visit.org.id;
  return html`${notice}${errorSummary(invite, INVITE_LABELS)}
<p class="note">Admins manage the organization on Packline: its members, API keys, webhooks and usage. \
Members belong to it without administering it. An organization always keeps at least one admin.</p>
<table class="list"><caption class="visually-hidden">Members</caption><thead><tr>\
<th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Actions</th></tr></thead><tbody>
${data.members.map((m) => memberRow(deps, visit, org, m))}
</tbody></table>
<h2 id="invite">Invite someone</h2>
<p class="note">We mail them a link that works once, for 7 days. \
A new person creates an account with that email; someone with an account signs in and joins.</p>
${adminForm(deps, visit, membersPath(org, '/invite'), 'invite', inviteFields(invite))}
<h2>Pending invitations</h2>
${data.invitations.length === 0 ? html`<p class="note">None.</p>` : invitationsTable(deps, visit, org, data.invitations)}`;
}

function inviteFields(invite: FormState): Html {
  const role = fieldValue(invite, 'role', 'member');
  const options = ROLES.map((r) => html`<option value="${r}"${role === r ? html` selected` : ''}>${ROLE_LABELS[r]}</option>`);
  return html`<label for="f-email">Email</label>${fieldError(invite, 'email')}
<input type="email" name="email" autocomplete="off" required value="${fieldValue(invite, 'email')}"${fieldAttrs(invite, 'email')}>
<label for="f-role">Role</label>${fieldError(invite, 'role')}
<select name="role"${fieldAttrs(invite, 'role')}>${options}</select>
<button type="submit" class="primary">Send the invitation</button>`;
}

function invitationsTable(deps: PageDeps, visit: AdminVisit, org: string, invitations: Invitation[]): Html {
  return html`<table class="list"><thead><tr><th scope="col">Email</th><th scope="col">Role</th>\
<th scope="col">Link works until</th><th scope="col">Actions</th></tr></thead><tbody>
${invitations.map((i) => invitationRow(deps, visit, org, i))}</tbody></table>`;
}

function invitationRow(deps: PageDeps, visit: AdminVisit, org: string, i: Invitation): Html {
  const path = membersPath(org, `/invitations/${encodeURIComponent(i.id)}/withdraw`);
  const button = html`<button type="submit">Withdraw<span class="visually-hidden"> the invitation to ${i.email}</span></button>`;
  return html`<tr><td data-label="Email">${i.email}</td><td data-label="Role">${ROLE_LABELS[i.role]}</td>\
<td data-label="Link works until">${at(i.expiresAt)}</td>
<td>${adminForm(deps, visit, path, `withdraw\n${i.id}`, button, { inline: true })}</td></tr>`;
}

function memberRow(deps: PageDeps, visit: AdminVisit, org: string, m: Member): Html {
  const other = m.role === 'admin' ? 'member' : 'admin';
  const change = m.role === 'admin' ? 'Make member' : 'Make admin';
  const you = m.id === visit.account.id ? html` <span class="note">(you)</span>` : '';
  const fields = html`<input type="hidden" name="role" value="${other}">\
<button type="submit">${change}<span class="visually-hidden"> ${m.name}</span></button>`;
  return html`<tr><td data-label="Name">${m.name}${you}</td><td data-label="Email">${m.email}</td>\
<td data-label="Role">${ROLE_LABELS[m.role]}</td>
<td>${adminForm(deps, visit, memberPath(org, m.id, '/role'), `role\n${m.id}`, fields, { inline: true })}
<a class="button" href="${memberPath(org, m.id, '/remove')}">Remove<span class="visually-hidden"> ${m.name}</span>…</a></td></tr>`;
}

/** The question before a removal. */
export function removeView(deps: PageDeps, visit: AdminVisit, member: Member): Html {
  const org = visit.org.id;
  const button = html`<button type="submit" class="danger">Remove ${member.name}</button>`;
  return html`<p>Remove <strong>${member.name}</strong> (${member.email}) from ${visit.org.profile.name}? \
Every session of theirs ends and every application connected to their account is disconnected. \
They keep their account and their other organizations.</p>
<p>${adminForm(deps, visit, memberPath(org, member.id, '/remove'), `remove\n${member.id}`, button, { inline: true })}
<a class="button" href="${membersPath(org)}">Cancel</a></p>`;
}
