import type { EntityManager } from '@mikro-orm/sql';
import { INTERNAL } from '../actor.ts';
import type { Core } from '../composition-root.ts';
import { underStartupLock } from '../db/orm.ts';
import {
  CollectionEntity,
  ContractTemplateEntity,
  EventEntity,
  MemberEntity,
  MembershipEntity,
  MilestoneEntity,
  NeedEntity,
  OrganizationEntity,
  PackDocumentEntity,
  PackEntity,
  PackInvitationEntity,
  PackMemberEntity,
  PactEntity,
  PactSignatureEntity,
  PayoutConfirmationEntity,
  PayoutEntity,
  PrivateClauseEntity,
  PrivateThreadEntity,
  QuoteEntity,
  RevenueSplitEntity,
  SettingEntity,
  ThreadMessageEntity,
  type Member,
  type Need,
  type Organization,
} from '../entities/index.ts';
import { newId } from '../ids.ts';
import { CANARY } from './canaries.ts';
import { DEMO_EVENTS, DEMO_MEMBERS, DEMO_NEEDS, DEMO_ORGANIZATIONS } from './demo-data.ts';

const SEEDED = 'demo_seeded_at';
const HOUR = 3600_000;
const DAY = 24 * HOUR;

export interface SeedResult {
  seeded: boolean;
  organizations: number;
  needs: number;
  events: number;
  /** A key for the demo organization, shown once; only when this call loaded the data. */
  demoApiKey?: { organizationId: string; key: string; expiresAt: Date };
}

export const DEMO_KEY_ORGANIZATION = 'atelier-nord';

/** Loads the demo platform once; later calls report that it is already there. */
export function seedDemo(core: Core, now = new Date()): Promise<SeedResult> {
  // Instances starting together on one PostgreSQL database load the data once between them.
  return underStartupLock(core.db, () => loadDemo(core, now));
}

async function loadDemo(core: Core, now: Date): Promise<SeedResult> {
  const em = core.db.em.fork();
  if (await em.findOne(SettingEntity, { key: SEEDED })) {
    return { seeded: false, organizations: 0, needs: 0, events: 0 };
  }
  const counts = await em.transactional(async (tx) => {
    const orgs = new Map(DEMO_ORGANIZATIONS.map((o) => [o.id, createOrganization(tx, o, now)]));
    const members = new Map(DEMO_MEMBERS.map((m) => [m.email, createMember(tx, m, orgs, now)]));
    const needs = DEMO_NEEDS.map((n, i) => createNeed(tx, n, orgs, i, now));
    for (const [i, e] of DEMO_EVENTS.entries()) createEvent(tx, e, orgs, i, now);
    createPrivateLife(tx, orgs, members, needs, now);
    tx.create(SettingEntity, { key: SEEDED, value: now.toISOString() });
    return { organizations: orgs.size, needs: needs.length, events: DEMO_EVENTS.length };
  });
  core.feed.changed();
  const { key, apiKey } = await core.services().apiKeys.create(INTERNAL, {
    organizationId: DEMO_KEY_ORGANIZATION,
    name: 'Demo key',
    scopes: ['organization:read', 'opportunities:read', 'events:read'],
    expiresAt: new Date(now.getTime() + 365 * DAY),
  });
  return { seeded: true, ...counts, demoApiKey: { organizationId: DEMO_KEY_ORGANIZATION, key, expiresAt: apiKey.expiresAt } };
}

function createOrganization(em: EntityManager, o: (typeof DEMO_ORGANIZATIONS)[number], now: Date): Organization {
  const [due, confirmed, partners] = o.payments;
  const [packs, references, certifications] = o.proofs;
  return em.create(OrganizationEntity, {
    id: o.id,
    name: o.name,
    plan: o.plan,
    listed: o.listed ?? true,
    demo: o.demo ?? false,
    complete: o.complete ?? true,
    description: o.description,
    website: o.website ?? null,
    logoUrl: o.website ? `${o.website}/logo.png` : null,
    sectors: o.sectors,
    capabilities: o.capabilities,
    networks: o.networks,
    city: o.city,
    region: o.region ?? null,
    country: o.country,
    partnerPaymentsDue: due,
    partnerPaymentsConfirmed: confirmed,
    partnersCount: partners,
    completedPacks: packs,
    referencesCount: references,
    certificationsCount: certifications,
    billingEmail: CANARY.orgBillingEmail,
    internalNotes: CANARY.orgInternalNotes,
    createdAt: new Date(now.getTime() - 400 * DAY),
    updatedAt: new Date(now.getTime() - 10 * DAY),
  });
}

