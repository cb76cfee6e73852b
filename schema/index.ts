import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/place.type.ts';
import './types/organization.type.ts';
import './types/organization-profile-edit.type.ts';
import './types/directory.type.ts';
import './types/need.type.ts';
import './types/event.type.ts';
import './types/api-key.type.ts';
import './types/member.type.ts';
import './types/webhook-destination.type.ts';
import './types/webhook-delivery.type.ts';
import './types/esign.type.ts';
import './types/assistant.type.ts';
import './types/team-invitation.type.ts';
import './types/assistant-access.type.ts';
import './types/organization-grants.type.ts';
import './types/member-account.type.ts';
import './types/password-reset.type.ts';
import './types/organization-members.type.ts';
import './types/member-drafts.type.ts';
import './types/administration.type.ts';

/** The single query surface: internal GraphQL, and every facade through named operations. */
export const schema = lexicographicSortSchema(builder.toSchema());

export { Contexts, type Context } from './context.ts';
