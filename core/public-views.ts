// What a public projection carries: the views visibility.ts builds from public records.
import type { Event, NeedState, Plan } from './entities/index.ts';

export interface Place {
  city: string | null;
  region: string | null;
  country: string | null;
}

export interface OrganizationSummary {
  id: string;
  name: string;
}

export interface OrganizationProfile {
  id: string;
  name: string;
  description: string;
  website: string | null;
  logoUrl: string | null;
  sectors: string[];
  capabilities: string[];
  place: Place;
  networks: string[];
  partnerPayment: { confirmedRatePercent: number | null; partnersCount: number };
  proofs: { completedPacks: number; references: number; certifications: number };
  profileUrl: string;
  updatedAt: Date;
  /** Administrative facts, exposed to internal callers only by the schema. */
  admin: { plan: Plan; listed: boolean; demo: boolean; complete: boolean; createdAt: Date };
}

export interface NeedView {
  id: string;
  organizationId: string;
  /** The organization's id and name when the read fetched them with the need; else null, and the schema loads them by id. */
  organization: OrganizationSummary | null;
  title: string;
  description: string;
  requiredExpertise: string[];
  remoteAllowed: boolean;
  place: Place | null;
  url: string;
  publishedAt: Date | null;
  updatedAt: Date;
  deadline: Date | null;
  admin: { state: NeedState; discreet: boolean; demo: boolean; version: number; withdrawnAt: Date | null };
}

export interface EventView {
  id: string;
  hostId: string;
  /** The host's id and name when the read fetched them with the event; else null, and the schema loads them by id. */
  host: OrganizationSummary | null;
  title: string;
  description: string;
  startsAt: Date;
  endsAt: Date;
  timezone: string;
  online: boolean;
  place: Place | null;
  url: string;
  updatedAt: Date;
  admin: { status: Event['status']; demo: boolean; version: number; cancelledAt: Date | null };
}