function createMember(em: EntityManager, m: (typeof DEMO_MEMBERS)[number], orgs: Map<string, Organization>, now: Date): Member {
  const member = em.create(MemberEntity, {
    id: newId('member'),
    email: m.email,
    name: m.name,
    passwordHash: null,
    credentialsEpoch: 0,
    createdAt: now,
  });
  for (const [orgId, role] of m.memberships) em.create(MembershipEntity, { member, organization: orgs.get(orgId)!, role, createdAt: now });
  return member;
}

function createNeed(em: EntityManager, n: (typeof DEMO_NEEDS)[number], orgs: Map<string, Organization>, index: number, now: Date): Need {
  const org = orgs.get(n.organizationId)!;
  const state = n.state ?? 'public';
  const publishedAt = state === 'draft' ? null : new Date(now.getTime() - (index + 1) * 29 * HOUR);
  const unpublished = state === 'private' || state === 'withdrawn';
  return em.create(NeedEntity, {
    id: newId('need'),
    organization: org,
    title: n.title,
    description: n.description,
    requiredExpertise: n.expertise,
    remoteAllowed: n.remote ?? false,
    city: n.city ?? null,
    region: null,
    country: n.country ?? null,
    deadline: n.deadlineInDays ? new Date(now.getTime() + n.deadlineInDays * DAY) : null,
    state,
    discreet: n.discreet ?? false,
    demo: (n.demo ?? false) || org.demo,
    version: state === 'draft' ? 0 : unpublished ? 2 : 1,
    publishedAt,
    withdrawnAt: unpublished ? new Date(now.getTime() - HOUR) : null,
    createdBy: null,
    createdAt: publishedAt ?? now,
    updatedAt: publishedAt ?? now,
  });
}

function createEvent(em: EntityManager, e: (typeof DEMO_EVENTS)[number], orgs: Map<string, Organization>, index: number, now: Date) {
  const host = orgs.get(e.organizationId)!;
  // Whole hours keep the demo readable; the index keeps keyset ties apart.
  const startsAt = new Date(Math.floor((now.getTime() + e.startsInDays * DAY) / HOUR) * HOUR + index * 60_000);
  em.create(EventEntity, {
    id: newId('event'),
    host,
    title: e.title,
    description: e.description,
    startsAt,
    endsAt: new Date(startsAt.getTime() + e.hours * HOUR),
    timezone: e.timezone,
    online: e.online ?? false,
    city: e.online ? null : (e.city ?? null),
    region: null,
    country: e.online ? null : (e.country ?? null),
    status: e.cancelled ? 'cancelled' : 'public',
    demo: host.demo,
    version: e.cancelled ? 2 : 1,
    cancelledAt: e.cancelled ? new Date(now.getTime() - DAY) : null,
    hostContactEmail: CANARY.hostContactEmail,
    hostContactPhone: CANARY.hostContactPhone,
    hostNotes: CANARY.hostNotes,
    createdAt: new Date(now.getTime() - 30 * DAY),
    updatedAt: new Date(now.getTime() - 2 * DAY),
  });
}

