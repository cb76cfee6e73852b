import type { MemberDraftView } from '../../core/services/member-drafts.service.ts';
import { builder } from '../builder.ts';

const MemberDraftRef = builder.objectRef<MemberDraftView>('MemberDraft').implement({
  description: "An unpublished need a member's assistant prepared, waiting for the member's review.",
  fields: (t) => ({
    id: t.exposeID('id', { description: "The need's id." }),
    title: t.exposeString('title', { description: 'Its title as drafted.' }),
    organizationId: t.exposeID('organizationId', { description: 'The organization it is drafted for.' }),
    organizationName: t.exposeString('organizationName', { description: "That organization's name." }),
    createdAt: t.expose('createdAt', { description: 'When it was drafted.', type: 'DateTime' }),
    reviewUrl: t.exposeString('reviewUrl', { description: 'The page where the member reviews, publishes or discards it.' }),
  }),
});

builder.queryFields((t) => ({
  accountDrafts: t.field({
    type: [MemberDraftRef],
    description: "The drafts the signed-in member's assistants prepared, still unpublished, newest first.",
    authScopes: { memberSession: true },
    resolve: (_root, _args, ctx) => ctx.services.memberDrafts.list(ctx.actor),
  }),
}));
