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
    sector: t.string(),
    place: t.string({ description: 'A city, region or country (name or ISO code); comma-separated parts must all match.' }),
    network: t.string(),
    text: t.string({ description: 'Free text, ranked: matches in name, capabilities and sectors weigh most.' }),
  }),
});

const WantedPlaceInput = builder.inputType('WantedPlaceInput', {
  fields: (t) => ({
    city: t.string(),
    region: t.string(),
    country: t.string({ description: 'ISO 3166-1 alpha-2 code or a country name' }),
  }),
});

const ComposeTeamInput = builder.inputType('ComposeTeamInput', {
  description: 'What a team is wanted for. Give requiredExpertise, or a needText that names some.',
  fields: (t) => ({
    needText: t.string({ description: 'Free text of the need; read for expertise only, never stored or returned.' }),
    requiredExpertise: t.stringList({ description: 'Expertise wanted; when given, needText is not read.' }),
    place: t.field({ type: WantedPlaceInput }),
    remote: t.boolean({ description: 'True: remote work accepted. False: organizations in another country are penalised.' }),
    maxMembers: t.int({ description: 'Most organizations in the team, 1 to 6 (default 4).' }),
  }),
});

const RequiredExpertiseRef = builder.objectRef<TeamProposal['required'][number]>('RequiredExpertise').implement({
  fields: (t) => ({
    concept: t.exposeString('concept', { description: 'Vocabulary id, or the normalized term for an unknown expertise.' }),
    label: t.exposeString('label'),
  }),
});

const TeamMemberRef = builder.objectRef<TeamMember>('TeamMember').implement({
  description: 'One proposed member and why it was chosen.',
  fields: (t) => ({
    organizationId: t.exposeID('organizationId'),
    name: t.exposeString('name'),
    profileUrl: t.exposeString('profileUrl'),
    covers: t.exposeStringList('covers', { description: 'Labels of the required expertise this member brings.' }),
    reasons: t.exposeStringList('reasons'),
    score: t.exposeFloat('score'),
  }),
});

const TeamProposalRef = builder.objectRef<TeamProposal>('TeamProposal').implement({
  description: 'A proposed complementary team. A proposal only: no organization has been contacted.',
  fields: (t) => ({
    required: t.expose('required', { type: [RequiredExpertiseRef] }),
    members: t.expose('members', { type: [TeamMemberRef] }),
    coveragePercent: t.exposeInt('coveragePercent'),
    gaps: t.exposeStringList('gaps', { description: 'Required expertise nobody in the team covers.' }),
    explanation: t.exposeString('explanation'),
  }),
});

const FaqEntryRef = builder.objectRef<FaqAnswer>('FaqEntry').implement({
  description: 'One question of the FAQ kept with the service.',
  fields: (t) => ({
    id: t.exposeID('id'),
    question: t.exposeString('question'),
    answer: t.exposeString('answer'),
    tags: t.exposeStringList('tags'),
    url: t.exposeString('url', { description: 'Where to read more (absolute).' }),
    faqUrl: t.exposeString('faqUrl', { description: 'The entry on the FAQ page (absolute).' }),
  }),
});

const FaqHitRef = builder.objectRef<FaqResult>('FaqHit').implement({
  fields: (t) => ({
    entry: t.expose('entry', { type: FaqEntryRef }),
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
      args: { filter: t.arg({ type: DirectoryFilterInput }) },
      resolve: async (_root, args, ctx) =>
        toConnection(await ctx.services.directory.search(ctx.actor, withoutNulls(args.filter ?? {}), forwardArgs(args))),
    },
    { name: 'DirectoryConnection' },
    { name: 'DirectoryEdge' },
  ),
  directoryOrganization: t.field({
    ...directory,
    type: OrganizationRef,
    nullable: true,
    description: 'A discoverable organization; NOT_FOUND for any other.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.directory.get(ctx.actor, String(id)),
  }),
  composeTeam: t.field({
    ...directory,
    type: TeamProposalRef,
    description: 'Proposes a complementary team of discoverable organizations. Deterministic; nobody is contacted; nothing is stored.',
    args: { input: t.arg({ type: ComposeTeamInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      const { place, ...rest } = withoutNulls(input);
      return ctx.services.directory.composeTeam(ctx.actor, { ...rest, ...(place ? { place: withoutNulls(place) } : {}) });
    },
  }),
  faqSearch: t.field({
    ...directory,
    type: [FaqHitRef],
    description: 'FAQ entries answering a question (English or French), best first.',
    args: { query: t.arg.string({ required: true }), limit: t.arg.int({ description: '1 to 20, default 5' }) },
    resolve: (_root, { query, limit }, ctx) => ctx.services.directory.searchFaq(ctx.actor, query, limit ?? undefined),
  }),
  faqEntry: t.field({
    ...directory,
    type: FaqEntryRef,
    nullable: true,
    description: 'One FAQ entry; NOT_FOUND when there is none with this id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.directory.faqEntry(ctx.actor, String(id)),
  }),
}));
