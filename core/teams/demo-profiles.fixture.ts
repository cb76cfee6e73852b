// Public profiles of the demo organizations, built without a database: the organization record
// is filled the way core/demo/seed.ts fills it, then projected by the app's own organizationProfile.
import { DEMO_ORGANIZATIONS, type DemoOrganization } from '../demo/demo-data.ts';
import type { Organization } from '../entities/index.ts';
import { isOrganizationDiscoverable, organizationProfile, type OrganizationProfile } from '../visibility.ts';

const NOW = new Date('2026-07-25T10:00:00.000Z');
const DAY = 24 * 3600_000;
const LINKS = { publicBaseUrl: 'https://packline.example' };

function demoOrganization(o: DemoOrganization): Organization {
  const [due, confirmed, partners] = o.payments;
  const [packs, references, certifications] = o.proofs;
  const record = {
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
    billingEmail: null,
    internalNotes: null,
    createdAt: new Date(NOW.getTime() - 400 * DAY),
    updatedAt: new Date(NOW.getTime() - 10 * DAY),
  };
  // A plain record standing in for the entity: organizationProfile reads these fields only.
  return record as unknown as Organization;
}

/** Every demo organization's profile, demonstration, unlisted and incomplete ones included. */
export const ALL_DEMO_PROFILES: readonly OrganizationProfile[] = DEMO_ORGANIZATIONS.map((o) => organizationProfile(demoOrganization(o), LINKS));

/** The profiles the public connector may propose: what a caller of composeTeam passes. */
export const DISCOVERABLE_DEMO_PROFILES: readonly OrganizationProfile[] = DEMO_ORGANIZATIONS.filter((o) =>
  isOrganizationDiscoverable(demoOrganization(o)),
).map((o) => organizationProfile(demoOrganization(o), LINKS));

/** Ids of demo organizations that must never be proposed. */
export const HIDDEN_DEMO_IDS: readonly string[] = DEMO_ORGANIZATIONS.filter((o) => !isOrganizationDiscoverable(demoOrganization(o))).map((o) => o.id);
