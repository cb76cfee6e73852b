import type { FaqAnswer, FaqResult } from '../../core/services/directory.service.ts';
import type { TeamMember, TeamProposal } from '../../core/team-composition/index.ts';
import { builder } from '../builder.ts';
import { forwardArgs, toConnection } from '../connection.ts';
import { withoutNulls } from '../inputs.ts';
import { OrganizationRef } from './organization.type.ts';

// The public directory: discoverable organizations (listed, complete, not demonstration), team
// proposals over them, and the FAQ. Readable without an account (the public assistant connector)
// and by internal callers.

const directory = { authScopes: { internal: true, public: true } } as const;

const DirectoryFilterInput = builder.inputType('DirectoryFilter', {
  description: 'Every given filter must hold.',
  fields: (t) => ({
    capability: t.string({ description: 'An expertise offered, in English or French; synonyms match ("ux" finds "ux design").' }),
    sector: t.string({ description: 'A sector the organization works in.' }),
    place: t.string({ description: 'A city, region or country (name or ISO code); comma-separated parts must all match.' }),
    network: t.string({ description: 'A network or federation the organization belongs to.' }),
    text: t.string({ description: 'Free text, ranked: matches in name, capabilities and sectors weigh most.' }),
  }),
});

const WantedPlaceInput = builder.inputType('WantedPlaceInput', {
  description: 'Where the team should work; any part may be left out.',
  fields: (t) => ({
    city: t.string({ description: 'City or town.' }),
    region: t.string({ description: 'Region, county or state.' }),
    country: t.string({ description: 'ISO 3166-1 alpha-2 code or a country name' }),
  }),
});

const ComposeTeamInput = builder.inputType('ComposeTeamInput', {
  description: 'What a team is wanted for. Give requiredExpertise, or a needText that names some.',
  fields: (t) => ({
    needText: t.string({ description: 'Free text of the need; read for expertise only, never stored or returned.' }),
    requiredExpertise: t.stringList({ description: 'Expertise wanted; when given, needText is not read.' }),
    place: t.field({ description: 'Where the work takes place: organizations nearby rank higher.', type: WantedPlaceInput }),
    remote: t.boolean({ description: 'True: remote work accepted. False: organizations in another country are penalised.' }),
    maxMembers: t.int({ description: 'Most organizations in the team, 1 to 6 (default 4).' }),
  }),
});

const RequiredExpertiseRef = builder.objectRef<TeamProposal['required'][number]>('RequiredExpertise').implement({
  description: 'One expertise the team must cover, as read from the need.',
  fields: (t) => ({
    concept: t.exposeString('concept', { description: 'Vocabulary id, or the normalized term for an unknown expertise.' }),
    label: t.exposeString('label', { description: 'The expertise as a person reads it.' }),
  }),
});

const TeamMemberRef = builder.objectRef<TeamMember>('TeamMember').implement({
  description: 'One proposed member and why it was chosen.',
  fields: (t) => ({
    organizationId: t.exposeID('organizationId', { description: "The organization's id." }),
    name: t.exposeString('name', { description: "The organization's name." }),
    profileUrl: t.exposeString('profileUrl', { description: "The organization's public profile page." }),
    covers: t.exposeStringList('covers', { description: 'Labels of the required expertise this member brings.' }),
    reasons: t.exposeStringList('reasons', { description: 'Why this organization was chosen, one sentence each.' }),
    score: t.exposeFloat('score', { description: 'How well it fits; higher is better. Comparable within one proposal only.' }),
  }),
});

const TeamProposalRef = builder.objectRef<TeamProposal>('TeamProposal').implement({
  description: 'A proposed complementary team. A proposal only: no organization has been contacted.',
  fields: (t) => ({
    required: t.expose('required', { description: 'The expertise the team must cover.', type: [RequiredExpertiseRef] }),
    members: t.expose('members', { description: 'The proposed organizations, best fit first.', type: [TeamMemberRef] }),
    coveragePercent: t.exposeInt('coveragePercent', { description: 'Share of the required expertise the team covers, 0 to 100.' }),
    gaps: t.exposeStringList('gaps', { description: 'Required expertise nobody in the team covers.' }),
    explanation: t.exposeString('explanation', { description: 'The proposal in a few sentences, for a person to read.' }),
  }),
});

