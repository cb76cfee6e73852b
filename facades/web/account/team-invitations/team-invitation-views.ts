import { TEAM_INVITATION_PATH } from '../../../../core/index.ts';
import type { AccountTeamInvitationQuery, TeamInvitationStatus } from '../../../generated/web-account.ts';
import type { Browser } from '../../../kit/browser.ts';
import { when } from '../../../kit/dates.ts';
import { html, type Html } from '../../../kit/html.ts';
import { SETTINGS_PATH, type SignedIn } from '../../../kit/page-support.ts';
import { memberForm } from '../account-views.ts';

// A team invitation as the invited member reads it: the team's name, who invited, the public need
// it forms around, when, and where it stands; Accept or Refuse while it is pending. Nothing inside the team.

type Invitation = AccountTeamInvitationQuery['accountTeamInvitation'];
export type Answer = 'accept' | 'refuse';

export const TEAM_INVITATION_TITLE = 'Team invitation';
export const teamInvitationPath = (id: string) => `${TEAM_INVITATION_PATH}${encodeURIComponent(id)}`;
export const answerPath = (id: string, answer: Answer) => `${teamInvitationPath(id)}/${answer}`;
/** Each answer has its own form token, bound to the invitation. */
export const answerForm = (id: string, answer: Answer) => `team-invitation\n${answer}\n${id}`;

const STATUS: Record<TeamInvitationStatus, string> = {
  pending: 'waiting for your answer',
  accepted: 'accepted',
  refused: 'refused',
};

const ANSWERED: Record<Exclude<TeamInvitationStatus, 'pending'>, string> = {
  accepted: 'You accepted this invitation. The answer cannot be changed here.',
  refused: 'You refused this invitation. The answer cannot be changed here.',
};

function answerForms(browser: Browser, session: SignedIn, invitation: Invitation): Html {
  const form = (answer: Answer, label: string, button = '') =>
    memberForm(browser, session, { action: answerPath(invitation.id, answer), name: answerForm(invitation.id, answer) }, label, '', button);
  return html`<p class="note">You answer once: the answer cannot be changed here afterwards.</p>
${form('accept', 'Accept', 'primary')}
${form('refuse', 'Refuse')}`;
}

export function teamInvitationView(browser: Browser, session: SignedIn, invitation: Invitation, done: string | undefined): Html {
  const { opportunity, status } = invitation;
  const need = opportunity ? html`<a href="${opportunity.url}">${opportunity.title}</a>` : 'not public';
  return html`
${done ? html`<p class="note" role="status">${done}</p>` : ''}
<p><strong>${invitation.invitedBy.name}</strong> invited you to join a team.</p>
<dl>
<dt>Team</dt><dd>${invitation.teamName}</dd>
<dt>Invited by</dt><dd>${invitation.invitedBy.name}</dd>
<dt>Opportunity</dt><dd>${need}</dd>
<dt>Invited</dt><dd>${when(invitation.invitedAt)}</dd>
<dt>Status</dt><dd>${STATUS[status]}</dd>
</dl>
${status === 'pending' ? answerForms(browser, session, invitation) : html`<p>${ANSWERED[status]}</p>`}
<p><a href="${SETTINGS_PATH}">Back to your account</a></p>`;
}
