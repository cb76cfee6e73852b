import { TEAM_INVITATION_STATUSES, type TeamInvitationView } from '../../core/services/team-invitations.service.ts';
import { builder, describedValues } from '../builder.ts';

// Team invitations as the invited member sees them: listed by the member connector (pending ones
// only), read and answered by the member in person on the service. Nothing inside the team.

const InvitingOrganizationRef = builder.objectRef<TeamInvitationView['invitedBy']>('InvitingOrganization').implement({
  description: 'The organization that sent a team invitation.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The organization's id." }),
    name: t.exposeString('name', { description: "The organization's name." }),
  }),
});

const InvitationOpportunityRef = builder.objectRef<NonNullable<TeamInvitationView['opportunity']>>('InvitationOpportunity').implement({
  description: 'The public need a team invitation is about.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The need's id." }),
    title: t.exposeString('title', { description: "The need's title." }),
    url: t.exposeString('url', { description: "The need's public page." }),
  }),
});

const TeamInvitationStatusEnum = builder.enumType('TeamInvitationStatus', {
  description: 'Where a team invitation stands.',
  values: describedValues(TEAM_INVITATION_STATUSES, {
    pending: 'Not answered yet: the member can accept or refuse it.',
    accepted: 'The member accepted it.',
    refused: 'The member refused it.',
  }),
});

export const TeamInvitationRef = builder.objectRef<TeamInvitationView>('TeamInvitation').implement({
  description: 'An invitation to join a team. Accepting or refusing happens on the service, at `url`.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The invitation's id." }),
    teamName: t.exposeString('teamName', { description: 'The name of the team the member is invited to.' }),
    invitedBy: t.expose('invitedBy', { description: 'The organization that invited the member.', type: InvitingOrganizationRef }),
    opportunity: t.expose('opportunity', {
      type: InvitationOpportunityRef,
      nullable: true,
      description: 'The public need the team forms around, if public.',
    }),
    invitedAt: t.expose('invitedAt', { description: 'When the invitation was sent.', type: 'DateTime' }),
    status: t.expose('status', { description: 'Pending until the member accepts or refuses it.', type: TeamInvitationStatusEnum }),
    url: t.exposeString('url', {
      description: 'The page where the member reads the invitation and accepts or refuses it, in person (behind sign-in).',
    }),
  }),
});

const invitationId = { description: "The invitation's id.", required: true } as const;

builder.queryFields((t) => ({
  accountTeamInvitation: t.field({
    type: TeamInvitationRef,
    description: "One of the signed-in member's team invitations, whatever its status. NOT_FOUND for anyone else's.",
    authScopes: { memberSession: true },
    args: { id: t.arg.id(invitationId) },
    resolve: (_root, { id }, ctx) => ctx.services.teamInvitations.get(ctx.actor, String(id)),
  }),
}));

builder.mutationFields((t) => ({
  accountAcceptTeamInvitation: t.field({
    type: TeamInvitationRef,
    description:
      'Accepts a pending team invitation of the signed-in member: INVALID_STATE once answered, NOT_FOUND for anyone else’s. Never an assistant; no signal.',
    authScopes: { memberSession: true },
    args: { id: t.arg.id(invitationId) },
    resolve: (_root, { id }, ctx) => ctx.services.teamInvitations.answer(ctx.actor, String(id), 'accepted'),
  }),
  accountRefuseTeamInvitation: t.field({
    type: TeamInvitationRef,
    description:
      'Refuses a pending team invitation of the signed-in member: INVALID_STATE once answered, NOT_FOUND for anyone else’s. Never an assistant; no signal.',
    authScopes: { memberSession: true },
    args: { id: t.arg.id(invitationId) },
    resolve: (_root, { id }, ctx) => ctx.services.teamInvitations.answer(ctx.actor, String(id), 'refused'),
  }),
}));
