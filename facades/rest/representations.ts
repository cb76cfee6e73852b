// GraphQL results → the JSON of the public API (snake_case, DESIGN §3). Every field is copied
// by name: nothing reaches a response unless it is listed here.

interface Place {
  city: string | null;
  region: string | null;
  country: string | null;
}

export interface OrganizationNode {
  id: string;
  name: string;
  description: string;
  website: string | null;
  logoUrl: string | null;
  sectors: string[];
  capabilities: string[];
  networks: string[];
  profileUrl: string;
  updatedAt: string;
  place: Place;
  partnerPayment: { confirmedRatePercent: number | null; partnersCount: number };
  proofs: { completedPacks: number; references: number; certifications: number };
}

export interface OpportunityNode {
  id: string;
  title: string;
  description: string;
  requiredExpertise: string[];
  remoteAllowed: boolean;
  url: string;
  publishedAt: string | null;
  updatedAt: string;
  deadline: string | null;
  place: Place | null;
  organization: { id: string; name: string };
}

export interface EventNode {
  id: string;
  title: string;
  description: string;
  startsAt: string;
  endsAt: string;
  timezone: string;
  online: boolean;
  url: string;
  updatedAt: string;
  place: Place | null;
  host: { id: string; name: string };
}

export interface Connection<T> {
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const place = (p: Place | null) => (p ? { city: p.city, region: p.region, country: p.country } : null);

export const organizationJson = (o: OrganizationNode) => ({
  id: o.id,
  name: o.name,
  description: o.description,
  website: o.website,
  logo_url: o.logoUrl,
  sectors: o.sectors,
  capabilities: o.capabilities,
  place: place(o.place),
  networks: o.networks,
  partner_payment: { confirmed_rate_percent: o.partnerPayment.confirmedRatePercent, partners_count: o.partnerPayment.partnersCount },
  proofs: { completed_packs: o.proofs.completedPacks, references: o.proofs.references, certifications: o.proofs.certifications },
  profile_url: o.profileUrl,
  updated_at: o.updatedAt,
});

export const opportunityJson = (n: OpportunityNode) => ({
  id: n.id,
  title: n.title,
  description: n.description,
  required_expertise: n.requiredExpertise,
  remote_allowed: n.remoteAllowed,
  place: place(n.place),
  organization: { id: n.organization.id, name: n.organization.name },
  url: n.url,
  published_at: n.publishedAt,
  updated_at: n.updatedAt,
  deadline: n.deadline,
});

export const eventJson = (e: EventNode) => ({
  id: e.id,
  title: e.title,
  description: e.description,
  starts_at: e.startsAt,
  ends_at: e.endsAt,
  timezone: e.timezone,
  online: e.online,
  place: place(e.place),
  url: e.url,
  host: { id: e.host.id, name: e.host.name },
  updated_at: e.updatedAt,
});

export const listJson = <T, R>(connection: Connection<T>, map: (node: T) => R) => ({
  data: connection.edges.map((edge) => map(edge.node)),
  meta: { next_cursor: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null },
});
