import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.ts';
import type { OrganizationProfile } from '../public-views.ts';
import { composeTeam, type TeamRequest } from './compose-team.ts';
import { ALL_DEMO_PROFILES, DISCOVERABLE_DEMO_PROFILES, HIDDEN_DEMO_IDS } from '../../test/fixtures/demo-profiles.ts';

interface Row {
  name: string;
  request: TeamRequest;
  coverage: number;
  gaps: string[];
  /** Members expected, in order of choice. */
  team: string[];
  mustNotInclude?: string[];
  /** A reason the first member must carry. */
  reason?: string;
}

/** A made-up listed organization, for cases the demo data does not show. */
function org(id: string, capabilities: string[], more: Partial<OrganizationProfile> = {}): OrganizationProfile {
  return {
    ...DISCOVERABLE_DEMO_PROFILES[0]!,
    id,
    name: id.toUpperCase(),
    capabilities,
    proofs: { completedPacks: 1, references: 0, certifications: 0 },
    place: { city: 'Lille', region: 'Hauts-de-France', country: 'FR' },
    profileUrl: `https://packline.example/organizations/${id}`,
    ...more,
  };
}

const SEVEN = [
  'architecture',
  'web development',
  'machine learning',
  'penetration testing',
  'solar installation',
  'translation',
  'mechanical engineering',
];

