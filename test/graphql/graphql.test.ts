import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, startStack, type Stack } from '../support/stack.ts';
import type { MutationData, QueryData } from '../support/graphql-data.ts';

// The internal GraphQL facade (/graphql): the token gate, every admin mutation and its effect
// seen through queries, domain errors as extensions.code, relay connections, error masking.

interface GraphQLErrorJson {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; field?: string; [key: string]: unknown };
}

/** One page of a relay connection, as these tests select it. */
interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

interface Raw {
  status: number;
  headers: Headers;
  text: string;
  body: { data?: unknown; errors?: GraphQLErrorJson[] };
}

const DAY = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
/** What an error answer must never carry: stack frames, source paths, the original error. */
const INTERNALS = /\n\s+at |\bat [\w.<>]+ \(|\.ts:\d+|node_modules|"stack"|originalError|DriverException|SELECT |select /;

describe('internal GraphQL', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  async function raw(
    query: string,
    variables: Record<string, unknown> = {},
    authorization: string | null = `Bearer ${INTERNAL_TOKEN}`,
  ): Promise<Raw> {
    const res = await fetch(`${stack.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization === null ? {} : { authorization }) },
      body: JSON.stringify({ query, variables }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
  }

  const run = <T = unknown>(query: string, variables: Record<string, unknown> = {}) => stack.graphql<T>(query, variables);

  /** The single error of a failing call, checked for leaked internals. */
  async function failure(query: string, variables: Record<string, unknown> = {}): Promise<GraphQLErrorJson> {
    const answer = await raw(query, variables);
    expect(answer.text).not.toMatch(INTERNALS);
    expect(answer.body.errors, answer.text).toHaveLength(1);
    return answer.body.errors![0]!;
  }

  async function expectDomainError(
    query: string,
    variables: Record<string, unknown>,
    code: string,
    extra: { field?: string; message?: RegExp } = {},
  ) {
    const error = await failure(query, variables);
    expect(error.extensions?.code, error.message).toBe(code);
    if (extra.field !== undefined) expect(error.extensions?.field).toBe(extra.field);
    if (extra.message) expect(error.message).toMatch(extra.message);
    return error;
  }

  describe('token gate', () => {
    it('refuses a request without a token with 401 and a Bearer challenge', async () => {
      const answer = await raw('{ __typename }', {}, null);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(answer.body.data).toBeUndefined();
    });

    it.each([
      ['a wrong token', `Bearer ${INTERNAL_TOKEN.slice(0, -1)}X`],
      ['a longer token', `Bearer ${INTERNAL_TOKEN}0`],
      ['another scheme', `Basic ${Buffer.from(`internal:${INTERNAL_TOKEN}`).toString('base64')}`],
      ['an empty bearer', 'Bearer '],
    ])('refuses %s with 401', async (_label, authorization) => {
      const answer = await raw('{ organizations(first: 1) { edges { node { id } } } }', {}, authorization);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(answer.body.data).toBeUndefined();
    });

    it('refuses a public API key: keys and the internal token never interchange', async () => {
      const answer = await raw('{ __typename }', {}, `Bearer ${stack.demoKey}`);
      expect(answer.status).toBe(401);
    });

    it('answers the internal token with data', async () => {
      const answer = await raw('{ __typename organization(id: "atelier-nord") { id name plan } }');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        data: { __typename: 'Query', organization: { id: 'atelier-nord', name: 'Atelier Nord', plan: 'clan' } },
      });
    });
  });

  describe('organizations and members', () => {
    const ORG = `id name description website logoUrl sectors capabilities networks plan listed demo complete
      place { city region country } partnerPayment { confirmedRatePercent partnersCount }
      proofs { completedPacks references certifications } profileUrl allowances { activeKeys monthlyQuota }`;
    const MEMBER = 'id email name memberships { organizationId role }';
    const CREATE = `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`;

    beforeAll(async () => {
      // The organization the update and membership tests work on.
      await run(CREATE, {
        input: {
          id: 'gql-test-org',
          profile: { name: 'GraphQL Test Org', plan: 'alpha', description: 'Made by a test', website: 'https://gql.example' },
        },
      });
    });

    it('creates an organization and answers with its whole profile', async () => {
      const { createOrganization: created } = await run<MutationData<'createOrganization'>>(
        `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { ${ORG} } }`,
        {
          input: {
            id: 'gql-full-org',
            profile: {
              name: 'GraphQL Full Org',
              plan: 'alpha',
              description: 'Made by a test',
              website: 'https://gql.example',
              sectors: ['testing'],
              city: 'Gent',
              country: 'be',
            },
          },
        },
      );
      expect(created).toMatchObject({
        id: 'gql-full-org',
        name: 'GraphQL Full Org',
        plan: 'alpha',
        listed: true,
        demo: false,
        complete: true,
        website: 'https://gql.example',
        sectors: ['testing'],
        place: { city: 'Gent', region: null, country: 'BE' },
        partnerPayment: { confirmedRatePercent: null, partnersCount: 0 },
        proofs: { completedPacks: 0, references: 0, certifications: 0 },
        allowances: { activeKeys: 1, monthlyQuota: 10_000 },
      });
      expect(created.profileUrl).toMatch(/\/organizations\/gql-full-org$/);
    });

    it('reads a created organization back and finds it in the list', async () => {
      const { organization } = await run<QueryData<'organization'>>(`query { organization(id: "gql-test-org") { ${ORG} } }`);
      expect(organization).toMatchObject({
        id: 'gql-test-org',
        name: 'GraphQL Test Org',
        plan: 'alpha',
        website: 'https://gql.example',
        place: { city: null, region: null, country: null },
        partnerPayment: { confirmedRatePercent: null, partnersCount: 0 },
        proofs: { completedPacks: 0, references: 0, certifications: 0 },
      });
      const ids = (await allNodes<{ id: string }>('organizations', '', 'id')).map((o) => o.id);
      expect(ids).toContain('gql-test-org');
      expect(ids).toEqual([...ids].sort());
    });

    it('refuses a duplicate organization id with CONFLICT and a malformed one with INVALID_INPUT', async () => {
      const mutation = `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { id } }`;
      const error = await expectDomainError(
        mutation,
        { input: { id: 'atelier-nord', profile: { name: 'Again', plan: 'base' } } },
        'CONFLICT',
        { field: 'id' },
      );
      expect(error.message).toContain('atelier-nord');
      expect(error.path).toEqual(['createOrganization']);
      await expectDomainError(mutation, { input: { id: 'Not A Slug', profile: { name: 'X', plan: 'base' } } }, 'INVALID_INPUT', {
        field: 'id',
      });
      await expectDomainError(mutation, { input: { id: 'blank-name', profile: { name: '   ', plan: 'base' } } }, 'INVALID_INPUT', {
        field: 'name',
      });
    });

    it('updates an organization, clears a clearable field, and validates input', async () => {
      const mutation = `mutation ($id: ID!, $input: OrganizationProfileChanges!) { updateOrganization(id: $id, input: $input) { ${ORG} } }`;
      const { updateOrganization } = await run<MutationData<'updateOrganization'>>(mutation, {
        id: 'gql-test-org',
        input: { name: 'Renamed Org', plan: 'clan', website: null, listed: false },
      });
      expect(updateOrganization).toMatchObject({
        name: 'Renamed Org',
        plan: 'clan',
        website: null,
        listed: false,
        description: 'Made by a test',
      });
      const { organization } = await run<QueryData<'organization'>>(
        `{ organization(id: "gql-test-org") { name plan website listed allowances { activeKeys } } }`,
      );
      expect(organization).toEqual({ name: 'Renamed Org', plan: 'clan', website: null, listed: false, allowances: { activeKeys: 5 } });
      await expectDomainError(mutation, { id: 'gql-test-org', input: { website: 'ftp://files.example' } }, 'INVALID_INPUT', {
        field: 'website',
      });
      await expectDomainError(mutation, { id: 'gql-test-org', input: { country: 'France' } }, 'INVALID_INPUT', { field: 'country' });
      await expectDomainError(mutation, { id: 'no-such-org', input: { name: 'X' } }, 'NOT_FOUND', { message: /no-such-org/ });
    });

    it('creates members, changes and removes memberships', async () => {
      const { createMember } = await run<MutationData<'createMember'>>(
        `mutation ($input: NewMemberInput!) { createMember(input: $input) { ${MEMBER} } }`,
        {
          input: { email: 'Zoe@GQL.example', name: 'Zoé Test', organizationId: 'gql-test-org', role: 'admin' },
        },
      );
      expect(createMember).toMatchObject({
        email: 'zoe@gql.example',
        name: 'Zoé Test',
        memberships: [{ organizationId: 'gql-test-org', role: 'admin' }],
      });
      const id = createMember.id as string;

      const { setMembership: joined } = await run<MutationData<'setMembership'>>(
        `mutation ($m: ID!) { setMembership(memberId: $m, organizationId: "cobalt-data", role: member) { ${MEMBER} } }`,
        { m: id },
      );
      expect(joined.memberships).toEqual([
        { organizationId: 'gql-test-org', role: 'admin' },
        { organizationId: 'cobalt-data', role: 'member' },
      ]);
      const { setMembership: promoted } = await run<MutationData<'setMembership'>>(
        `mutation ($m: ID!) { setMembership(memberId: $m, organizationId: "cobalt-data", role: admin) { ${MEMBER} } }`,
        { m: id },
      );
      expect(promoted.memberships).toContainEqual({ organizationId: 'cobalt-data', role: 'admin' });
      expect(promoted.memberships).toHaveLength(2);

      const { members } = await run<QueryData<'members'>>(
        `{ members(organizationId: "cobalt-data") { email memberships { organizationId role } } }`,
      );
      expect(members.map((m: { email: string }) => m.email)).toEqual(
        expect.arrayContaining(['lucas@cobalt-data.example', 'zoe@gql.example']),
      );

      const { removeMembership } = await run<MutationData<'removeMembership'>>(
        `mutation ($m: ID!) { removeMembership(memberId: $m, organizationId: "gql-test-org") { ${MEMBER} } }`,
        { m: id },
      );
      expect(removeMembership.memberships).toEqual([{ organizationId: 'cobalt-data', role: 'admin' }]);
      const { member } = await run<QueryData<'member'>>(`query ($e: String!) { member(idOrEmail: $e) { ${MEMBER} } }`, {
        e: 'ZOE@gql.example',
      });
      expect(member).toEqual(removeMembership);
      const { members: former } = await run<QueryData<'members'>>(`{ members(organizationId: "gql-test-org") { id } }`);
      expect(former).toEqual([]);

      await expectDomainError(
        `mutation ($m: ID!) { removeMembership(memberId: $m, organizationId: "gql-test-org") { id } }`,
        { m: id },
        'NOT_FOUND',
      );
      await expectDomainError(
        `mutation { setMembership(memberId: "m_nobody", organizationId: "cobalt-data", role: admin) { id } }`,
        {},
        'NOT_FOUND',
      );
      await expectDomainError(
        `mutation ($m: ID!) { setMembership(memberId: $m, organizationId: "no-such-org", role: admin) { id } }`,
        { m: id },
        'NOT_FOUND',
      );
      const create = `mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`;
      await expectDomainError(create, { input: { email: 'zoe@gql.example', name: 'Twice' } }, 'CONFLICT', { field: 'email' });
      await expectDomainError(create, { input: { email: 'not-an-email', name: 'X' } }, 'INVALID_INPUT', { field: 'email' });
      await expectDomainError(`{ member(idOrEmail: "nobody@nowhere.example") { id } }`, {}, 'NOT_FOUND');
    });
  });

  describe('needs', () => {
    const NEED =
      'id title description requiredExpertise remoteAllowed place { city region country } publishedAt deadline url admin { state version discreet demo withdrawnAt }';
    const need = async (id: string) => (await run<QueryData<'need'>>(`query ($id: ID!) { need(id: $id) { ${NEED} } }`, { id })).need;
    const publicNeed = `query ($id: ID!) { opportunity(id: $id) { id title } }`;

    it('publishes a need: public, version 1, newest in the list', async () => {
      const { publishNeed } = await run<MutationData<'publishNeed'>>(
        `mutation ($input: NewNeedInput!) { publishNeed(input: $input) { ${NEED} } }`,
        {
          input: {
            organizationId: 'atelier-nord',
            title: 'GQL published need',
            description: 'Hello',
            requiredExpertise: ['testing', 'Testing', ' qa '],
            remoteAllowed: true,
            city: 'Lille',
            country: 'fr',
            deadline: inDays(20),
          },
        },
      );
      expect(publishNeed).toMatchObject({
        title: 'GQL published need',
        requiredExpertise: ['testing', 'qa'],
        remoteAllowed: true,
        place: { city: 'Lille', region: null, country: 'FR' },
        admin: { state: 'public', version: 1, discreet: false, demo: false, withdrawnAt: null },
      });
      expect(publishNeed.publishedAt).toEqual(expect.any(String));
      expect((await run<QueryData<'opportunity'>>(publicNeed, { id: publishNeed.id })).opportunity!.title).toBe('GQL published need');
      const { opportunities } = await run<QueryData<'opportunities'>>(`{ opportunities(first: 1) { edges { node { id } } } }`);
      expect(opportunities.edges[0]!.node.id).toBe(publishNeed.id);
    });

    it('bumps the version on public changes only, and clears clearable fields', async () => {
      const { publishNeed: created } = await run<MutationData<'publishNeed'>>(
        `mutation { publishNeed(input: { organizationId: "delta-forge", title: "GQL versioned need", city: "Berlin", country: "DE" }) { id } }`,
      );
      const update = `mutation ($id: ID!, $input: NeedChangesInput!) { updateNeed(id: $id, input: $input) { ${NEED} } }`;
      const first = (await run<MutationData<'updateNeed'>>(update, { id: created.id, input: { title: 'GQL versioned need, v2' } }))
        .updateNeed;
      expect(first.admin.version).toBe(2);
      const same = (
        await run<MutationData<'updateNeed'>>(update, { id: created.id, input: { title: 'GQL versioned need, v2', description: null } })
      ).updateNeed;
      expect(same.admin.version).toBe(2);
      const cleared = (await run<MutationData<'updateNeed'>>(update, { id: created.id, input: { city: null, country: null } })).updateNeed;
      expect(cleared.place).toBeNull();
      expect(cleared.admin.version).toBe(3);
      expect(await need(created.id)).toMatchObject({ title: 'GQL versioned need, v2', admin: { version: 3, state: 'public' } });
      await expectDomainError(update, { id: created.id, input: { title: '' } }, 'INVALID_INPUT', { field: 'title' });
      await expectDomainError(update, { id: created.id, input: { country: 'Germany' } }, 'INVALID_INPUT', { field: 'country' });
      await expectDomainError(update, { id: 'n_nothing', input: { title: 'x' } }, 'NOT_FOUND', { message: /n_nothing/ });
    });

    it('keeps drafts out of public output, without bumping versions, until published', async () => {
      const { createNeedDraft: draft } = await run<MutationData<'createNeedDraft'>>(
        `mutation { createNeedDraft(input: { organizationId: "brightwave-labs", title: "GQL draft need" }) { ${NEED} } }`,
      );
      expect(draft.admin).toMatchObject({ state: 'draft', version: 0 });
      expect(draft.publishedAt).toBeNull();
      await expectDomainError(publicNeed, { id: draft.id }, 'NOT_FOUND');
      const { updateNeed } = await run<MutationData<'updateNeed'>>(
        `mutation ($id: ID!) { updateNeed(id: $id, input: { title: "GQL draft need, edited", remoteAllowed: true }) { ${NEED} } }`,
        { id: draft.id },
      );
      expect(updateNeed).toMatchObject({ title: 'GQL draft need, edited', admin: { state: 'draft', version: 0 } });
      const { needs } = await run<QueryData<'needs'>>(
        `{ needs(organizationId: "brightwave-labs", state: draft, first: 50) { edges { node { id admin { state } } } } }`,
      );
      expect(needs.edges.map((e) => e.node.id)).toContain(draft.id);
      expect(needs.edges.every((e) => e.node.admin.state === 'draft')).toBe(true);

      const { publishNeedDraft } = await run<MutationData<'publishNeedDraft'>>(
        `mutation ($id: ID!) { publishNeedDraft(id: $id) { ${NEED} } }`,
        { id: draft.id },
      );
      expect(publishNeedDraft).toMatchObject({ title: 'GQL draft need, edited', admin: { state: 'public', version: 1 } });
      expect(publishNeedDraft.publishedAt).toEqual(expect.any(String));
      expect((await run<QueryData<'opportunity'>>(publicNeed, { id: draft.id })).opportunity!.id).toBe(draft.id);
      await expectDomainError(`mutation ($id: ID!) { publishNeedDraft(id: $id) { id } }`, { id: draft.id }, 'INVALID_STATE', {
        message: /already public/,
      });
    });

    it('makes a need private and publishes it again', async () => {
      const { publishNeed: created } = await run<MutationData<'publishNeed'>>(
        `mutation { publishNeed(input: { organizationId: "juniper-green", title: "GQL private need" }) { id } }`,
      );
      const { makeNeedPrivate } = await run<MutationData<'makeNeedPrivate'>>(
        `mutation ($id: ID!) { makeNeedPrivate(id: $id) { ${NEED} } }`,
        { id: created.id },
      );
      expect(makeNeedPrivate.admin).toMatchObject({ state: 'private', version: 2 });
      expect(makeNeedPrivate.admin.withdrawnAt).toEqual(expect.any(String));
      await expectDomainError(publicNeed, { id: created.id }, 'NOT_FOUND');
      await expectDomainError(`mutation ($id: ID!) { makeNeedPrivate(id: $id) { id } }`, { id: created.id }, 'INVALID_STATE');
      // A private need's changes are not public: no version bump.
      const { updateNeed } = await run<MutationData<'updateNeed'>>(
        `mutation ($id: ID!) { updateNeed(id: $id, input: { description: "quiet change" }) { admin { version } } }`,
        { id: created.id },
      );
      expect(updateNeed.admin.version).toBe(2);
      const { publishNeedDraft } = await run<MutationData<'publishNeedDraft'>>(
        `mutation ($id: ID!) { publishNeedDraft(id: $id) { ${NEED} } }`,
        { id: created.id },
      );
      expect(publishNeedDraft.admin).toMatchObject({ state: 'public', version: 3, withdrawnAt: null });
      expect((await run<QueryData<'opportunity'>>(publicNeed, { id: created.id })).opportunity!.id).toBe(created.id);
    });

    it('withdraws a need for good: INVALID_STATE when withdrawn twice, changed or republished', async () => {
      const { publishNeed: created } = await run<MutationData<'publishNeed'>>(
        `mutation { publishNeed(input: { organizationId: "cobalt-data", title: "GQL withdrawn need" }) { id } }`,
      );
      const { withdrawNeed } = await run<MutationData<'withdrawNeed'>>(`mutation ($id: ID!) { withdrawNeed(id: $id) { ${NEED} } }`, {
        id: created.id,
      });
      expect(withdrawNeed.admin).toMatchObject({ state: 'withdrawn', version: 2 });
      expect(withdrawNeed.admin.withdrawnAt).toEqual(expect.any(String));
      await expectDomainError(publicNeed, { id: created.id }, 'NOT_FOUND', { message: new RegExp(created.id) });
      expect((await need(created.id))!.admin.state).toBe('withdrawn');
      await expectDomainError(`mutation ($id: ID!) { withdrawNeed(id: $id) { id } }`, { id: created.id }, 'INVALID_STATE', {
        message: /already withdrawn/,
      });
      await expectDomainError(`mutation ($id: ID!) { makeNeedPrivate(id: $id) { id } }`, { id: created.id }, 'INVALID_STATE');
      await expectDomainError(
        `mutation ($id: ID!) { updateNeed(id: $id, input: { title: "again" }) { id } }`,
        { id: created.id },
        'INVALID_STATE',
      );
      await expectDomainError(`mutation ($id: ID!) { publishNeedDraft(id: $id) { id } }`, { id: created.id }, 'INVALID_STATE');
      expect((await need(created.id))!.admin.version).toBe(2);
    });

    it('withdraws a draft without a version bump (it was never public)', async () => {
      const { createNeedDraft: draft } = await run<MutationData<'createNeedDraft'>>(
        `mutation { createNeedDraft(input: { organizationId: "cobalt-data", title: "GQL draft withdrawn" }) { id } }`,
      );
      const { withdrawNeed } = await run<MutationData<'withdrawNeed'>>(
        `mutation ($id: ID!) { withdrawNeed(id: $id) { admin { state version withdrawnAt } } }`,
        {
          id: draft.id,
        },
      );
      expect(withdrawNeed.admin).toEqual({ state: 'withdrawn', version: 0, withdrawnAt: null });
    });

    it('keeps demonstration needs out of public output', async () => {
      const { publishNeed: demo } = await run<MutationData<'publishNeed'>>(
        `mutation { publishNeed(input: { organizationId: "iris-demo", title: "GQL demo org need" }) { id admin { demo state version } } }`,
      );
      expect(demo.admin).toEqual({ demo: true, state: 'public', version: 0 });
      await expectDomainError(publicNeed, { id: demo.id }, 'NOT_FOUND');
      const { publishNeed: flagged } = await run<MutationData<'publishNeed'>>(
        `mutation { publishNeed(input: { organizationId: "atelier-nord", title: "GQL flagged demo", demo: true, discreet: true }) { id admin { demo discreet } } }`,
      );
      expect(flagged.admin).toEqual({ demo: true, discreet: true });
      await expectDomainError(publicNeed, { id: flagged.id }, 'NOT_FOUND');
    });

    it('validates new needs', async () => {
      const publish = `mutation ($input: NewNeedInput!) { publishNeed(input: $input) { id } }`;
      await expectDomainError(publish, { input: { organizationId: 'atelier-nord', title: '   ' } }, 'INVALID_INPUT', { field: 'title' });
      await expectDomainError(publish, { input: { organizationId: 'atelier-nord', title: 'x'.repeat(201) } }, 'INVALID_INPUT', {
        field: 'title',
      });
      await expectDomainError(
        publish,
        { input: { organizationId: 'atelier-nord', title: 'ok', requiredExpertise: ['x'.repeat(81)] } },
        'INVALID_INPUT',
        { field: 'required_expertise' },
      );
      await expectDomainError(publish, { input: { organizationId: 'no-such-org', title: 'ok' } }, 'NOT_FOUND', { message: /no-such-org/ });
      await expectDomainError(`mutation { withdrawNeed(id: "n_nothing") { id } }`, {}, 'NOT_FOUND');
      await expectDomainError(`{ need(id: "n_nothing") { id } }`, {}, 'NOT_FOUND');
    });
  });

  describe('events', () => {
    const EVENT =
      'id title description startsAt endsAt timezone online place { city region country } url host { id name } admin { status version demo cancelledAt }';
    const publicEvent = `query ($id: ID!) { event(id: $id) { id title } }`;

    it('creates, updates and cancels an event, bumping the version on public changes', async () => {
      const { createEvent: created } = await run<MutationData<'createEvent'>>(
        `mutation ($input: NewEventInput!) { createEvent(input: $input) { ${EVENT} } }`,
        {
          input: {
            organizationId: 'ember-comms',
            title: 'GQL event',
            startsAt: inDays(40),
            endsAt: inDays(40.1),
            timezone: 'Europe/Paris',
            city: 'Paris',
            country: 'FR',
            hostNotes: 'internal only',
          },
        },
      );
      expect(created).toMatchObject({
        title: 'GQL event',
        online: false,
        timezone: 'Europe/Paris',
        place: { city: 'Paris', region: null, country: 'FR' },
        host: { id: 'ember-comms', name: 'Ember Communication' },
        admin: { status: 'public', version: 1, demo: false, cancelledAt: null },
      });
      expect((await run<QueryData<'event'>>(publicEvent, { id: created.id })).event!.title).toBe('GQL event');
      const { events } = await run<QueryData<'events'>>(`{ events(first: 50) { edges { node { id } } } }`);
      expect(events.edges.map((e) => e.node.id)).toContain(created.id);

      const update = `mutation ($id: ID!, $input: EventChangesInput!) { updateEvent(id: $id, input: $input) { ${EVENT} } }`;
      const moved = (await run<MutationData<'updateEvent'>>(update, { id: created.id, input: { online: true } })).updateEvent;
      expect(moved).toMatchObject({ online: true, place: null, admin: { version: 2 } });
      const same = (await run<MutationData<'updateEvent'>>(update, { id: created.id, input: { online: true, title: 'GQL event' } }))
        .updateEvent;
      expect(same.admin.version).toBe(2);
      const retitled = (
        await run<MutationData<'updateEvent'>>(update, {
          id: created.id,
          input: { title: 'GQL event, renamed', startsAt: inDays(41), endsAt: inDays(41.1) },
        })
      ).updateEvent;
      expect(retitled.admin.version).toBe(3);
      await expectDomainError(update, { id: created.id, input: { endsAt: inDays(30) } }, 'INVALID_INPUT', { field: 'ends_at' });
      await expectDomainError(update, { id: created.id, input: { timezone: 'Mars/Olympus' } }, 'INVALID_INPUT', { field: 'timezone' });
      await expectDomainError(update, { id: 'ev_nothing', input: { title: 'x' } }, 'NOT_FOUND');

      const { cancelEvent } = await run<MutationData<'cancelEvent'>>(`mutation ($id: ID!) { cancelEvent(id: $id) { ${EVENT} } }`, {
        id: created.id,
      });
      expect(cancelEvent.admin).toMatchObject({ status: 'cancelled', version: 4 });
      expect(cancelEvent.admin.cancelledAt).toEqual(expect.any(String));
      await expectDomainError(publicEvent, { id: created.id }, 'NOT_FOUND');
      const { anyEvent } = await run<QueryData<'anyEvent'>>(`query ($id: ID!) { anyEvent(id: $id) { ${EVENT} } }`, { id: created.id });
      expect(anyEvent).toMatchObject({ title: 'GQL event, renamed', admin: { status: 'cancelled', version: 4 } });
      await expectDomainError(`mutation ($id: ID!) { cancelEvent(id: $id) { id } }`, { id: created.id }, 'INVALID_STATE', {
        message: /already cancelled/,
      });
      await expectDomainError(update, { id: created.id, input: { title: 'after' } }, 'INVALID_STATE');
    });

    it('validates new events and keeps demonstration events private', async () => {
      const create = `mutation ($input: NewEventInput!) { createEvent(input: $input) { id admin { demo status } } }`;
      const base = { organizationId: 'kite-translations', title: 'GQL bad event', startsAt: inDays(10), endsAt: inDays(10.1) };
      await expectDomainError(create, { input: { ...base } }, 'INVALID_INPUT', { field: 'city' });
      await expectDomainError(create, { input: { ...base, online: true, endsAt: inDays(9) } }, 'INVALID_INPUT', { field: 'ends_at' });
      await expectDomainError(create, { input: { ...base, online: true, organizationId: 'no-such-org' } }, 'NOT_FOUND');
      await expectDomainError(`{ anyEvent(id: "ev_nothing") { id } }`, {}, 'NOT_FOUND');
      // An online event has no place: a given country is dropped.
      const { createEvent: online } = await run<MutationData<'createEvent'>>(
        `mutation ($input: NewEventInput!) { createEvent(input: $input) { online place { country } } }`,
        { input: { ...base, online: true, country: 'BE' } },
      );
      expect(online).toEqual({ online: true, place: null });
      const { createEvent: demo } = await run<MutationData<'createEvent'>>(create, {
        input: { ...base, organizationId: 'iris-demo', online: true },
      });
      expect(demo.admin).toEqual({ demo: true, status: 'public' });
      await expectDomainError(publicEvent, { id: demo.id }, 'NOT_FOUND');
    });

    it('refuses a DateTime that is not ISO 8601 as a GraphQL input error', async () => {
      const answer = await raw(
        `mutation { createEvent(input: { organizationId: "kite-translations", title: "x", online: true, startsAt: "tomorrow", endsAt: "later" }) { id } }`,
      );
      expect(answer.text).not.toMatch(INTERNALS);
      expect(answer.body.errors?.[0]?.message).toMatch(/ISO 8601/);
      expect(answer.body.data ?? null).toBeNull();
    });
  });

  describe('API keys', () => {
    const KEY = 'id organizationId name prefix scopes createdAt expiresAt lastUsedAt revokedAt status';
    const create = `mutation ($input: NewApiKeyInput!) { createApiKey(input: $input) { key apiKey { ${KEY} } } }`;

    it('creates a key shown once, usable on REST, listed without its value, and revokes it', async () => {
      const { createApiKey } = await run<MutationData<'createApiKey'>>(create, {
        input: { organizationId: 'delta-forge', name: 'GQL key', scopes: ['events:read'], expiresAt: inDays(90) },
      });
      const { key, apiKey } = createApiKey;
      expect(key).toMatch(/^live_[0-9A-Za-z]{36}$/);
      expect(apiKey).toMatchObject({
        organizationId: 'delta-forge',
        name: 'GQL key',
        scopes: ['events:read'],
        status: 'active',
        revokedAt: null,
        lastUsedAt: null,
      });
      expect(key.startsWith(apiKey.prefix)).toBe(true);
      expect(apiKey.prefix.length).toBeLessThan(key.length / 2);

      expect((await stack.get('/events?limit=1', { key })).status).toBe(200);
      expect((await stack.get('/organization', { key })).status).toBe(403);

      const { apiKeys } = await run<QueryData<'apiKeys'>>(`{ apiKeys(organizationId: "delta-forge") { ${KEY} } }`);
      expect(apiKeys[0]).toMatchObject({ id: apiKey.id, status: 'active' });
      expect(JSON.stringify(apiKeys)).not.toContain(key.slice(11));

      const { revokeApiKey } = await run<MutationData<'revokeApiKey'>>(`mutation ($id: ID!) { revokeApiKey(id: $id) { ${KEY} } }`, {
        id: apiKey.id,
      });
      expect(revokeApiKey).toMatchObject({ id: apiKey.id, status: 'revoked', revokedAt: expect.any(String) });
      expect((await stack.get('/events?limit=1', { key })).status).toBe(401);
      const again = (
        await run<MutationData<'revokeApiKey'>>(`mutation ($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, { id: apiKey.id })
      ).revokeApiKey;
      expect(again.revokedAt).toBe(revokeApiKey.revokedAt);
      const { apiKeys: after } = await run<QueryData<'apiKeys'>>(`{ apiKeys(organizationId: "delta-forge") { id status } }`);
      expect(after).toContainEqual({ id: apiKey.id, status: 'revoked' });
    });

    it("refuses keys beyond the plan's active-key limit with PLAN_LIMIT", async () => {
      const input = { organizationId: 'fjord-legal', scopes: ['organization:read'], expiresAt: inDays(30) };
      const { createApiKey: first } = await run<MutationData<'createApiKey'>>(create, { input });
      const error = await expectDomainError(create, { input }, 'PLAN_LIMIT', { message: /base plan allows 1 active API key/ });
      expect(error.path).toEqual(['createApiKey']);
      await run<MutationData<'revokeApiKey'>>(`mutation ($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: first.apiKey.id });
      const { createApiKey: second } = await run<MutationData<'createApiKey'>>(create, { input });
      expect(second.apiKey.status).toBe('active');
    });

    it('validates scopes, expiry and ids', async () => {
      const input = { organizationId: 'lumen-security', scopes: ['events:read'], expiresAt: inDays(30) };
      await expectDomainError(create, { input: { ...input, scopes: ['admin:write'] } }, 'INVALID_INPUT', {
        field: 'scopes',
        message: /admin:write/,
      });
      await expectDomainError(create, { input: { ...input, scopes: [] } }, 'INVALID_INPUT', { field: 'scopes' });
      await expectDomainError(create, { input: { ...input, expiresAt: inDays(-1) } }, 'INVALID_INPUT', { field: 'expires_at' });
      await expectDomainError(create, { input: { ...input, expiresAt: inDays(800) } }, 'INVALID_INPUT', { field: 'expires_at' });
      await expectDomainError(create, { input: { ...input, organizationId: 'no-such-org' } }, 'NOT_FOUND');
      await expectDomainError(`mutation { revokeApiKey(id: "key_nothing") { id } }`, {}, 'NOT_FOUND');
      await expectDomainError(`{ apiKeys(organizationId: "no-such-org") { id } }`, {}, 'NOT_FOUND');
    });
  });

  /** Every node of a connection, page by page through endCursor. */
  async function allNodes<T>(field: string, args: string, selection: string, pageSize = 7): Promise<T[]> {
    const nodes: T[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const data: Record<string, Connection<T>> = await run<Record<string, Connection<T>>>(
        `query ($after: String) { ${field}(first: ${pageSize}, after: $after${args}) { edges { cursor node { ${selection} } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
        { after },
      );
      const connection = data[field]!;
      expect(connection.pageInfo.hasPreviousPage).toBe(false);
      nodes.push(...connection.edges.map((e) => e.node));
      if (!connection.pageInfo.hasNextPage) return nodes;
      expect(connection.edges).toHaveLength(pageSize);
      after = connection.pageInfo.endCursor;
    }
    throw new Error(`${field}: more than 100 pages`);
  }

  describe('relay connections', () => {
    const CONNECTIONS = [
      ['opportunities', ''],
      ['events', ''],
      ['needs', ''],
      ['needs', ', organizationId: "atelier-nord"'],
      ['organizations', ''],
    ] as const;

    it.each(CONNECTIONS)('%s%s pages forward through endCursor without gaps or repeats', async (field, args) => {
      const { [field]: all } = await run<Record<string, Connection<{ id: string }>>>(
        `{ ${field}(first: 50${args}) { edges { node { id } } pageInfo { hasNextPage endCursor startCursor } } }`,
      );
      expect(all!.pageInfo.hasNextPage).toBe(false);
      const expected = all!.edges.map((e) => e.node.id);
      expect(expected.length).toBeGreaterThan(3);
      expect(all!.pageInfo.startCursor).toEqual(expect.any(String));
      const paged = await allNodes<{ id: string }>(field, args, 'id', 3);
      expect(paged.map((n) => n.id)).toEqual(expected);
    });

    it.each(CONNECTIONS)('%s%s resumes after any edge cursor', async (field, args) => {
      const { [field]: page } = await run<Record<string, Connection<{ id: string }>>>(
        `{ ${field}(first: 6${args}) { edges { cursor node { id } } } }`,
      );
      const ids = page!.edges.map((e) => e.node.id);
      for (const k of [0, 2]) {
        const { [field]: rest } = await run<Record<string, Connection<{ id: string }>>>(
          `query ($after: String) { ${field}(first: 3, after: $after${args}) { edges { node { id } } } }`,
          { after: page!.edges[k]!.cursor },
        );
        expect(
          rest!.edges.map((e) => e.node.id),
          `after edge ${k}`,
        ).toEqual(ids.slice(k + 1, k + 4));
      }
    });

    it('refuses last and before with a clear message', async () => {
      for (const args of ['last: 2', 'before: "abc"', 'first: 2, last: 2']) {
        const error = await expectDomainError(`{ opportunities(${args}) { edges { node { id } } } }`, {}, 'INVALID_INPUT', {
          message: /forward only: use first and after/,
        });
        expect(error.extensions?.field).toBe('last');
      }
      await expectDomainError(`{ needs(last: 1) { edges { cursor } } }`, {}, 'INVALID_INPUT', { message: /forward only/ });
    });

    it('refuses page sizes outside 1–50 and foreign or altered cursors', async () => {
      for (const first of [0, 51, -1]) {
        await expectDomainError(`{ events(first: ${first}) { edges { cursor } } }`, {}, 'INVALID_INPUT', { field: 'first' });
      }
      const { opportunities } = await run<QueryData<'opportunities'>>(`{ opportunities(first: 1) { pageInfo { endCursor } } }`);
      const cursor = opportunities.pageInfo.endCursor!;
      await expectDomainError(`query ($c: String) { events(first: 1, after: $c) { edges { cursor } } }`, { c: cursor }, 'INVALID_CURSOR', {
        field: 'cursor',
      });
      const altered = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
      await expectDomainError(
        `query ($c: String) { opportunities(first: 1, after: $c) { edges { cursor } } }`,
        { c: altered },
        'INVALID_CURSOR',
      );
      await expectDomainError(`{ organizations(after: "nonsense") { edges { cursor } } }`, {}, 'INVALID_CURSOR');
    });

    // Cursors are tamper-evident (docs/design.md#pagination-and-cursors): any change to the string is refused, trailing
    // characters and characters outside base64url included.
    it.each([
      ['a trailing character', (c: string) => `${c}x`],
      ['a character outside base64url in the signature', (c: string) => `${c.slice(0, -4)}!${c.slice(-4)}`],
    ])('refuses a cursor with %s', async (_label, alter) => {
      const { opportunities } = await run<QueryData<'opportunities'>>(`{ opportunities(first: 1) { pageInfo { endCursor } } }`);
      const altered = alter(opportunities.pageInfo.endCursor as string);
      expect(altered).not.toBe(opportunities.pageInfo.endCursor);
      await expectDomainError(
        `query ($c: String) { opportunities(first: 1, after: $c) { edges { cursor } } }`,
        { c: altered },
        'INVALID_CURSOR',
      );
      expect((await stack.get(`/opportunities?limit=1&cursor=${encodeURIComponent(altered)}`)).status).toBe(400);
    });
  });

  describe('errors and masking', () => {
    it('reports GraphQL validation errors normally, without internals', async () => {
      const answer = await raw('{ nope }');
      expect(answer.text).not.toMatch(INTERNALS);
      expect(answer.body.errors?.[0]).toMatchObject({
        message: 'Cannot query field "nope" on type "Query".',
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
      const syntax = await raw('{ organization(id: ');
      expect(syntax.text).not.toMatch(INTERNALS);
      expect(syntax.body.errors?.[0]?.message).toMatch(/Syntax Error/);
      const variables = await raw('query ($id: ID!) { need(id: $id) { id } }', {});
      expect(variables.text).not.toMatch(INTERNALS);
      expect(variables.body.errors?.[0]?.message).toMatch(/\$id/);
    });

    it('masks unexpected errors: no message, stack or source of the failure', async () => {
      const core = stack.app.core as unknown as { services: () => { needs: { get: () => Promise<unknown> } } };
      const services = core.services;
      core.services = () => {
        const s = services();
        s.needs.get = async () => {
          throw new Error('SECRET-INTERNAL-DETAIL: connection to db-primary.internal:5432 refused');
        };
        return s;
      };
      let answer: Raw;
      try {
        answer = await raw(`{ need(id: "n_anything") { id } organization(id: "atelier-nord") { id } }`);
      } finally {
        core.services = services;
      }
      expect(answer.text).not.toContain('SECRET-INTERNAL-DETAIL');
      expect(answer.text).not.toContain('db-primary');
      expect(answer.text).not.toMatch(INTERNALS);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({ message: 'Unexpected error.', path: ['need'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
      ]);
      // The rest of the query still answers.
      expect(answer.body.data).toEqual({ need: null, organization: { id: 'atelier-nord' } });
      // And the failure is in the log for operators.
      expect(stack.logs.some((line) => line.includes('SECRET-INTERNAL-DETAIL'))).toBe(true);
    });

    it('keeps domain error messages and codes, without internals', async () => {
      const error = await expectDomainError(`{ opportunity(id: "n_missing") { id } }`, {}, 'NOT_FOUND');
      expect(error).toMatchObject({
        message: "No opportunity with id 'n_missing'",
        path: ['opportunity'],
        extensions: { code: 'NOT_FOUND' },
      });
      expect(Object.keys(error).sort()).toEqual(expect.arrayContaining(['extensions', 'message', 'path']));
      expect(Object.keys(error).filter((k) => !['message', 'path', 'extensions', 'locations'].includes(k))).toEqual([]);
      expect(Object.keys(error.extensions!)).toEqual(['code']);
    });
  });
});
