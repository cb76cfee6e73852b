import type { InputProblem, ProfileEdit } from '../../core/services/profile-edit.ts';
import { builder, ORGANIZATION_ADMIN } from '../builder.ts';
import { withoutNulls } from '../inputs.ts';
import { OrganizationRef } from './organization.type.ts';

// An admin's edit of the organization's public profile, previewed or saved. The plan and the
// listing flags are not in the input: they stay with the operators (`updateOrganization`).

const InputProblemRef = builder.objectRef<InputProblem>('InputProblem').implement({
  description: 'An input field refused, and why.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The field at fault, as the API names it (logo_url, country…).' }),
    message: t.exposeString('message', { description: 'What is wrong with it, in plain words.' }),
  }),
});

const ProfileEditRef = builder.objectRef<ProfileEdit>('OrganizationProfileEdit').implement({
  description: 'The public profile after a change, or every problem with the change.',
  fields: (t) => ({
    organization: t.expose('profile', {
      type: OrganizationRef,
      nullable: true,
      description: 'The profile as it reads after the change; null when the change has problems.',
    }),
    problems: t.expose('problems', { type: [InputProblemRef], description: 'Every field refused; empty when the change is valid.' }),
  }),
});

const PublicProfileChangesInput = builder.inputType('OrganizationPublicProfileChanges', {
  description:
    'Changes to the public profile: omitted fields stay as they are; null or empty clears website, logoUrl, city, region and country.',
  fields: (t) => ({
    name: t.string({ description: "The organization's name." }),
    description: t.string({ description: 'What the organization does, in plain text.' }),
    website: t.string({ description: "The organization's own website, an http(s) address." }),
    logoUrl: t.string({ description: "Address of the organization's logo, an http(s) address." }),
    sectors: t.stringList({ description: 'Sectors the organization works in.' }),
    capabilities: t.stringList({ description: 'What the organization can do: skills, trades, services.' }),
    networks: t.stringList({ description: 'Networks and federations the organization belongs to.' }),
    city: t.string({ description: 'City or town where the organization is based.' }),
    region: t.string({ description: 'Region, county or state where the organization is based.' }),
    country: t.string({ description: 'ISO 3166-1 alpha-2 code.' }),
  }),
});

const CLEARABLE = ['website', 'logoUrl', 'city', 'region', 'country'] as const;

const ID_DESCRIPTION = "The organization's id.";
const INPUT_DESCRIPTION = 'The public fields to change.';

builder.queryFields((t) => ({
  organizationProfilePreview: t.field({
    type: ProfileEditRef,
    description: "The organization's public profile as a change would leave it, without saving it. For its admins.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      id: t.arg.id({ description: ID_DESCRIPTION, required: true }),
      input: t.arg({ description: INPUT_DESCRIPTION, type: PublicProfileChangesInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) =>
      ctx.services.organizations.editProfile(ctx.actor, String(id), withoutNulls(input, CLEARABLE), false),
  }),
}));

builder.mutationFields((t) => ({
  updateOrganizationProfile: t.field({
    type: ProfileEditRef,
    description:
      "Changes the organization's public profile, never its plan or listing. For its admins; nothing is saved when a field is refused.",
    authScopes: ORGANIZATION_ADMIN,
    args: {
      id: t.arg.id({ description: ID_DESCRIPTION, required: true }),
      input: t.arg({ description: INPUT_DESCRIPTION, type: PublicProfileChangesInput, required: true }),
    },
    resolve: (_root, { id, input }, ctx) =>
      ctx.services.organizations.editProfile(ctx.actor, String(id), withoutNulls(input, CLEARABLE), true),
  }),
}));