const ROWS: Row[] = [
  {
    name: 'EN text, interior design and 3D in Lille',
    request: { needText: 'Interior design and 3D modelling for a new office in Lille', place: { city: 'Lille' } },
    coverage: 100,
    gaps: [],
    team: ['atelier-nord'],
    reason: 'based in Lille (same city)',
  },
  {
    name: 'FR text, architecture intérieure, modélisation 3D, pilotage',
    request: { needText: 'Architecture intérieure et modélisation 3D pour des bureaux, avec pilotage du projet' },
    coverage: 100,
    gaps: [],
    team: ['atelier-nord'],
    reason: 'covers interior design, 3d modelling and project management',
  },
  {
    name: 'EN text, web app, accessibility and UX, never the demo account',
    request: { needText: 'A web app with an accessibility audit and a UX designer', remote: true },
    coverage: 100,
    gaps: [],
    team: ['brightwave-labs'],
    mustNotInclude: ['iris-demo'],
    reason: 'remote work accepted',
  },
  {
    name: 'FR text, site internet et application mobile',
    request: { needText: "Développement d'un site internet et d'une application mobile" },
    coverage: 100,
    gaps: [],
    team: ['brightwave-labs'],
  },
  {
    name: 'only an unlisted organization offers video',
    request: { requiredExpertise: ['video production', 'motion design'] },
    coverage: 0,
    gaps: ['video production', 'motion design'],
    team: [],
    mustNotInclude: ['harbor-studio'],
  },
  {
    name: 'only an incomplete organization offers masonry',
    request: { requiredExpertise: ['masonry', 'timber construction'] },
    coverage: 0,
    gaps: ['masonry', 'timber construction'],
    team: [],
    mustNotInclude: ['granite-coop'],
  },
  {
    name: 'language services: best proofs first',
    request: { requiredExpertise: ['translation', 'localisation', 'copywriting', 'brand strategy'] },
    coverage: 100,
    gaps: [],
    team: ['ember-comms', 'kite-translations'],
    reason: '8 completed packs',
  },
  {
    name: 'language services in Brussels: the local one first',
    request: { requiredExpertise: ['translation', 'localisation', 'copywriting', 'brand strategy'], place: { city: 'Brussels' } },
    coverage: 100,
    gaps: [],
    team: ['kite-translations', 'ember-comms'],
    reason: 'based in Brussels (same city)',
  },
  {
    name: 'FR text, énergie in Canada, on site',
    request: {
      needText: "Audit énergétique et rénovation énergétique d'un bâtiment, installation de panneaux solaires",
      place: { country: 'Canada' },
      remote: false,
    },
    coverage: 100,
    gaps: [],
    team: ['juniper-green'],
    reason: 'based in Montréal (same country)',
  },
  {
    name: 'EN text, security and legal',
    request: { needText: 'Penetration test and security audit of our API, plus GDPR compliance and contract law' },
    coverage: 100,
    gaps: [],
    team: ['lumen-security', 'fjord-legal'],
  },
  {
    name: 'data stack, kubernetes is devops',
    request: { requiredExpertise: ['data engineering', 'machine learning', 'python', 'kubernetes'] },
    coverage: 100,
    gaps: [],
    team: ['cobalt-data', 'lumen-security'],
  },
  {
    name: 'data stack with one member',
    request: { requiredExpertise: ['data engineering', 'machine learning', 'python', 'kubernetes'], maxMembers: 1 },
    coverage: 75,
    gaps: ['devops'],
    team: ['cobalt-data'],
  },
  {
    name: 'nobody offers acoustics or lighting',
    request: { requiredExpertise: ['acoustics', 'lighting design', 'interior design'] },
    coverage: 33,
    gaps: ['acoustics', 'lighting design'],
    team: ['atelier-nord'],
  },
  {
    name: 'EN text, machine and robot',
    request: { needText: 'Mechanical engineering and prototyping of a fruit-picking robot, with CNC machining' },
    coverage: 75,
    gaps: ['robotics'],
    team: ['delta-forge'],
  },
  {
    name: 'on site in France: the French translator, not the Belgian one',
    request: { requiredExpertise: ['web development', 'translation'], place: { country: 'France' }, remote: false },
    coverage: 100,
    gaps: [],
    team: ['ember-comms', 'brightwave-labs'],
    mustNotInclude: ['kite-translations'],
    reason: 'based in Paris (same country)',
  },
  {
    name: 'FR expertise list in Paris',
    request: { requiredExpertise: ['Traduction', 'Réseaux sociaux', 'Rédaction'], place: { city: 'Paris' } },
    coverage: 100,
    gaps: [],
    team: ['ember-comms'],
    mustNotInclude: ['kite-translations'],
  },
  {
    name: 'an unknown expertise stays a gap',
    request: { requiredExpertise: ['Quantum  Cryptography', 'Python'] },
    coverage: 50,
    gaps: ['quantum cryptography'],
    team: ['cobalt-data'],
  },
  {
    name: 'FR text, designer industriel et génie électrique',
    request: { needText: 'Nous cherchons un designer industriel et un ingénieur en génie électrique' },
    coverage: 50,
    gaps: ['electrical engineering'],
    team: ['delta-forge'],
  },
  {
    name: 'EN text, pipelines and dashboards in Lyon',
    request: { needText: 'Data pipelines and dashboards for our analytics team', place: { city: 'Lyon' } },
    coverage: 100,
    gaps: [],
    team: ['cobalt-data'],
    reason: 'based in Lyon (same city)',
  },
  {
    name: 'EN text, legal counsel',
    request: { needText: 'Legal counsel on intellectual property and GDPR' },
    coverage: 100,
    gaps: [],
    team: ['fjord-legal'],
  },
  {
    name: 'seven expertise, default cap of four',
    request: { requiredExpertise: SEVEN },
    coverage: 57,
    gaps: ['machine learning', 'penetration testing', 'translation'],
    team: ['delta-forge', 'juniper-green', 'atelier-nord', 'brightwave-labs'],
  },
  {
    name: 'seven expertise, cap raised to its maximum',
    request: { requiredExpertise: SEVEN, maxMembers: 10 },
    coverage: 86,
    gaps: ['translation'],
    team: ['delta-forge', 'juniper-green', 'atelier-nord', 'brightwave-labs', 'lumen-security', 'cobalt-data'],
  },
];