/** Two packs with every private object, carrying the canary values. */
function createPrivateLife(em: EntityManager, orgs: Map<string, Organization>, members: Map<string, Member>, needs: Need[], now: Date) {
  const org = (id: string) => orgs.get(id)!;
  const member = (email: string) => members.get(email)!;
  const id = () => newId('private');
  const packs = [
    { need: needs[0]!, lead: org('atelier-nord'), partners: [org('delta-forge'), org('juniper-green')], name: 'School extension pack' },
    { need: needs[13]!, lead: org('juniper-green'), partners: [org('cobalt-data')], name: 'Community centre retrofit pack' },
  ];
  for (const [i, p] of packs.entries()) {
    const pack = em.create(PackEntity, {
      id: newId('pack'),
      need: p.need,
      leadOrganization: p.lead,
      name: p.name,
      status: i === 0 ? 'active' : 'forming',
      createdAt: now,
    });
    for (const partner of [p.lead, ...p.partners]) {
      em.create(PackMemberEntity, {
        id: id(),
        pack,
        organization: partner,
        positioning: CANARY.positioning,
        priceCents: CANARY.priceCents,
        currency: 'EUR',
      });
    }
    em.create(RevenueSplitEntity, {
      id: id(),
      pack,
      frozen: i === 0,
      shares: [{ organizationId: p.lead.id, percent: CANARY.splitPercent, amountCents: CANARY.splitShareCents }],
      totalCents: CANARY.splitTotalCents,
      currency: 'EUR',
    });
    em.create(CollectionEntity, {
      id: id(),
      pack,
      amountCents: CANARY.collectionCents,
      currency: 'EUR',
      payerReference: CANARY.collectionReference,
      receivedAt: now,
    });
    const payout = em.create(PayoutEntity, {
      id: id(),
      pack,
      recipient: p.partners[0]!,
      amountCents: CANARY.payoutCents,
      currency: 'EUR',
      status: 'confirmed',
      paidAt: now,
    });
    em.create(PayoutConfirmationEntity, {
      id: id(),
      payout,
      confirmedBy: member('ines@atelier-nord.example'),
      note: CANARY.payoutNote,
      confirmedAt: now,
    });
    em.create(MilestoneEntity, {
      id: id(),
      pack,
      title: CANARY.milestoneTitle,
      amountCents: CANARY.milestoneCents,
      dueAt: new Date(now.getTime() + 20 * DAY),
      status: 'planned',
    });
    em.create(PackDocumentEntity, {
      id: id(),
      pack,
      filename: CANARY.documentFilename,
      storageKey: `packs/${pack.id}/${CANARY.documentFilename}`,
      summary: CANARY.documentSummary,
    });
    const thread = em.create(PrivateThreadEntity, { id: id(), pack, subject: CANARY.threadSubject });
    em.create(ThreadMessageEntity, {
      id: id(),
      thread,
      author: member('ines@atelier-nord.example'),
      body: CANARY.threadMessage,
      sentAt: now,
    });
    em.create(QuoteEntity, {
      id: id(),
      need: p.need,
      pack,
      organization: p.partners[0]!,
      amountCents: CANARY.quoteCents,
      currency: 'EUR',
      body: CANARY.quoteBody,
      status: 'submitted',
    });
    const pact = em.create(PactEntity, { id: id(), pack, terms: CANARY.pactTerms, status: 'sent' });
    em.create(PactSignatureEntity, {
      id: id(),
      pact,
      member: member('anna@delta-forge.example'),
      providerEnvelopeId: CANARY.signatureEnvelope,
      state: 'pending',
      signedAt: null,
    });
    // Team invitations: pending ones are what the member connector lists.
    const invite = (email: string, status: 'pending' | 'accepted') =>
      em.create(PackInvitationEntity, { id: id(), pack, member: member(email), invitedBy: p.lead, status, createdAt: now });
    invite(i === 0 ? 'tom@atelier-nord.example' : 'lucas@cobalt-data.example', 'pending');
    invite('marc@juniper-green.example', i === 0 ? 'pending' : 'accepted');
  }
  for (const o of orgs.values()) {
    em.create(PrivateClauseEntity, { id: id(), organization: o, title: 'Confidentiality', body: CANARY.clauseBody });
    em.create(ContractTemplateEntity, { id: id(), organization: o, name: 'Standard pact', body: CANARY.templateBody });
  }
}
