import { describe, expect, it } from 'vitest';
import type { Event, Need, Organization } from './entities/index.ts';
import {
  eventSignalData,
  eventView,
  isEventPublic,
  isNeedDeliverable,
  isNeedPublic,
  isOrganizationDiscoverable,
  needSignalData,
  organizationProfile,
} from './visibility.ts';

const links = { publicBaseUrl: 'https://packline.test' };

const org = (over: Partial<Organization> = {}) =>
  ({
    id: 'acme',
    name: 'Acme',
    plan: 'clan',
    listed: true,
    demo: false,
    complete: true,
    description: 'd',
    website: null,
    logoUrl: null,
    sectors: ['a'],
    capabilities: ['b'],
    networks: [],
    city: 'Lille',
    region: null,
    country: 'FR',
    partnerPaymentsDue: 8,
    partnerPaymentsConfirmed: 7,
    partnersCount: 4,
    completedPacks: 3,
    referencesCount: 2,
    certificationsCount: 1,
    billingEmail: 'billing@acme.example',
    internalNotes: 'secret notes',
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...over,
  }) as Organization;

describe('visibility rules', () => {
  it('a need is public only when published and not demonstration content', () => {
    expect(isNeedPublic({ state: 'public', demo: false })).toBe(true);
    expect(isNeedPublic({ state: 'public', demo: true })).toBe(false);
    for (const state of ['draft', 'private', 'withdrawn'] as const) expect(isNeedPublic({ state, demo: false })).toBe(false);
  });

  it('discreet needs and needs stating an amount are public but never delivered', () => {
    const need = {
      state: 'public',
      demo: false,
      discreet: false,
      title: 'Data engineer',
      description: 'Three months in Lyon',
      requiredExpertise: ['sql'],
    } as const;
    expect(isNeedDeliverable({ ...need, requiredExpertise: [...need.requiredExpertise] })).toBe(true);
    expect(isNeedDeliverable({ ...need, requiredExpertise: [], discreet: true })).toBe(false);
    expect(isNeedDeliverable({ ...need, requiredExpertise: [], demo: true })).toBe(false);
    expect(isNeedDeliverable({ ...need, requiredExpertise: [], description: 'Budget : 15 k€ sur trois mois' })).toBe(false);
    expect(isNeedDeliverable({ ...need, requiredExpertise: [], title: 'Audit for USD 40k' })).toBe(false);
    expect(isNeedDeliverable({ ...need, requiredExpertise: ['rates from €500/day'] })).toBe(false);
  });

  it('cancelled and demonstration events are not public', () => {
    expect(isEventPublic({ status: 'public', demo: false })).toBe(true);
    expect(isEventPublic({ status: 'cancelled', demo: false })).toBe(false);
    expect(isEventPublic({ status: 'public', demo: true })).toBe(false);
  });

  it('only listed, complete, non-demo organizations are discoverable', () => {
    expect(isOrganizationDiscoverable(org())).toBe(true);
    expect(isOrganizationDiscoverable(org({ listed: false }))).toBe(false);
    expect(isOrganizationDiscoverable(org({ complete: false }))).toBe(false);
    expect(isOrganizationDiscoverable(org({ demo: true }))).toBe(false);
  });
});

describe('public projections', () => {
  it('shows partner payment as a rate and a count, and no internal field', () => {
    const profile = organizationProfile(org(), links);
    expect(profile.partnerPayment).toEqual({ confirmedRatePercent: 88, partnersCount: 4 });
    expect(JSON.stringify(profile)).not.toMatch(/billing@acme|secret notes/);
  });

  it('has no rate before any payment is due', () => {
    expect(
      organizationProfile(org({ partnerPaymentsDue: 0, partnerPaymentsConfirmed: 0 }), links).partnerPayment.confirmedRatePercent,
    ).toBeNull();
  });

  it('never copies internal host fields of an event', () => {
    const event = {
      id: 'ev_1',
      host: { id: 'acme' },
      title: 'T',
      description: 'D',
      startsAt: new Date('2026-12-01T10:00:00Z'),
      endsAt: new Date('2026-12-01T12:00:00Z'),
      timezone: 'Europe/Paris',
      online: true,
      city: null,
      region: null,
      country: null,
      status: 'public',
      demo: false,
      version: 1,
      cancelledAt: null,
      hostContactEmail: 'host@acme.example',
      hostContactPhone: '+33 1 23 45 67 89',
      hostNotes: 'internal note',
      createdAt: new Date(0),
      updatedAt: new Date(0),
    } as unknown as Event;
    const text = JSON.stringify([eventView(event, links), eventSignalData(event, links)]);
    expect(text).not.toMatch(/host@acme|\+33 1 23|internal note/);
    expect(eventSignalData(event, links)).toEqual({
      id: 'ev_1',
      title: 'T',
      starts_at: '2026-12-01T10:00:00.000Z',
      ends_at: '2026-12-01T12:00:00.000Z',
      online: true,
      url: 'https://packline.test/events/ev_1',
    });
  });

  it('shapes need signals as docs/service-contract.md#event-kinds says', () => {
    const need = {
      id: 'n_1',
      title: 'T',
      requiredExpertise: ['a'],
      remoteAllowed: true,
      withdrawnAt: new Date('2026-11-22T10:00:00Z'),
    } as unknown as Need;
    expect(needSignalData(need, links, false)).toEqual({
      id: 'n_1',
      title: 'T',
      required_expertise: ['a'],
      remote_allowed: true,
      url: 'https://packline.test/opportunities/n_1',
    });
    expect(needSignalData(need, links, true)).toEqual({
      id: 'n_1',
      withdrawn_at: '2026-11-22T10:00:00.000Z',
      url: 'https://packline.test/opportunities/n_1',
    });
  });
});