describe('composeTeam over the demo organizations', () => {
  it.each(ROWS)('$name', ({ request, coverage, gaps, team, mustNotInclude, reason }) => {
    const proposal = composeTeam(request, DISCOVERABLE_DEMO_PROFILES);
    expect(proposal.coveragePercent).toBe(coverage);
    expect(proposal.gaps).toEqual(gaps);
    expect(proposal.members.map((m) => m.organizationId)).toEqual(team);
    for (const id of mustNotInclude ?? []) expect(proposal.members.map((m) => m.organizationId)).not.toContain(id);
    if (reason) expect(proposal.members[0]?.reasons).toContain(reason);
    expect(proposal.explanation).toContain('no organization has been contacted');
  });

  it('gives each member a profile link, what it covers and why', () => {
    const proposal = composeTeam(
      { requiredExpertise: ['translation', 'localisation', 'copywriting', 'brand strategy'] },
      DISCOVERABLE_DEMO_PROFILES,
    );
    expect(proposal.required).toEqual([
      { concept: 'translation', label: 'translation' },
      { concept: 'localisation', label: 'localisation' },
      { concept: 'copywriting', label: 'copywriting' },
      { concept: 'brand-strategy', label: 'brand strategy' },
    ]);
    expect(proposal.members[0]).toMatchObject({
      organizationId: 'ember-comms',
      name: 'Ember Communication',
      profileUrl: 'https://packline.example/organizations/ember-comms',
      covers: ['translation', 'copywriting', 'brand strategy'],
      reasons: ['covers translation, copywriting and brand strategy', '8 completed packs', '6 references'],
    });
    expect(proposal.members[1]?.covers).toEqual(['localisation']);
    expect(proposal.members[0]!.score).toBeGreaterThan(proposal.members[1]!.score);
  });

  it('is deterministic: same input, any candidate order, the same proposal', () => {
    const request: TeamRequest = {
      needText: 'Traduction, réseaux sociaux, site web et audit de sécurité',
      place: { country: 'FR' },
      remote: false,
    };
    const first = composeTeam(request, DISCOVERABLE_DEMO_PROFILES);
    expect(composeTeam(request, DISCOVERABLE_DEMO_PROFILES)).toEqual(first);
    expect(composeTeam(request, [...DISCOVERABLE_DEMO_PROFILES].reverse())).toEqual(first);
    const shuffled = [...DISCOVERABLE_DEMO_PROFILES].sort((a, b) => a.name.length - b.name.length || b.id.localeCompare(a.id));
    expect(composeTeam(request, shuffled)).toEqual(first);
    expect(first.members.length).toBeGreaterThan(1);
  });

  it('caps the team at maxMembers, and at six whatever is asked', () => {
    const everything = [
      'architecture',
      'web development',
      'data engineering',
      'cnc machining',
      'copywriting',
      'contract law',
      'solar installation',
      'localisation',
      'devops',
    ];
    for (const [asked, size] of [
      [1, 1],
      [3, 3],
      [undefined, 4],
      [6, 6],
      [50, 6],
    ] as const) {
      const proposal = composeTeam({ requiredExpertise: everything, maxMembers: asked }, DISCOVERABLE_DEMO_PROFILES);
      expect(proposal.members).toHaveLength(size);
      expect(proposal.gaps).toHaveLength(everything.length - proposal.members.flatMap((m) => m.covers).length);
    }
  });

  it('refuses a team size that is not a whole number of at least one', () => {
    for (const maxMembers of [0, -2, 1.5, Number.NaN]) {
      expect(() => composeTeam({ requiredExpertise: ['python'], maxMembers }, DISCOVERABLE_DEMO_PROFILES)).toThrow(
        expect.objectContaining({ code: 'invalid_input', field: 'maxMembers' }),
      );
    }
  });

  it('never proposes a demonstration, unlisted or incomplete organization, even when given one', () => {
    expect(HIDDEN_DEMO_IDS).toEqual(['granite-coop', 'harbor-studio', 'iris-demo']);
    const requests: TeamRequest[] = [
      ...ROWS.map((r) => r.request),
      { requiredExpertise: ['web development', 'ux design', 'architecture'] },
      { requiredExpertise: ['masonry', 'video production', 'motion design'] },
    ];
    for (const request of requests) {
      const ids = composeTeam(request, ALL_DEMO_PROFILES).members.map((m) => m.organizationId);
      for (const hidden of HIDDEN_DEMO_IDS) expect(ids).not.toContain(hidden);
    }
    // The demonstration account has more proofs than anyone, and would otherwise win.
    expect(
      composeTeam({ requiredExpertise: ['web development', 'ux design', 'architecture'] }, ALL_DEMO_PROFILES).members.map(
        (m) => m.organizationId,
      ),
    ).toEqual(['brightwave-labs', 'atelier-nord']);
  });

  it('resolves French expertise to the same concepts as English', () => {
    const fr = composeTeam(
      { requiredExpertise: ['Développement web', 'Modélisation 3D', 'Gestion de projet', 'Traduction', 'Apprentissage automatique'] },
      DISCOVERABLE_DEMO_PROFILES,
    );
    const en = composeTeam(
      { requiredExpertise: ['web development', '3D modelling', 'project management', 'translation', 'machine learning'] },
      DISCOVERABLE_DEMO_PROFILES,
    );
    expect(fr.required).toEqual(en.required);
    expect(fr.members).toEqual(en.members);
    expect(fr.coveragePercent).toBe(100);
  });

  it('reads expertise from requiredExpertise and ignores the need text then', () => {
    const proposal = composeTeam(
      { requiredExpertise: ['python'], needText: 'interior design and translation' },
      DISCOVERABLE_DEMO_PROFILES,
    );
    expect(proposal.required.map((r) => r.concept)).toEqual(['python']);
  });

  it('fails clearly when no expertise can be found', () => {
    for (const request of [
      {},
      { needText: '' },
      { needText: 'Something nice for next spring, please' },
      { requiredExpertise: ['  ', ''] },
    ] as TeamRequest[]) {
      let error: unknown;
      try {
        composeTeam(request, DISCOVERABLE_DEMO_PROFILES);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'invalid_input',
        field: 'requiredExpertise',
        message: 'Give required expertise or a need text naming some',
      });
    }
  });

  it('never echoes the need text in the proposal', () => {
    const needText = 'Confidential project Zebra-42 for Mrs Dupont: interior design and 3D modelling, call 06 12 34 56 78';
    const text = JSON.stringify(composeTeam({ needText }, DISCOVERABLE_DEMO_PROFILES));
    for (const secret of ['Zebra', 'Dupont', 'Confidential', '06 12']) expect(text).not.toContain(secret);
  });

  it('answers with an empty team when there are no candidates', () => {
    const proposal = composeTeam({ requiredExpertise: ['python'] }, []);
    expect(proposal).toMatchObject({ members: [], coveragePercent: 0, gaps: ['python'] });
    expect(proposal.explanation).toMatch(/^No listed organization offers the required expertise\./);
  });

  it('drops a member the rest of the team makes redundant', () => {
    // Greedy picks the broad one first; the two specialists chosen next cover all it covered.
    const broad = org('broad', ['architecture', 'interior design', 'lighting design', 'acoustics'], {
      proofs: { completedPacks: 40, references: 20, certifications: 5 },
    });
    const left = org('left', ['architecture', 'interior design', 'translation']);
    const right = org('right', ['lighting design', 'acoustics', 'copywriting']);
    const proposal = composeTeam(
      { requiredExpertise: ['architecture', 'interior design', 'lighting design', 'acoustics', 'translation', 'copywriting'] },
      [broad, left, right],
    );
    expect(proposal.members.map((m) => m.organizationId)).toEqual(['left', 'right']);
    expect(proposal.members.map((m) => m.covers)).toEqual([
      ['architecture', 'interior design', 'translation'],
      ['lighting design', 'acoustics', 'copywriting'],
    ]);
    expect(proposal.coveragePercent).toBe(100);
  });

  it('weighs place: same city over same region over same country, another country penalised on site only', () => {
    const [abroad, country, region, city] = [
      org('a-abroad', ['python'], { place: { city: 'Berlin', region: null, country: 'DE' } }),
      org('b-country', ['python'], { place: { city: 'Nantes', region: 'Pays de la Loire', country: 'FR' } }),
      org('c-region', ['python'], { place: { city: 'Roubaix', region: 'Hauts-de-France', country: 'FR' } }),
      org('d-city', ['python'], { place: { city: 'Lille', region: 'Hauts-de-France', country: 'FR' } }),
    ];
    const first = (request: Partial<TeamRequest>, pool: OrganizationProfile[]) =>
      composeTeam({ requiredExpertise: ['python'], ...request }, pool).members[0];
    expect(first({ place: { city: 'LILLE' } }, [abroad!, country!, region!, city!])?.organizationId).toBe('d-city');
    expect(first({ place: { region: 'hauts de france' } }, [abroad!, country!, region!])?.organizationId).toBe('c-region');
    expect(first({ place: { country: 'France' } }, [abroad!, country!])?.reasons).toContain('based in Nantes (same country)');
    // More proofs outweigh a place bonus, but not the penalty of another country when on site.
    const proven = { ...abroad!, proofs: { completedPacks: 30, references: 20, certifications: 5 } };
    expect(first({ place: { country: 'FR' } }, [proven, country!])?.organizationId).toBe('a-abroad');
    expect(first({ place: { country: 'FR' }, remote: true }, [proven, country!])?.organizationId).toBe('a-abroad');
    const onSite = first({ place: { country: 'FR' }, remote: false }, [proven, country!]);
    expect(onSite?.organizationId).toBe('b-country');
    expect(composeTeam({ requiredExpertise: ['python'], place: { country: 'FR' }, remote: false }, [proven]).members[0]?.reasons).toContain(
      'based in Berlin, DE (another country)',
    );
  });
});