const FaqEntryRef = builder.objectRef<FaqAnswer>('FaqEntry').implement({
  description: 'One question of the FAQ kept with the service.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The entry's id." }),
    question: t.exposeString('question', { description: 'The question, as people ask it.' }),
    answer: t.exposeString('answer', { description: 'The answer, in plain text.' }),
    tags: t.exposeStringList('tags', { description: 'Topics of the entry, used in matching.' }),
    url: t.exposeString('url', { description: 'Where to read more (absolute).' }),
    faqUrl: t.exposeString('faqUrl', { description: 'The entry on the public FAQ page, /faq#<id> (absolute).' }),
  }),
});

const FaqHitRef = builder.objectRef<FaqResult>('FaqHit').implement({
  description: 'An FAQ entry matching a question, with its relevance.',
  fields: (t) => ({
    entry: t.expose('entry', { description: 'The matching entry.', type: FaqEntryRef }),
    score: t.exposeFloat('score', { description: 'Relevance; higher is better.' }),
  }),
});

builder.queryFields((t) => ({
  directoryOrganizations: t.connection(
    {
      ...directory,
      type: OrganizationRef,
      description:
        'Discoverable organizations matching a filter: by id, or most relevant first with a text. Forward pagination only (first ≤ 50).',
      args: {
        filter: t.arg({
          description: 'Filters on capability, sector, place, network or text; all organizations when omitted.',
          type: DirectoryFilterInput,
        }),
      },
      resolve: async (_root, args, ctx) =>
        toConnection(await ctx.services.directory.search(ctx.actor, withoutNulls(args.filter ?? {}), forwardArgs(args))),
    },
    { name: 'DirectoryConnection', description: 'A page of discoverable organizations.' },
    { name: 'DirectoryEdge', description: 'A discoverable organization and its cursor.' },
  ),
  directoryOrganization: t.field({
    ...directory,
    type: OrganizationRef,
    nullable: true,
    description: 'A discoverable organization; NOT_FOUND for any other.',
    args: { id: t.arg.id({ description: "The organization's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.directory.get(ctx.actor, String(id)),
  }),
  composeTeam: t.field({
    ...directory,
    type: TeamProposalRef,
    description: 'Proposes a complementary team of discoverable organizations. Deterministic; nobody is contacted; nothing is stored.',
    args: { input: t.arg({ description: "The expertise wanted, the place and the team's size.", type: ComposeTeamInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      const { place, ...rest } = withoutNulls(input);
      return ctx.services.directory.composeTeam(ctx.actor, { ...rest, ...(place ? { place: withoutNulls(place) } : {}) });
    },
  }),
  faqSearch: t.field({
    ...directory,
    type: [FaqHitRef],
    description: 'FAQ entries answering a question (English or French), best first.',
    args: {
      query: t.arg.string({ description: 'The question, in English or French.', required: true }),
      limit: t.arg.int({ description: '1 to 20, default 5' }),
    },
    resolve: (_root, { query, limit }, ctx) => ctx.services.directory.searchFaq(ctx.actor, query, limit ?? undefined),
  }),
  faqEntries: t.field({
    ...directory,
    type: [FaqEntryRef],
    description: 'Every FAQ entry, in the order of the FAQ page.',
    resolve: (_root, _args, ctx) => ctx.services.directory.faqEntries(ctx.actor),
  }),
  faqEntry: t.field({
    ...directory,
    type: FaqEntryRef,
    nullable: true,
    description: 'One FAQ entry; NOT_FOUND when there is none with this id.',
    args: { id: t.arg.id({ description: "The entry's id.", required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.directory.faqEntry(ctx.actor, String(id)),
  }),
}));
